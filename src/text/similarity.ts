import type { Lexicon } from "./lexicon.js";
import { isUnspacedLang, type Lang } from "./script.js";
import { englishToken } from "./tokenize.js";

/** Discount for a match found through a part of a word the lexicon does not know as a whole. */
export const SUBWORD_DISCOUNT = 0.8;
/** Discount for a match found through a single character of such a word (characters are ambiguous). */
export const CHAR_DISCOUNT = 0.4;

const memo = new WeakMap<Lexicon, Map<string, number>>();
const MEMO_LIMIT = 200_000;

/**
 * Sim(c, e) ∈ [0, 1]: how well word `a` translates word `b` (tokens as `tokenize` returns them).
 * - identical tokens (numbers, names written alike on both sides, same-language equal words) → 1;
 * - the lexicon weight of the pair, looked up from the non-English side (CC-CEDICT is indexed by the
 *   Chinese headword; lexicon entries hold in both directions, so one lookup suffices);
 * - back-off for words of unspaced languages (zh, ja) the lexicon does not know at all: the best match
 *   of a known sub-word × 0.8 (大桥 in 长江大桥), else of a single character × 0.4.
 */
export function wordSim(a: string, aLang: Lang, b: string, bLang: Lang, lex: Lexicon): number {
  if (a === b) return 1;
  if (aLang === bLang) return 0;
  let cache = memo.get(lex);
  if (!cache) {
    cache = new Map();
    memo.set(lex, cache);
  }
  const key = `${aLang}\u0000${a}\u0000${bLang}\u0000${b}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  // Look up from the side that is not English (the dictionary's headword side).
  const swap = aLang === "en";
  const src = swap ? b : a;
  const srcLang = swap ? bLang : aLang;
  const tgt = swap ? a : b;
  const tgtLang = swap ? aLang : bLang;
  const sim = computeSim(src, srcLang, tgt, tgtLang, lex);
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(key, sim);
  return sim;
}

function direct(src: string, srcLang: Lang, tgt: string, tgtLang: Lang, lex: Lexicon): number {
  let w = lex.translations(src, srcLang)?.get(tgt) ?? 0;
  if (w === 0 && tgtLang === "en") {
    const t = englishToken(tgt);
    if (t !== tgt) w = lex.translations(src, srcLang)?.get(t) ?? 0;
  }
  return Math.min(1, w);
}

function computeSim(src: string, srcLang: Lang, tgt: string, tgtLang: Lang, lex: Lexicon): number {
  const d = direct(src, srcLang, tgt, tgtLang, lex);
  if (d > 0) return d;
  const back = backoffTranslations(src, srcLang, lex);
  if (!back) return 0;
  const t = tgtLang === "en" ? [tgt, englishToken(tgt)] : [tgt];
  const best = (lists: readonly ReadonlyMap<string, number>[]) => {
    let w = 0;
    for (const m of lists) for (const x of t) w = Math.max(w, m.get(x) ?? 0);
    return Math.min(1, w);
  };
  const sub = best(back.parts);
  return sub > 0 ? sub * SUBWORD_DISCOUNT : best(back.chars) * CHAR_DISCOUNT;
}

/**
 * The back-off translations of a word the lexicon does not know (see `wordSim`), undiscounted: the lexicon's own
 * translation lists, not merged (a word's weight is the largest any list gives it; merging cost more than reading).
 */
export interface BackoffTranslations {
  /** Translations of its known proper sub-words of two or more characters, one list per distinct sub-word. */
  parts: readonly ReadonlyMap<string, number>[];
  /** Translations of its single characters, one list per distinct character. */
  chars: readonly ReadonlyMap<string, number>[];
  /** The word's length in characters. */
  length: number;
  /** Where each known sub-word stands: characters [start, end) and the index of its list in `parts`. */
  spans: readonly { start: number; end: number; part: number }[];
}

const backoffMemo = new WeakMap<Lexicon, Map<Lang, Map<string, BackoffTranslations | null>>>();
const SURROGATE = /[\ud800-\udfff]/u;

/**
 * The back-off of Sim(c, e) for a word of an unspaced language (zh, ja) the lexicon does not know at all:
 * what its known parts translate to (大桥 in 长江大桥), and its single characters. Undefined when the word is
 * known, of a spaced language, or a single character. Cached per lexicon.
 */
export function backoffTranslations(word: string, lang: Lang, lex: Lexicon): BackoffTranslations | undefined {
  if (!isUnspacedLang(lang)) return undefined;
  let byLang = backoffMemo.get(lex);
  if (!byLang) {
    byLang = new Map();
    backoffMemo.set(lex, byLang);
  }
  let cache = byLang.get(lang);
  if (!cache) {
    cache = new Map();
    byLang.set(lang, cache);
  }
  // The memo holds only words the lexicon lacks (a known word is never memoised), so a hit needs no lookup.
  const hit = cache.get(word);
  if (hit !== undefined) return hit ?? undefined;
  if (lex.translations(word, lang) !== undefined) return undefined;
  // By characters; by UTF-16 units when there is no surrogate pair (the same, without an array of characters).
  const chars = SURROGATE.test(word) ? Array.from(word) : word;
  const sub = (i: number, n: number) => (typeof chars === "string" ? chars.slice(i, i + n) : chars.slice(i, i + n).join(""));
  let result: BackoffTranslations | null = null;
  if (chars.length >= 2) {
    const parts = new Map<ReadonlyMap<string, number>, number>();
    const spans: { start: number; end: number; part: number }[] = [];
    const single = new Set<ReadonlyMap<string, number>>();
    for (let len = chars.length - 1; len >= 2; len--) {
      for (let i = 0; i + len <= chars.length; i++) {
        const m = lex.translations(sub(i, len), lang);
        if (!m) continue;
        let part = parts.get(m);
        if (part === undefined) {
          part = parts.size;
          parts.set(m, part);
        }
        spans.push({ start: i, end: i + len, part });
      }
    }
    for (let i = 0; i < chars.length; i++) {
      const m = lex.translations(sub(i, 1), lang);
      if (m) single.add(m);
    }
    result = { parts: [...parts.keys()], chars: [...single], length: chars.length, spans };
  }
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(word, result);
  return result ?? undefined;
}

/** English derivational affixes, as they stand on Porter stems ("growabl", "destructur"). */
const ENGLISH_PREFIXES = [
  "un",
  "in",
  "im",
  "il",
  "ir",
  "non",
  "de",
  "dis",
  "re",
  "mis",
  "pre",
  "sub",
  "co",
  "anti",
  "auto",
  "inter",
  "over",
  "under",
  "multi",
  "super",
  "meta",
  "trans",
];
const ENGLISH_SUFFIXES = ["er", "or", "ar", "abl", "ibl", "ness", "ment", "ist", "iz", "ful", "less", "ism", "al", "ic"];
/** The shortest base a derivation back-off looks up (shorter ones are other words: "re" + "ad"). */
const MIN_BASE = 3;
const derivedMemo = new WeakMap<Lexicon, Map<string, ReadonlyMap<string, number> | null>>();

/**
 * The back-off of an English word through its derivation: the translations of the bases the lexicon knows after
 * one prefix or suffix is taken off ("caller" → call → 调用 in 调用者, "growable" → grow → 增长 in 可增长的,
 * "dereference" → refer → 引用 in 解引用). Undefined for other languages or when no base is known. Cached per
 * lexicon. The affix's own meaning (者, 可, 解) is not looked for: the base found is the evidence, discounted.
 */
export function derivedTranslations(token: string, lang: Lang, lex: Lexicon): ReadonlyMap<string, number> | undefined {
  if (lang !== "en" || token.length < MIN_BASE + 2) return undefined;
  let cache = derivedMemo.get(lex);
  if (!cache) {
    cache = new Map();
    derivedMemo.set(lex, cache);
  }
  const hit = cache.get(token);
  if (hit !== undefined) return hit ?? undefined;
  const out = new Map<string, number>();
  const merge = (base: string) => {
    if (base.length < MIN_BASE) return;
    const m = lex.translations(base, lang);
    if (m) for (const [w, v] of m) if ((out.get(w) ?? 0) < v) out.set(w, v);
  };
  for (const p of ENGLISH_PREFIXES) if (token.startsWith(p)) merge(token.slice(p.length));
  for (const x of ENGLISH_SUFFIXES) if (token.endsWith(x)) merge(token.slice(0, -x.length));
  const result = out.size > 0 ? out : null;
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(token, result);
  return result ?? undefined;
}

/** max_j Sim(a, b_j). */
function bestMatch(a: string, aLang: Lang, bTokens: readonly string[], bLang: Lang, lex: Lexicon): number {
  let best = 0;
  for (const b of bTokens) {
    const s = wordSim(a, aLang, b, bLang, lex);
    if (s > best) {
      best = s;
      if (best >= 1) break;
    }
  }
  return best;
}

/**
 * feng2010 Equation 3: Score(c, e) = Σ_i max_j Sim(a_i, b_j) / (p + q), summing over the `a` tokens
 * (the paper sums over the Chinese words; pass the Chinese side as `a`), p = |a|, q = |b|.
 * ∈ [0, p/(p+q)]; 0 when either side is empty.
 */
export function overlapScore(aTokens: readonly string[], aLang: Lang, bTokens: readonly string[], bLang: Lang, lex: Lexicon): number {
  const p = aTokens.length;
  const q = bTokens.length;
  if (p === 0 || q === 0) return 0;
  let sum = 0;
  for (const a of aTokens) sum += bestMatch(a, aLang, bTokens, bLang, lex);
  return sum / (p + q);
}

/**
 * Share of the `a` tokens that have a translation among the `b` tokens (Sim ≥ `minSim`, default 0.5, so
 * single-character back-off matches do not count) — liu2014's content-based similarity S_cb when `a` is
 * the English page's words and `b` the Chinese page's. ∈ [0, 1]; 0 when `a` is empty.
 */
export function translatedShare(
  aTokens: readonly string[],
  aLang: Lang,
  bTokens: readonly string[],
  bLang: Lang,
  lex: Lexicon,
  minSim = 0.5,
): number {
  if (aTokens.length === 0 || bTokens.length === 0) return 0;
  let n = 0;
  for (const a of aTokens) if (bestMatch(a, aLang, bTokens, bLang, lex) >= minSim) n++;
  return n / aTokens.length;
}
