/**
 * Gale & Church (1993) length model, as the seed extractor of feng2011 uses it (Eq. 1):
 * δ = (l2 − l1·c) / √(l1·s²), where l1 is the length of the CJK side and l2 the length of the
 * other side. Lengths are counted in characters (letters and digits, no spaces or punctuation),
 * Gale-Church's own unit, because it needs no word segmenter and so works for any script.
 *
 * The parameters are estimated from a parallel corpus by `estimateLengthModel` (c = Σl2/Σl1,
 * s² = Σ(l2 − c·l1)²/Σl1, Gale-Church's fit).
 *
 * One extension, measured on the same corpus: the squared residual grows faster than l1 (per CJK character
 * it is 4.1 at 5–15 characters, 7.6 at 20–30, 11.7 beyond), because the length ratio itself varies between
 * translators and translations (machine translation is terse). Read literally, Gale-Church rejects most
 * paragraph-length pairs. So the variance is s²·l1 + b·l1², both fitted by least squares on the squared
 * residuals; with b = 0 this is Gale-Church exactly.
 */

export interface LengthModel {
  /** Expected characters of the non-CJK side per CJK character. */
  c: number;
  /** Variance of that ratio per CJK character. */
  s2: number;
  /** Quadratic variance term (ratio spread between translations); 0 = Gale-Church's model. */
  b: number;
  /** Where the figures come from. */
  source: string;
}

/**
 * en–zh, estimated from ../shared/data/parallel/tatoeba-cmn-eng.dev.tsv (27,211 pairs) with
 * `estimateLengthModel` and `lengthChars`; test/extract/length-model.test.ts re-estimates them.
 * (feng2011 reports c = 1.03, s² = 0.426, evidently in words: the same corpus in jieba words
 * gives 1.075 / 0.536, see docs/guide/extract.md.)
 */
export const EN_ZH_LENGTH: LengthModel = { c: 2.804, s2: 2.055, b: 0.2177, source: "tatoeba-cmn-eng.dev (27,211 pairs)" };

/**
 * en–ja: no ja–en parallel text is available offline, so this is not estimated. Japanese spends
 * more characters than Chinese on the same content (kana particles and endings), so the zh figure
 * over-predicts English length; a doubled variance makes the model tolerant of that. Honest
 * consequence: the length model is a weak filter for ja–en and the word-overlap model carries less.
 */
export const EN_JA_LENGTH: LengthModel = {
  c: 2.1,
  s2: 4.1,
  b: 0.435,
  source: "not estimated: zh–en figures, c divided by 1.33 (kana), variance doubled",
};

/** The length model for a language pair, by the CJK side's language. */
export function lengthModelFor(cjkLang: string): LengthModel {
  return cjkLang === "ja" ? EN_JA_LENGTH : EN_ZH_LENGTH;
}

/** Gale-Church's length unit: letters and digits (any script), spaces and punctuation excluded. */
export function lengthChars(text: string): number {
  let n = 0;
  for (const ch of text) if (/[\p{L}\p{N}]/u.test(ch)) n++;
  return n;
}

/**
 * δ for a CJK-side text and its counterpart. Letters and digits of the CJK side that are not in its own
 * script (`weight权重参数错误`, `62公里`) are carried over one for one: the expected length is c·l1 + those.
 */
export function textLengthDelta(cjkText: string, otherText: string, isCjkLetter: (ch: string) => boolean, model: LengthModel): number {
  let l1 = 0;
  let carried = 0;
  for (const ch of cjkText) {
    if (!/[\p{L}\p{N}]/u.test(ch)) continue;
    if (isCjkLetter(ch)) l1++;
    else carried++;
  }
  const n1 = Math.max(l1, 1);
  return (lengthChars(otherText) - l1 * model.c - carried) / Math.sqrt(n1 * model.s2 + n1 * n1 * model.b);
}

/** δ of Eq. 1 for a CJK text of `l1` characters and its counterpart of `l2` characters. */
export function lengthDelta(l1: number, l2: number, model: LengthModel): number {
  const n1 = Math.max(l1, 1);
  return (l2 - n1 * model.c) / Math.sqrt(n1 * model.s2 + n1 * n1 * model.b);
}

/** Two-tailed probability of a |δ| at least this large under the model: 1 for a perfect fit, → 0 for misfits. */
export function lengthProbability(delta: number): number {
  return 2 * (1 - normalCdf(Math.abs(delta)));
}

/**
 * c, s² and b from (l1, l2) length pairs (l1 = CJK side). With `quadratic: false` b = 0 and s² is
 * Gale-Church's estimate; otherwise the squared residuals r² are fitted as s²·l1 + b·l1² (least squares,
 * falling back to b = 0 if the fit would make b negative).
 */
export function estimateLengthModel(
  pairs: Iterable<readonly [number, number]>,
  source: string,
  options: { quadratic?: boolean } = {},
): LengthModel {
  const list = [...pairs].filter(([l1]) => l1 > 0);
  if (list.length === 0) throw new Error("estimateLengthModel: no pairs with a non-empty first side");
  let sum1 = 0;
  let sum2 = 0;
  for (const [l1, l2] of list) {
    sum1 += l1;
    sum2 += l2;
  }
  const c = sum2 / sum1;
  let sq = 0;
  for (const [l1, l2] of list) sq += (l2 - c * l1) ** 2;
  const galeChurch: LengthModel = { c, s2: sq / sum1, b: 0, source };
  if (options.quadratic === false) return galeChurch;
  // Normal equations of r² ≈ s²·x + b·x².
  let xx = 0;
  let xx2 = 0;
  let x2x2 = 0;
  let xr = 0;
  let x2r = 0;
  for (const [l1, l2] of list) {
    const r2 = (l2 - c * l1) ** 2;
    xx += l1 * l1;
    xx2 += l1 ** 3;
    x2x2 += l1 ** 4;
    xr += l1 * r2;
    x2r += l1 * l1 * r2;
  }
  const det = xx * x2x2 - xx2 * xx2;
  if (det === 0) return galeChurch;
  const s2 = (xr * x2x2 - xx2 * x2r) / det;
  const b = (xx * x2r - xx2 * xr) / det;
  return b > 0 && s2 > 0 ? { c, s2, b, source } : galeChurch;
}

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 via erf; |error| < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}
