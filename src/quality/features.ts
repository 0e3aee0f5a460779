import type { LanguagePair } from "../language-pair.js";
import {
  type BackoffTranslations,
  backoffTranslations,
  CHAR_DISCOUNT,
  derivedTranslations,
  isStopWord,
  isUnspacedLang,
  type Lexicon,
  SUBWORD_DISCOUNT,
  tokenize,
} from "../text/index.js";
import { termAlternatives } from "./alternatives.js";
import { numberWords } from "./number-words.js";
import { logLengthRatio, readSide, type Side } from "./sides.js";

/**
 * The features of a pair (Bicleaner-style, Ramírez-Sánchez et al. 2020, without its language models):
 * - cov_a, cov_b: lexicon coverage each way — the mean, over a side's content words, of the best translation
 *   weight (CC-CEDICT + the learned lexicon, through the shared lexicon and Sim(c, e)) found among the other
 *   side's words; cov_min, the smaller of the two;
 * - len_z, len_z2: the log length ratio, standardised by the real pairs' mean and spread, and its square;
 * - tok_ratio: log of the ratio of word counts;
 * - punct_agree: agreement of punctuation counts by class (1 = same counts); final_same: both sides end a
 *   sentence (. ? ! in either script, which translations swap freely: "See you." = "再见！") or neither does;
 * - num_agree: Jaccard of the numbers written in digits (1 when neither side has any); when only one side writes
 *   numbers in digits, the share of them the other writes in words (`numberWords`: "at 7:00" = 七点);
 * - other_a, other_b: share of each side's letters written in the other language's script;
 * - stop_b: share of function words among side b's words (a word-by-word gloss has almost none);
 * - log_len: log of the shorter side's length (short pairs carry less evidence);
 * - cov_x_stop, cov_x_other: cov_min times stop_b and other_b (high coverage without function words, or with
 *   words left untranslated, is what a word-by-word gloss looks like: the linear model needs the product);
 * - cov_b_chars: side b's coverage with each word weighing its length (a bound suffix weighs less);
 * - tail_min: the smaller coverage of the two sides' last thirds (a side cut short);
 * - whole_b: side b looked up whole when the segmenter split it (a term the dictionary lists);
 * - cut_end: one side ends a sentence, the other stops on a letter (a side cut short);
 * - miss_a, miss_b: share of each side's content words that the lexicon knows but whose translations are not found
 *   in the other side (an unknown word is no evidence against the pair; a known, unmatched one is).
 */
export const FEATURE_NAMES = [
  "cov_a",
  "cov_b",
  "cov_min",
  "len_z",
  "len_z2",
  "tok_ratio",
  "punct_agree",
  "final_same",
  "num_agree",
  "other_a",
  "other_b",
  "stop_b",
  "log_len",
  "cov_x_stop",
  "cov_x_other",
  "cov_b_chars",
  "tail_min",
  "whole_b",
  "cut_end",
  "chars_b",
  "found_a",
  "cov_a_common",
  "names_missing",
  "matched_min",
  "cov_a_partial",
  "miss_a",
  "miss_b",
] as const;
export const FEATURES_VERSION = "quality-features-13";

/** Mean and standard deviation of the log length ratio of real pairs (stored in the model). */
export interface LengthStats {
  mean: number;
  sd: number;
}

export function pairFeatures(a: Side, b: Side, pair: LanguagePair, lex: Lexicon, len: LengthStats): number[] {
  const altsA = termAlternatives(a.text, pair.a, b.text, pair.b);
  const altsB = altsA ? null : termAlternatives(b.text, pair.b, a.text, pair.a);
  if (!altsA && !altsB) return featuresOf(a, b, pair, lex, len);
  // A side listing alternatives reads as its best one (by coverage both ways; the first on a tie).
  let best: number[] = [];
  for (const alt of altsA ?? altsB!) {
    const f = altsA
      ? featuresOf(readSide(alt, pair.a, pair), b, pair, lex, len)
      : featuresOf(a, readSide(alt, pair.b, pair), pair, lex, len);
    if (best.length === 0 || f[COV_A]! + f[COV_B]! > best[COV_A]! + best[COV_B]!) best = f;
  }
  return best;
}

const COV_A = FEATURE_NAMES.indexOf("cov_a");
const COV_B = FEATURE_NAMES.indexOf("cov_b");

function featuresOf(a: Side, b: Side, pair: LanguagePair, lex: Lexicon, len: LengthStats): number[] {
  const aTokens = tokenize(withoutAside(a.text, b.text), pair.a);
  const bTokens = tokenize(withoutAside(b.text, a.text), pair.b);
  // A side's text is in the lexicon's form (readSide: Chinese in Simplified), as the translations are.
  const cov = coverage(aTokens, bTokens, b.text, pair, lex);
  const bLetters = lettersOf(b.text);
  const { covA, covB, bestA, bestB, aContent, bContent } = cov;
  const z = (logLengthRatio(a, b) - len.mean) / len.sd;
  let stops = 0;
  for (const t of bTokens) if (isStopWord(t, pair.b)) stops++;
  const covMin = Math.min(covA, covB);
  const stopB = bTokens.length ? stops / bTokens.length : 0;
  const otherB = share(b.otherLetters, b.ownLetters);
  return [
    covA,
    covB,
    covMin,
    z,
    Math.min(z * z, 25),
    Math.log((bTokens.length + 1) / (aTokens.length + 1)),
    punctAgreement(a.punct, b.punct),
    endsSentence(a) === endsSentence(b) ? 1 : 0,
    numberAgreement(a, b),
    share(a.otherLetters, a.ownLetters),
    otherB,
    stopB,
    Math.log1p(Math.min(a.length, b.length)),
    covMin * stopB,
    covMin * otherB,
    weightedCoverage(bContent, bestB),
    Math.min(tailCoverage(aContent, bestA), tailCoverage(bContent, bestB)),
    wholeSide(cov.aContent, bTokens, bLetters, pair, lex),
    cutEnd(a, b) || cutEnd(b, a) ? 1 : 0,
    ...substringCoverage(cov, b.text, bLetters.length),
    ...nameEvidence(a.text, pair.a, aContent, bestA, covA),
    Math.log1p(Math.min(covA * aContent.length, covB * bContent.length)),
    partialCoverage(cov),
    missedShare(aContent, cov.aKnown, bestA),
    missedShare(bContent, cov.bKnown, bestB),
  ];
}

/**
 * The share of a side's content words the lexicon knows (they have translations of their own) with nothing found in
 * the other side (a partial match does not count: a shared character is often chance): evidence against the pair,
 * where a word no dictionary knows (a trade's term) is only the lack of evidence for it.
 */
function missedShare(content: readonly string[], known: ReadonlySet<string>, best: ReadonlyMap<string, number>): number {
  if (content.length === 0) return 0;
  let n = 0;
  for (const w of content) if (known.has(w) && !best.get(w)) n++;
  return n / content.length;
}

/**
 * Side a's coverage with partial matches: a word without a full match counts, over its translations that share a
 * character with side b, the largest weight ÷ length (one character of a word of two: 0.5). A language written without
 * spaces composes terms from known parts: "mutable" → 易变 against 可变, "horizontal" → 横向 against 横排
 * (`reverseCoverage` finds them). Characters that are a function word alone do not count. For a side b written with
 * spaces, the coverage cov_a.
 */
function partialCoverage(cov: Coverage): number {
  const { aContent, bestA, partial } = cov;
  if (aContent.length === 0) return 0;
  let sum = 0;
  for (const w of aContent) sum += partial.get(w) ?? bestA.get(w) ?? 0;
  return sum / aContent.length;
}

/**
 * An index of a translation list, made once per list (the lists are the lexicon's, cached): the largest value `add`
 * puts under each key, over the list's words.
 */
function listIndex<K>(
  cache: WeakMap<ReadonlyMap<string, number>, Map<K, number>>,
  tr: ReadonlyMap<string, number>,
  add: (word: string, weight: number, put: (key: K, value: number) => void) => void,
): Map<K, number> {
  let idx = cache.get(tr);
  if (!idx) {
    const made = new Map<K, number>();
    const put = (key: K, value: number) => {
      if ((made.get(key) ?? 0) < value) made.set(key, value);
    };
    for (const [w, weight] of tr) add(w, weight, put);
    cache.set(tr, made);
    idx = made;
  }
  return idx;
}

/** The largest partial match: one character of a word of two, at full weight. */
const MAX_PARTIAL = 0.5;

/**
 * The best partial match of a translation list in side b: over the list's words of 2+ characters holding a meaningful
 * letter of b (marked MEANINGFUL while the pair's reverse pass runs), the largest weight ÷ length (one character of the
 * word found).
 */
function partialMatch(v: ListView): number {
  v.partial ??= partialIndex(v);
  const { units, weights } = v.partial;
  let best = 0;
  for (let i = 0; i < units.length; i++) if (weights[i]! > best && (unitMarks[units[i]!]! & MEANINGFUL) !== 0) best = weights[i]!;
  return best;
}

/** Per UTF-16 unit of a list's words of 2+ units, the largest weight ÷ length of a word holding it. */
function partialIndex(v: ListView): { units: Uint16Array; weights: Float64Array } {
  const byUnit = new Map<number, number>();
  for (let i = 0; i < v.words.length; i++) {
    const g = v.words[i]!;
    if (g.length < 2) continue;
    const x = Math.min(1, v.weights[i]!) / g.length;
    for (let k = 0; k < g.length; k++) {
      const u = g.charCodeAt(k);
      if ((byUnit.get(u) ?? 0) < x) byUnit.set(u, x);
    }
  }
  return { units: new Uint16Array(byUnit.keys()), weights: new Float64Array(byUnit.values()) };
}

const INNER_CAPITALISED = /(?<=\s)\p{Lu}[\p{L}\p{M}'’-]*/gu;

/**
 * Names weigh apart: a name shared by a sentence and its neighbour ("Tom hugged Mary." / 汤姆不是傻瓜。) gives
 * them the coverage of a short translation. cov_a_common: side a's coverage without its capitalised words
 * (after the first); names_missing: the share of those words without a translation in side b.
 */
function nameEvidence(
  aText: string,
  lang: string,
  aContent: readonly string[],
  bestA: ReadonlyMap<string, number>,
  covA: number,
): [number, number] {
  const names = new Set<string>();
  for (const m of aText.matchAll(INNER_CAPITALISED)) for (const t of tokenize(m[0], lang)) names.add(t);
  if (names.size === 0) return [covA, 0];
  let sum = 0;
  let n = 0;
  for (const t of aContent) {
    if (names.has(t)) continue;
    sum += bestA.get(t) ?? 0;
    n++;
  }
  let missing = 0;
  for (const t of names) if ((bestA.get(t) ?? 0) < 0.5) missing++;
  return [n ? sum / n : covA, missing / names.size];
}

/**
 * Character-level evidence, independent of how side b was segmented: every translation of side a's words found
 * anywhere in side b (its words, and for a language written without spaces any run of 1–MAX_RUN letters: "try"
 * → 试 inside 再试一次, "application binary interface" → 应用程序 + 二进制 + 接口). Returns the share of b's
 * letters inside a found translation (chars_b) and the share of a's content words with a translation found
 * (found_a). The coverage passes find them: b's words they matched, and what the reverse pass marked.
 */
function substringCoverage(cov: Coverage, bText: string, letters: number): [number, number] {
  const { aContent, bestA, bestB, found } = cov;
  if (aContent.length === 0 || letters === 0) return [0, 0];
  // What the coverage pass matched word for word stands where it is; the reverse pass marked the rest it found.
  for (const t of cov.bWords) {
    if ((bestB.get(t) ?? 0) >= MIN_SUBSTRING_WEIGHT) markAll(bText, t, found.covered);
  }
  let words = 0;
  for (const w of aContent) if ((bestA.get(w) ?? 0) >= 1 || found.words.has(w)) words++;
  let c = 0;
  // By UTF-16 unit: half of a surrogate pair is no letter (a character outside the BMP is rare in Chinese).
  for (let i = 0; i < found.covered.length; i++) if (found.covered[i] && isLetterUnit(bText.charCodeAt(i))) c++;
  return [c / letters, words / aContent.length];
}

const LETTER = /\p{L}/u;

/** Per UTF-16 unit: 1 a letter, 2 not (a surrogate alone is not), 0 not yet known. */
const letterUnitTable = new Uint8Array(0x10000);

function isLetterUnit(u: number): boolean {
  let m = letterUnitTable[u]!;
  if (m === 0) {
    m = LETTER.test(String.fromCharCode(u)) ? 1 : 2;
    letterUnitTable[u] = m;
  }
  return m === 1;
}

/** A text's letters (\p{L}), in order, without what stands between them. */
function lettersOf(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    let letter: boolean;
    let width = 1;
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      width = low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
      letter = LETTER.test(text.slice(i, i + width));
    } else letter = isLetterUnit(u);
    // Runs of letters are copied whole.
    if (!letter) {
      if (i > from) out += text.slice(from, i);
      from = i + width;
    }
    i += width - 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

function markAll(text: string, g: string, covered: Uint8Array): void {
  for (let i = text.indexOf(g); i >= 0; i = text.indexOf(g, i + 1)) covered.fill(1, i, i + g.length);
}

/** Where side a's words' translations stand in side b, and which a words they translate (see `reverseCoverage`). */
interface Found {
  covered: Uint8Array;
  words: Set<string>;
}

/** Translations weaker than this (a word of a multi-word gloss) do not count as found in side b. */
const MIN_SUBSTRING_WEIGHT = 0.5;

const ASIDE = /\s*[(（][^()（）]*[)）]/gu;

/**
 * A side's words without its bracketed asides when the other side has none: a grammatical tag or an acronym
 * ("address (n.)" / 地址, "integrated development environment (IDE)" / 集成开发环境) has no translation to find.
 * A side that is all aside keeps it.
 */
function withoutAside(text: string, other: string): string {
  if (!text.includes("(") && !text.includes("（")) return text;
  if (other.includes("(") || other.includes("（")) return text;
  const bare = text.replace(ASIDE, " ").trim();
  return /[\p{L}\p{N}]/u.test(bare) ? bare : text;
}

/**
 * One side ends a sentence (. ? !) and the other stops on a letter or a digit, without any mark: the other
 * was cut short ("I need help." / 我需要帮). A heading without a mark on both sides, or a colon against a
 * full stop, is not a cut.
 */
function cutEnd(x: Side, y: Side): boolean {
  return endsSentence(x) && y.endsInWord;
}

/**
 * Side b looked up whole (its letters, `whole`), when the segmenter split it into several words: the dictionary's
 * entry for a term (不客气 "you're welcome", split 不 + 客气) credits side a's words it translates: the share of a's
 * content words found among its translations (0 when b is one word or not an entry).
 */
function wholeSide(content: readonly string[], bTokens: readonly string[], whole: string, pair: LanguagePair, lex: Lexicon): number {
  if (bTokens.length < 2) return 0;
  if (whole.length === 0 || whole.length > MAX_WHOLE) return 0;
  const tr = lex.translations(whole, pair.b);
  if (!tr) return 0;
  let found = 0;
  for (const t of content) if (tr.has(t)) found++;
  return found / content.length;
}

/** Longest side b looked up whole, in letters (a dictionary's longest entries are idioms and names). */
const MAX_WHOLE = 12;

/**
 * Coverage with each word weighing its length: a bound one-letter suffix the dictionary does not list
 * (迭代器 = 迭代 + 器, "iterator") weighs less than the stem it modifies.
 */
function weightedCoverage(content: readonly string[], best: ReadonlyMap<string, number>): number {
  let sum = 0;
  let total = 0;
  for (const t of content) {
    sum += t.length * (best.get(t) ?? 0);
    total += t.length;
  }
  return total ? sum / total : 0;
}

/**
 * Coverage of a side's last third of content words (in text order): a side cut short leaves the other
 * side's end without translation (a misalignment splitting a sentence, a pair cut inside a word).
 */
function tailCoverage(content: readonly string[], best: ReadonlyMap<string, number>): number {
  if (content.length === 0) return 0;
  const from = content.length - Math.ceil(content.length / 3);
  let sum = 0;
  for (let i = from; i < content.length; i++) sum += best.get(content[i]!) ?? 0;
  return sum / (content.length - from);
}

/**
 * Lexicon coverage both ways in one pass over side b's distinct words: each b word's translations (the
 * lexicon's, else Sim(c, e)'s back-off through its known parts and characters, discounted as Sim does) are
 * matched against side a's words, crediting the b word and the a words it translates. Identical words (names,
 * Latin words inside Chinese text) match with weight 1; stems differing in their ending match by prefix.
 */
function coverage(aTokens: readonly string[], bTokens: readonly string[], bText: string, pair: LanguagePair, lex: Lexicon): Coverage {
  const aContent = contentOf(aTokens, pair.a);
  const bContent = contentOf(bTokens, pair.b);
  const bestA = new Map<string, number>();
  const bestB = new Map<string, number>();
  const found: Found = { covered: new Uint8Array(bText.length), words: new Set() };
  const partial = new Map<string, number>();
  const aKnown = new Set<string>();
  const bKnown = new Set<string>();
  const bWords: ReadonlySet<string> = new Set(bTokens);
  if (aContent.length === 0 || bContent.length === 0)
    return { covA: 0, covB: 0, bestA, bestB, aContent, bContent, bWords, found, partial, aKnown, bKnown };
  const aSet = new Set(aTokens);
  const aPrefix = new Map<string, string[]>();
  for (const t of aSet) {
    if (t.length < PREFIX) continue;
    const k = t.slice(0, PREFIX);
    const list = aPrefix.get(k);
    if (list) list.push(t);
    else aPrefix.set(k, [t]);
  }
  for (const t of bWords) {
    let best = 0;
    if (aSet.has(t)) best = creditWord(bestA, t, 1, best);
    const tr = lex.translations(t, pair.b);
    if (tr) {
      bKnown.add(t);
      best = matchTranslations(tr, 1, aSet, aPrefix, bestA, best);
    } else if (best < 1) {
      const back = backoffTranslations(t, pair.b, lex);
      if (back) {
        // Each list apart (the a words it translates credited at its weight); the b word, for the share of its
        // characters its matched parts cover.
        const parts = back.parts.map((m) => matchTranslations(m, SUBWORD_DISCOUNT, aSet, aPrefix, bestA, 0));
        best = Math.max(best, compoundCredit(back, parts));
        if (best === 0) for (const m of back.chars) best = matchTranslations(m, CHAR_DISCOUNT, aSet, aPrefix, bestA, best);
      }
    }
    bestB.set(t, best);
  }
  reverseCoverage(aContent, bTokens, bWords, bText, pair, lex, bestA, bestB, found, partial, aKnown);
  let sumA = 0;
  for (const t of aContent) sumA += bestA.get(t) ?? 0;
  let sumB = 0;
  for (const t of bContent) sumB += bestB.get(t) ?? 0;
  return {
    covA: sumA / aContent.length,
    covB: sumB / bContent.length,
    bestA,
    bestB,
    aContent,
    bContent,
    bWords,
    found,
    partial,
    aKnown,
    bKnown,
  };
}

/**
 * A word the lexicon lacks, credited through its known parts: the mean over its characters of the best credit of a
 * part standing on it (`partCredits`, by part). A part covering the whole meaning gives the word its credit; one
 * covering half of it, half ("memory" against 内存地址, "memory address": 内存 matched, 地址 not).
 */
function compoundCredit(back: BackoffTranslations, partCredits: readonly number[]): number {
  if (back.spans.length === 0) return 0;
  const cover = new Float64Array(back.length);
  for (const { start, end, part } of back.spans) {
    const x = partCredits[part]!;
    for (let k = start; k < end; k++) if (cover[k]! < x) cover[k] = x;
  }
  let sum = 0;
  for (const x of cover) sum += x;
  return sum / back.length;
}

interface Coverage {
  covA: number;
  covB: number;
  /** Each word's best translation weight found on the other side. */
  bestA: Map<string, number>;
  bestB: Map<string, number>;
  /** Each side's content words in text order. */
  aContent: string[];
  bContent: string[];
  /** Translations of a's words found in b beyond its words (reverse pass). */
  found: Found;
  /** a's words not fully matched, credited with their best partial match in b (`partialMatch`). */
  partial: Map<string, number>;
  /**
   * Content words the lexicon has translations of (b's: looked up in the coverage pass; a's: the words the reverse
   * pass looked up, known as they are or through their base).
   */
  aKnown: Set<string>;
  bKnown: Set<string>;
  /** Side b's distinct words. */
  bWords: ReadonlySet<string>;
}

/**
 * The other way: side a's content words not yet fully matched are looked up themselves, and their
 * translations probed with side b's words and, for a language written without spaces, with b's runs of 2–4
 * characters (the segmenter's words need not be the dictionary's: "handbag" → 提包 inside 手提包, "document"
 * → 文档 inside 文档串). A run that is not one of b's words is weaker evidence (it may straddle two words):
 * discounted as Sim's back-off through characters is. A matched run credits the b words it overlaps.
 */
function reverseCoverage(
  aContent: readonly string[],
  bTokens: readonly string[],
  bWords: ReadonlySet<string>,
  text: string,
  pair: LanguagePair,
  lex: Lexicon,
  bestA: Map<string, number>,
  bestB: Map<string, number>,
  found: Found,
  partial: Map<string, number>,
  aKnown: Set<string>,
): void {
  let probing: Probing | undefined;
  try {
    for (const w of new Set(aContent)) {
      if ((bestA.get(w) ?? 0) >= 1) continue;
      const tr = lex.translations(w, pair.a);
      // A word the lexicon lacks may be known through its base; one it has is looked up that way only if nothing is found.
      let derived = tr ? undefined : derivedTranslations(w, pair.a, lex);
      if (!tr && !derived) continue;
      aKnown.add(w);
      // Side b's words are in the lexicon's form, as its text is.
      if (!probing) {
        probing = { text, bWords, bTokens, runs: isUnspacedLang(pair.b), bestB, found };
        markUnits(probing, pair.b, true);
      }
      let best = bestA.get(w) ?? 0;
      if (tr) best = probeTranslations(probing, w, tr, 1, best);
      // Nothing found: the word's base, discounted as Sim's back-off through a word's parts ("caller" → 调用 in 调用者).
      if (best === 0 && !found.words.has(w)) {
        derived ??= derivedTranslations(w, pair.a, lex);
        if (derived) best = probeTranslations(probing, w, derived, SUBWORD_DISCOUNT, best);
      }
      bestA.set(w, best);
      // A partial match weighs at most half (one character of a word of two): it can only raise a weaker match.
      if (best < MAX_PARTIAL && probing.runs) partial.set(w, Math.max(best, partialMatch(listView((tr ?? derived)!))));
    }
  } finally {
    if (probing) markUnits(probing, pair.b, false);
  }
}

/** Per language, each UTF-16 unit: 1 when it is a letter that is not a function word alone (的, 是, 不), 2 when not, 0 not yet known. */
const meaningfulByLang = new Map<string, Uint8Array>();

function isMeaningful(table: Uint8Array, u: number, lang: string): boolean {
  let m = table[u]!;
  if (m === 0) {
    // By UTF-16 unit: a character outside the Basic Multilingual Plane (rare in Chinese) is not a letter here.
    m = isLetterUnit(u) && !isStopWord(String.fromCharCode(u), lang) ? 1 : 2;
    table[u] = m;
  }
  return m === 1;
}

/** What the reverse pass probes in side b, and what it credits there. */
interface Probing {
  text: string;
  bTokens: readonly string[];
  bWords: ReadonlySet<string>;
  /** Runs of b's letters count (a language written without spaces), not only its words. */
  runs: boolean;
  bestB: Map<string, number>;
  found: Found;
}

/**
 * Side b's UTF-16 units while its reverse pass runs (`markUnits`): IN_TEXT, the text holds the unit; WORD_START, one of
 * b's words starts with it. A translation whose first unit is not marked cannot be found, which spares the lookups of
 * most of a common word's hundreds of translations. One table for the process (a pair is scored at a time), cleared
 * after each pair; a mark left behind would only cost a lookup, never change a match.
 */
const unitMarks = new Uint8Array(0x10000);
const IN_TEXT = 1;
const WORD_START = 2;
/** A letter of a language written without spaces that is not a function word alone (for `partialMatch`). */
const MEANINGFUL = 4;

function markUnits(s: Probing, lang: string, on: boolean): void {
  const { text, bTokens } = s;
  if (!on) {
    for (let i = 0; i < text.length; i++) unitMarks[text.charCodeAt(i)] = 0;
    for (const t of bTokens) if (t.length > 0) unitMarks[t.charCodeAt(0)] = 0;
    return;
  }
  let meaningful: Uint8Array | undefined;
  if (s.runs) {
    meaningful = meaningfulByLang.get(lang);
    if (!meaningful) {
      meaningful = new Uint8Array(0x10000);
      meaningfulByLang.set(lang, meaningful);
    }
  }
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    unitMarks[u] = unitMarks[u]! | IN_TEXT | (meaningful && isMeaningful(meaningful, u, lang) ? MEANINGFUL : 0);
  }
  for (const t of bTokens) if (t.length > 0) unitMarks[t.charCodeAt(0)] = unitMarks[t.charCodeAt(0)]! | WORD_START;
}

/**
 * Probe side b with the translations of a's word `w` (× `discount`): a translation is found when it is one of b's
 * words, or, for a language written without spaces, a run of 1–MAX_RUN of b's letters (it stands in b's text and is
 * letters only: "handbag" → 提包 inside 手提包). Returns the larger of `best` and w's best match.
 */
function probeTranslations(s: Probing, w: string, translations: ReadonlyMap<string, number>, discount: number, best: number): number {
  const v = listView(translations);
  for (let i = 0; i < v.words.length; i++) {
    const mark = unitMarks[v.first[i]!]!;
    if (mark === 0) continue;
    const g = v.words[i]!;
    const isRun = s.runs && v.run[i] === 1 && (mark & IN_TEXT) !== 0 && s.text.includes(g);
    if (isRun || ((mark & WORD_START) !== 0 && s.bWords.has(g))) best = matchRun(s, w, g, v.weights[i]! * discount, best);
  }
  return best;
}

/** Translation `g` of a's word `w` found in side b: marks it, credits the b words it overlaps; returns w's best. */
function matchRun(s: Probing, w: string, g: string, weight: number, best: number): number {
  if (weight >= MIN_SUBSTRING_WEIGHT) {
    markAll(s.text, g, s.found.covered);
    s.found.words.add(w);
  }
  const isWord = s.bWords.has(g);
  // A single letter counts for chars_b and found_a only: as coverage, only when it is one of b's words.
  if (g.length < 2 && !isWord) return best;
  const x = Math.min(1, weight) * (isWord ? 1 : CHAR_DISCOUNT);
  for (const t of s.bTokens) if ((t.includes(g) || g.includes(t)) && (s.bestB.get(t) ?? 0) < x) s.bestB.set(t, x);
  return x > best ? x : best;
}

const MAX_RUN = 4;

/** A translation list as arrays (made once per list: the lists are the lexicon's, cached). */
interface ListView {
  words: string[];
  weights: Float64Array;
  /** Each word's first UTF-16 unit. */
  first: Uint16Array;
  /** 1 when the word can be a run of letters: 1–MAX_RUN units, letters only. */
  run: Uint8Array;
  /** The list's partial matches by unit (`partialIndex`), made when first asked for. */
  partial?: { units: Uint16Array; weights: Float64Array };
}

const listViews = new WeakMap<ReadonlyMap<string, number>, ListView>();
const LETTERS_ONLY = /^\p{L}+$/u;

function listView(tr: ReadonlyMap<string, number>): ListView {
  let v = listViews.get(tr);
  if (!v) {
    const words = [...tr.keys()];
    v = { words, weights: new Float64Array(tr.values()), first: new Uint16Array(words.length), run: new Uint8Array(words.length) };
    for (let i = 0; i < words.length; i++) {
      const g = words[i]!;
      v.first[i] = g.charCodeAt(0) || 0;
      v.run[i] = g.length > 0 && g.length <= MAX_RUN && LETTERS_ONLY.test(g) ? 1 : 0;
    }
    listViews.set(tr, v);
  }
  return v;
}

/**
 * Credit the a words among `tr`'s translations (weight × `discount`), and the a words sharing the first PREFIX
 * letters of a translation (× PREFIX_DISCOUNT). Walks the shorter of the two: the translation list, or side a's
 * words probing the list and its prefix index (a common word has hundreds of glosses, a sentence few words).
 * Returns the largest of `best` and the weights credited (the b word's best match).
 */
function matchTranslations(
  tr: ReadonlyMap<string, number>,
  discount: number,
  aSet: ReadonlySet<string>,
  aPrefix: ReadonlyMap<string, readonly string[]>,
  bestA: Map<string, number>,
  best: number,
): number {
  if (tr.size <= aSet.size) {
    for (const [w, weight] of tr) {
      const x = Math.min(1, weight) * discount;
      if (aSet.has(w)) best = creditWord(bestA, w, x, best);
      if (w.length >= PREFIX) {
        const near = aPrefix.get(w.slice(0, PREFIX));
        if (near) for (const n of near) best = creditWord(bestA, n, x * PREFIX_DISCOUNT, best);
      }
    }
    return best;
  }
  const byPrefix = prefixIndex(tr);
  for (const w of aSet) {
    const exact = tr.get(w);
    if (exact !== undefined) best = creditWord(bestA, w, Math.min(1, exact) * discount, best);
    const near = w.length >= PREFIX ? byPrefix.get(w.slice(0, PREFIX)) : undefined;
    if (near !== undefined) best = creditWord(bestA, w, Math.min(1, near) * discount * PREFIX_DISCOUNT, best);
  }
  return best;
}

/** Credit word `w` with weight `x` (its best so far is kept) and return the larger of `best` and `x`. */
function creditWord(bestOf: Map<string, number>, w: string, x: number, best: number): number {
  if ((bestOf.get(w) ?? 0) < x) bestOf.set(w, x);
  return x > best ? x : best;
}

const prefixIndexes = new WeakMap<ReadonlyMap<string, number>, Map<string, number>>();

/** A translation list's best weight per PREFIX-letter prefix of its words. */
function prefixIndex(tr: ReadonlyMap<string, number>): Map<string, number> {
  return listIndex(prefixIndexes, tr, (w, weight, put) => {
    if (w.length >= PREFIX) put(w.slice(0, PREFIX), weight);
  });
}

const PREFIX = 5;
const PREFIX_DISCOUNT = 0.8;

/** The content words (function words dropped), or every word when all are function words ("I am."). */
function contentOf(tokens: readonly string[], lang: string): string[] {
  const content = tokens.filter((t) => !isStopWord(t, lang));
  return content.length > 0 ? content : [...tokens];
}

/** Punctuation classes that end a sentence (see PUNCT_CLASSES: full stop, question mark, exclamation mark). */
const SENTENCE_END: ReadonlySet<number> = new Set([0, 1, 2]);

function endsSentence(s: Side): boolean {
  return SENTENCE_END.has(s.final);
}

function punctAgreement(x: readonly number[], y: readonly number[]): number {
  let diff = 0;
  let total = 0;
  for (let i = 0; i < x.length; i++) {
    diff += Math.abs(x[i]! - y[i]!);
    total += x[i]! + y[i]!;
  }
  return total === 0 ? 1 : 1 - diff / total;
}

/**
 * Number agreement: the Jaccard of the two sides' numbers written in digits (1 when neither has any); when only one
 * side has some, the share of them (a clock time's minutes left out when it has more) the other writes in words.
 */
function numberAgreement(a: Side, b: Side): number {
  if (a.numbers.length > 0 && b.numbers.length === 0) return writtenInWords(a, b);
  if (b.numbers.length > 0 && a.numbers.length === 0) return writtenInWords(b, a);
  return jaccard(a.numbers, b.numbers);
}

function writtenInWords(digits: Side, words: Side): number {
  const required = new Set(digits.numbers.filter((n) => !digits.optionalNumbers.includes(n)));
  const wanted = required.size > 0 ? required : new Set(digits.numbers);
  const written = new Set(numberWords(words.text, words.lang));
  let found = 0;
  for (const n of wanted) if (written.has(n)) found++;
  return found / wanted.size;
}

function jaccard(x: readonly string[], y: readonly string[]): number {
  if (x.length === 0 && y.length === 0) return 1;
  const sx = new Set(x);
  const sy = new Set(y);
  let inter = 0;
  for (const v of sx) if (sy.has(v)) inter++;
  return inter / (sx.size + sy.size - inter);
}

function share(part: number, rest: number): number {
  return part + rest === 0 ? 0 : part / (part + rest);
}
