/**
 * A basis expansion that lets the logistic regression bend: each feature with hinges max(0, x − k) at knots
 * (quartiles of the training data), so a feature's effect can rise and level off (an additive model); and the
 * shorter side's length times the features whose meaning depends on it (a missing full stop says little about a
 * term, much about a sentence).
 */

export interface Basis {
  /** Knots per feature (empty: the feature enters as is). */
  knots: number[][];
  /** Pairs of feature indexes whose product is added. */
  products: Array<[number, number]>;
}

const QUANTILES = [0.25, 0.5, 0.75];

export function fitBasis(samples: readonly number[][], products: Array<[number, number]>): Basis {
  const d = samples[0]?.length ?? 0;
  const knots: number[][] = [];
  for (let i = 0; i < d; i++) {
    const v = samples.map((x) => x[i]!).sort((a, b) => a - b);
    const ks = [...new Set(QUANTILES.map((q) => v[Math.floor(q * (v.length - 1))]!))].filter((k) => k > v[0]! && k < v.at(-1)!);
    knots.push(ks.map((k) => Math.round(k * 1e6) / 1e6));
  }
  return { knots, products };
}

export function expand(basis: Basis, x: readonly number[]): number[] {
  const out = [...x];
  for (let i = 0; i < basis.knots.length; i++) for (const k of basis.knots[i]!) out.push(Math.max(0, x[i]! - k));
  for (const [i, j] of basis.products) out.push(x[i]! * x[j]!);
  return out;
}
