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
const ENGLISH_WORD = /^\p{Script=Latin}{2,}$/u;

/** A Chinese unit (character or word) as the coverage needs it, looked up once per lexicon. */
interface Unit {
  translations: ReadonlyMap<string, number> | undefined;
  stop: boolean;
}
const units = new WeakMap<Lexicon, Map<string, Unit>>();
/** English tokens seen → whether they are content words (Latin letters, not a stop word). */
const contentWord = new Map<string, boolean>();
const CACHE_LIMIT = 200_000;

function unitOf(lex: Lexicon, u: string): Unit {
  let byWord = units.get(lex);
  if (!byWord) {
    byWord = new Map();
    units.set(lex, byWord);
  }
  let unit = byWord.get(u);
  if (!unit) {
    unit = { translations: lex.translations(u, "zh"), stop: isStopWord(u, "zh") };
    if (byWord.size >= CACHE_LIMIT) byWord.clear();
    byWord.set(u, unit);
  }
  return unit;
}

function isContentWord(t: string): boolean {
  let yes = contentWord.get(t);
  if (yes === undefined) {
    yes = ENGLISH_WORD.test(t) && !isStopWord(t, "en");
    if (contentWord.size >= CACHE_LIMIT) contentWord.clear();
    contentWord.set(t, yes);
  }
  return yes;
}

/** Without English content words there is nothing to cover, and no sentence or mark of the English half to pair. */
const NO_EVIDENCE: TranslationEvidence = {
  charCoverage: 0,
  wordCoverage: 0,
  englishCoverage: 0,
  sentenceLengthFit: 0,
  punctuationAlignment: 0,
};

export function translationEvidence(h: Halves, lex: Lexicon): TranslationEvidence {
  const en: string[] = [];
  const seen = new Set<string>();
  for (const t of h.enTokens) {
    if (!seen.has(t) && isContentWord(t)) en.push(t);
    seen.add(t);
  }
  if (en.length === 0) return NO_EVIDENCE;
  const chars = new Set(h.zhText.match(HAN_CHAR) ?? []);
  const words = new Set<string>();
  for (const t of h.zhTokens) if (t.length > 1 && HAN_WORD.test(t)) words.add(t);
  // One pass over the units and the English words: no set of every gloss is built.
  const enCovered = new Uint8Array(en.length);
  let anyGloss = false;
  const coverage = (us: ReadonlySet<string>) => {
    let known = 0;
    let covered = 0;
    for (const u of us) {
      const { translations: t, stop } = unitOf(lex, u);
      if (!t) continue;
      anyGloss = true;
      let hit = false;
      for (let k = 0; k < en.length; k++) {
        if (t.has(en[k]!)) {
          hit = true;
          enCovered[k] = 1;
        }
      }
      if (stop) continue;
      known++;
      if (hit) covered++;
    }
    return known ? covered / known : 0;
  };
  const charCoverage = coverage(chars);
  const wordCoverage = coverage(words);
  let englishCovered = 0;
  for (let k = 0; k < en.length; k++) englishCovered += enCovered[k]!;
  return {
    charCoverage,
    wordCoverage,
    englishCoverage: anyGloss ? englishCovered / en.length : 0,
    sentenceLengthFit: sentenceLengthFit(h.enText, h.zhText),
    punctuationAlignment: punctuationAlignment(h.enText, h.zhText),
  };
}

const isHan = (code: number) =>
  (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0xf900 && code <= 0xfaff);
const isLatinLetter = (code: number) =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7);

/**
 * The letters of each complete sentence (one ended by a mark of `ends`; a trailing fragment without one was cut by the
 * engine), in one pass: Latin letters for English, Han characters (of the BMP blocks) for Chinese.
 */
function sentenceLengths(text: string, ends: string, letter: (code: number) => boolean): number[] {
  const out: number[] = [];
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (letter(code)) n++;
    else if (ends.includes(text[i]!)) {
      // "?!" and "..." end one sentence; an English "." inside a word (3.5, U.S.) does not end one.
      const next = text.charCodeAt(i + 1);
      if (n > 0 && (ends !== EN_ENDS || Number.isNaN(next) || !letter(next))) {
        out.push(n);
        n = 0;
      }
    }
  }
  return out;
}
const EN_ENDS = ".!?";
const ZH_ENDS = "。！？!?";

function sentenceLengthFit(enText: string, zhText: string): number {
  const en = sentenceLengths(enText, EN_ENDS, isLatinLetter);
  const zh = sentenceLengths(zhText, ZH_ENDS, isHan);
  const n = Math.min(en.length, zh.length);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const r = en[k]! / (LETTERS_PER_HAN * zh[k]!);
    sum += Math.min(r, 1 / r);
  }
  return n ? sum / n : 0;
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
