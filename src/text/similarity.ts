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
  if (d > 0 || !isUnspacedLang(srcLang) || lex.translations(src, srcLang) !== undefined) return d;
  const chars = Array.from(src);
  if (chars.length < 2) return 0;
  // Known sub-words: every proper substring of two or more characters.
  let best = 0;
  for (let len = chars.length - 1; len >= 2; len--) {
    for (let i = 0; i + len <= chars.length; i++) {
      const part = chars.slice(i, i + len).join("");
      const s = direct(part, srcLang, tgt, tgtLang, lex);
      if (s > best) best = s;
    }
  }
  if (best > 0) return best * SUBWORD_DISCOUNT;
  for (const ch of chars) {
    const s = direct(ch, srcLang, tgt, tgtLang, lex);
    if (s > best) best = s;
  }
  return best * CHAR_DISCOUNT;
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
