/**
 * Translation evidence between the two halves of a snippet that holds up in literary and classical text, where
 * few whole words of the Chinese half are dictionary words the English half uses (group T of the features):
 *
 * | feature | definition |
 * |---|---|
 * | `charCoverage` | share of the Chinese half's distinct Han characters that the lexicon knows as words (stop words out) one of whose translations is a content word of the English half |
 * | `wordCoverage` | the same over the Chinese half's distinct words of two or more characters that the lexicon knows |
 * | `englishCoverage` | share of the English half's distinct content words that translate a word or a character of the Chinese half |
 * | `sentenceLengthFit` | the halves' complete sentences paired in order: mean of min(r, 1/r), r = Latin letters / (LETTERS_PER_HAN × Han characters) |
 * | `punctuationAlignment` | the halves' counts of punctuation classes (comma, stop, question, exclamation, colon, semicolon, quote, bracket, dash): Σ min / the larger total |
 *
 * Each is 0 when a half gives nothing to count. The text reaching here is Simplified (OpenCC converts Traditional
 * while cleaning) and the lexicon converts any word it does not know as written, so Traditional and Simplified
 * snippets are matched alike. Only forward lookups (Chinese → English) are used: the reverse index costs ≈ 0.9 s.
 */
import { isStopWord, type Lexicon } from "../text/index.js";

export interface Halves {
  /** English tokens (stems) of the English half. */
  enTokens: readonly string[];
  enText: string;
  /** Chinese tokens (jieba words, Latin terms as English tokens) of the Chinese half. */
  zhTokens: readonly string[];
  zhText: string;
}

export interface TranslationEvidence {
  charCoverage: number;
  wordCoverage: number;
  englishCoverage: number;
  sentenceLengthFit: number;
  punctuationAlignment: number;
}

/** Latin letters per Han character in translated text (the Gale-Church c of the Tatoeba dev pairs). */
export const LETTERS_PER_HAN = 2.8;

const HAN_CHAR = /\p{Script=Han}/gu;
const HAN_WORD = /^\p{Script=Han}{2,}$/u;
const LATIN_LETTERS = /\p{Script=Latin}/gu;
const ENGLISH_WORD = /^\p{Script=Latin}{2,}$/u;

export function translationEvidence(h: Halves, lex: Lexicon): TranslationEvidence {
  const en = new Set<string>();
  for (const t of h.enTokens) if (ENGLISH_WORD.test(t) && !isStopWord(t, "en")) en.add(t);
  const chars = new Set(h.zhText.match(HAN_CHAR) ?? []);
  const words = new Set<string>();
  for (const t of h.zhTokens) if (HAN_WORD.test(t)) words.add(t);
  const glossed = new Set<string>();
  const coverage = (units: ReadonlySet<string>) => {
    let known = 0;
    let covered = 0;
    for (const u of units) {
      const t = lex.translations(u, "zh");
      if (!t) continue;
      for (const g of t.keys()) glossed.add(g);
      if (isStopWord(u, "zh")) continue;
      known++;
      for (const w of en) {
        if (t.has(w)) {
          covered++;
          break;
        }
      }
    }
    return known ? covered / known : 0;
  };
  const charCoverage = en.size ? coverage(chars) : 0;
  const wordCoverage = en.size ? coverage(words) : 0;
  let englishCovered = 0;
  for (const w of en) if (glossed.has(w)) englishCovered++;
  return {
    charCoverage,
    wordCoverage,
    englishCoverage: en.size && glossed.size ? englishCovered / en.size : 0,
    sentenceLengthFit: sentenceLengthFit(h.enText, h.zhText),
    punctuationAlignment: punctuationAlignment(h.enText, h.zhText),
  };
}

/** Complete sentences: text up to and including an end mark (a trailing fragment without one is cut by the engine). */
const EN_SENTENCE = /[^.!?]*[.!?]+(?=\s|$|["”’)])/g;
const ZH_SENTENCE = /[^。！？!?]*[。！？!?]+/g;

function sentenceLengthFit(enText: string, zhText: string): number {
  const en = enText.match(EN_SENTENCE) ?? [];
  const zh = zhText.match(ZH_SENTENCE) ?? [];
  const n = Math.min(en.length, zh.length);
  let sum = 0;
  let counted = 0;
  for (let k = 0; k < n; k++) {
    const letters = en[k]!.match(LATIN_LETTERS)?.length ?? 0;
    const han = zh[k]!.match(HAN_CHAR)?.length ?? 0;
    if (!letters || !han) continue;
    const r = letters / (LETTERS_PER_HAN * han);
    sum += Math.min(r, 1 / r);
    counted++;
  }
  return counted ? sum / counted : 0;
}

/** Punctuation classes, the same for the full-width and the ASCII forms (the text is width-folded before). */
const PUNCTUATION_CLASS: Readonly<Record<string, string>> = {
  ",": "c",
  "，": "c",
  "、": "c",
  ".": "s",
  "。": "s",
  "?": "q",
  "？": "q",
  "!": "x",
  "！": "x",
  ":": "o",
  "：": "o",
  ";": "m",
  "；": "m",
  '"': "u",
  "“": "u",
  "”": "u",
  "「": "u",
  "」": "u",
  "『": "u",
  "』": "u",
  "《": "u",
  "》": "u",
  "(": "b",
  ")": "b",
  "（": "b",
  "）": "b",
  "—": "d",
};
const PUNCTUATION = /[,，、.。?？!！:：;；"“”「」『』《》()（）—]/g;
/** Marks counted per half (a long snippet's later marks add nothing). */
const MAX_MARKS = 64;
const CLASSES = "csqxomubd";

/** Count of each punctuation class; a run of one mark ("——", "?!" aside) counts once, quotes and brackets each. */
function punctuationCounts(text: string): number[] {
  const counts = new Array<number>(CLASSES.length).fill(0);
  const marks = text.match(PUNCTUATION) ?? [];
  let last = "";
  for (let i = 0, n = 0; i < marks.length && n < MAX_MARKS; i++) {
    const c = PUNCTUATION_CLASS[marks[i]!]!;
    if (c === last && c !== "u" && c !== "b") continue;
    last = c;
    counts[CLASSES.indexOf(c)]!++;
    n++;
  }
  return counts;
}

/** Histogram intersection of the halves' punctuation classes over the larger total: 1 when they punctuate alike. */
function punctuationAlignment(enText: string, zhText: string): number {
  const a = punctuationCounts(enText);
  const b = punctuationCounts(zhText);
  let common = 0;
  let ta = 0;
  let tb = 0;
  for (let k = 0; k < a.length; k++) {
    common += Math.min(a[k]!, b[k]!);
    ta += a[k]!;
    tb += b[k]!;
  }
  return ta && tb ? common / Math.max(ta, tb) : 0;
}
