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
import { monotoneAlignment } from "./sentence-alignment.js";

export interface Halves {
  /** The English half's sentences, as tokens (stems). */
  en: ReadonlyArray<readonly string[]>;
  enText: string;
  /** The Chinese half's sentences: their Chinese text (its Han characters) and tokens (jieba words, Latin terms). */
  zh: ReadonlyArray<{ text: string; tokens: readonly string[] }>;
  zhText: string;
}

export interface TranslationEvidence {
  charCoverage: number;
  wordCoverage: number;
  englishCoverage: number;
  sentenceLengthFit: number;
  punctuationAlignment: number;
  alignedCoverage: number;
  alignmentGain: number;
}

/** Latin letters per Han character in translated text (the Gale-Church c of the Tatoeba dev pairs). */
export const LETTERS_PER_HAN = 2.8;

const HAN_CHAR = /\p{Script=Han}/gu;
const HAN_WORD = /^\p{Script=Han}{2,}$/u;
const ENGLISH_WORD = /^\p{Script=Latin}{2,}$/u;

/** Sentences of a half told apart by the alignment; later ones count as the last (a bit each in a mask). */
const MAX_SENTENCES = 16;
const sentenceBit = (i: number) => 1 << Math.min(i, MAX_SENTENCES - 1);

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
  alignedCoverage: 0,
  alignmentGain: 0,
};

/** Distinct items with the sentences they occur in (bit i set: sentence i). */
type Occurrences = Map<string, number>;

function occur(into: Occurrences, item: string, bit: number): void {
  into.set(item, (into.get(item) ?? 0) | bit);
}

/**
 * The hits between the halves' sentences, for the alignment: per Chinese sentence i and English sentence j, the
 * known content units of i with a translation among the content words of j, and the content words of j that translate
 * a content unit of i.
 */
class SentenceHits {
  /** Known content units of each Chinese sentence; content words of each English sentence. */
  private readonly units = new Int32Array(MAX_SENTENCES);
  private readonly words = new Int32Array(MAX_SENTENCES);
  private readonly unitHits = new Int32Array(MAX_SENTENCES * MAX_SENTENCES);
  private readonly wordHits = new Int32Array(MAX_SENTENCES * MAX_SENTENCES);
  /** Per English word: the Chinese sentences whose content units it translates. */
  private readonly hitBy: Int32Array;

  constructor(private readonly enMasks: readonly number[]) {
    this.hitBy = new Int32Array(enMasks.length);
    for (const m of enMasks) for (let j = 0; j < MAX_SENTENCES; j++) if (m & (1 << j)) this.words[j]!++;
  }

  /** A known content unit occurring in the Chinese sentences `mask`, translating the English words `hit`. */
  unit(mask: number, hit: readonly number[]): void {
    let english = 0;
    for (const k of hit) {
      english |= this.enMasks[k]!;
      this.hitBy[k]! |= mask;
    }
    for (let i = 0; i < MAX_SENTENCES && mask >>> i; i++) {
      if (!(mask & (1 << i))) continue;
      this.units[i]!++;
      for (let j = 0; j < MAX_SENTENCES && english >>> j; j++) if (english & (1 << j)) this.unitHits[i * MAX_SENTENCES + j]!++;
    }
  }

  /**
   * Cell (i, j) = the mean of the two coverages (of the units of i by j, of the words of j by i), over the sentences
   * that have something to count (a sentence without content, e.g. a cut-off tail, is left out of the matrix).
   */
  alignment(p: number, q: number) {
    for (let k = 0; k < this.enMasks.length; k++) {
      const by = this.hitBy[k]!;
      const m = this.enMasks[k]!;
      for (let i = 0; i < MAX_SENTENCES && by >>> i; i++) {
        if (!(by & (1 << i))) continue;
        for (let j = 0; j < MAX_SENTENCES && m >>> j; j++) if (m & (1 << j)) this.wordHits[i * MAX_SENTENCES + j]!++;
      }
    }
    const rows: number[] = [];
    const cols: number[] = [];
    for (let i = 0; i < Math.min(p, MAX_SENTENCES); i++) if (this.units[i]! > 0) rows.push(i);
    for (let j = 0; j < Math.min(q, MAX_SENTENCES); j++) if (this.words[j]! > 0) cols.push(j);
    const cells = new Float64Array(rows.length * cols.length);
    for (let r = 0; r < rows.length; r++) {
      const i = rows[r]!;
      for (let c = 0; c < cols.length; c++) {
        const j = cols[c]!;
        const cell = i * MAX_SENTENCES + j;
        cells[r * cols.length + c] = (this.unitHits[cell]! / this.units[i]! + this.wordHits[cell]! / this.words[j]!) / 2;
      }
    }
    return monotoneAlignment(cells, rows.length, cols.length);
  }
}

export function translationEvidence(h: Halves, lex: Lexicon): TranslationEvidence {
  const enOccurrences: Occurrences = new Map();
  h.en.forEach((tokens, j) => {
    for (const t of tokens) if (isContentWord(t)) occur(enOccurrences, t, sentenceBit(j));
  });
  if (enOccurrences.size === 0) return NO_EVIDENCE;
  const en = [...enOccurrences.keys()];
  const chars: Occurrences = new Map();
  const words: Occurrences = new Map();
  h.zh.forEach((s, i) => {
    const bit = sentenceBit(i);
    for (const c of s.text.match(HAN_CHAR) ?? []) occur(chars, c, bit);
    for (const t of s.tokens) if (t.length > 1 && HAN_WORD.test(t)) occur(words, t, bit);
  });
  const sentences = new SentenceHits([...enOccurrences.values()]);
  // One pass over the units and the English words: no set of every gloss is built.
  const enCovered = new Uint8Array(en.length);
  let anyGloss = false;
  const hit: number[] = [];
  const coverage = (us: Occurrences) => {
    let known = 0;
    let covered = 0;
    for (const [u, mask] of us) {
      const { translations: t, stop } = unitOf(lex, u);
      if (!t) continue;
      anyGloss = true;
      hit.length = 0;
      for (let k = 0; k < en.length; k++) {
        if (t.has(en[k]!)) {
          hit.push(k);
          enCovered[k] = 1;
        }
      }
      if (stop) continue;
      known++;
      if (hit.length) covered++;
      sentences.unit(mask, hit);
    }
    return known ? covered / known : 0;
  };
  const charCoverage = coverage(chars);
  const wordCoverage = coverage(words);
  let englishCovered = 0;
  for (let k = 0; k < en.length; k++) englishCovered += enCovered[k]!;
  const { aligned, gain } = sentences.alignment(h.zh.length, h.en.length);
  return {
    charCoverage,
    wordCoverage,
    englishCoverage: anyGloss ? englishCovered / en.length : 0,
    sentenceLengthFit: sentenceLengthFit(h.enText, h.zhText),
    punctuationAlignment: punctuationAlignment(h.enText, h.zhText),
    alignedCoverage: aligned,
    alignmentGain: gain,
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
