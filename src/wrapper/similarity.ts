/**
 * Similarity of two tag paths from their occurrence vectors (feng2010 §4.2, Equations 1–2).
 *
 * The seed describes O_i as a 0/1 vector as long as the page; everything it needs follows from the
 * sorted position lists S_i directly, so no page-length vectors are allocated here.
 */

/** c(S_i, S_j): distance between the average positions of two paths. */
export function closeness(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.abs(mean(a) - mean(b));
}

/**
 * D_{O_a/O_b} and D_{O_b/O_a}. The occurrences of b cut the occurrences of a into regions; each
 * element of D_{O_a/O_b} counts a's occurrences in one region, consecutive separators count as one
 * and empty regions are ignored. Merging the two sorted lists, that is exactly the lengths of the
 * maximal runs of a's positions (and symmetrically of b's). Positions of two distinct paths never
 * coincide; should equal positions be passed anyway, they count for `a` (so the walk always advances).
 */
export function interleavingSegments(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
): { aByB: number[]; bByA: number[] } {
  const aByB: number[] = [];
  const bByA: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) {
      let run = 0;
      while (i < a.length && (j >= b.length || a[i]! <= b[j]!)) {
        i++;
        run++;
      }
      aByB.push(run);
    } else {
      let run = 0;
      while (j < b.length && (i >= a.length || b[j]! < a[i]!)) {
        j++;
        run++;
      }
      bByA.push(run);
    }
  }
  return { aByB, bByA };
}

export interface InterleavingOptions {
  /**
   * Read the seed literally: a one-element D has variance 0, so two paths that never interleave (all
   * of one before all of the other) or a path occurring once get μ = 0 and σ = 1 with everything
   * (`notes/measured.md`, point 1). By default they are treated as not interleaving at all (μ = ∞):
   * interleaving needs at least two regions on both sides.
   */
  literal?: boolean;
}

/** μ(O_a, O_b) = max(Var(D_{O_a/O_b}), Var(D_{O_b/O_a})) — Equation 1 (population variance). */
export function interleaving(a: ArrayLike<number>, b: ArrayLike<number>, options: InterleavingOptions = {}): number {
  const { aByB, bByA } = interleavingSegments(a, b);
  if (!options.literal && (aByB.length < 2 || bByA.length < 2)) return Number.POSITIVE_INFINITY;
  return Math.max(variance(aByB), variance(bByA));
}

export const DEFAULT_EPSILON = 10;

/** σ(P_a, P_b) = ε / (c·μ + ε) — Equation 2; in (0, 1], or 0 when the paths do not interleave. */
export function pathSimilarity(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  epsilon = DEFAULT_EPSILON,
  options: InterleavingOptions = {},
): number {
  const mu = interleaving(a, b, options);
  if (mu === Number.POSITIVE_INFINITY) return 0;
  const c = closeness(a, b);
  // c·μ with μ = 0 is 0 even if c is large: the seed's perfectly regular pair.
  const cmu = mu === 0 ? 0 : c * mu;
  return epsilon / (cmu + epsilon);
}

/** The n×n similarity matrix (row-major) of the given occurrence vectors; the diagonal is σ(P_i, P_i) = 1. */
export function similarityMatrix(
  occurrences: ReadonlyArray<ArrayLike<number>>,
  epsilon = DEFAULT_EPSILON,
  options: InterleavingOptions = {},
): Float64Array {
  const n = occurrences.length;
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    s[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const v = pathSimilarity(occurrences[i]!, occurrences[j]!, epsilon, options);
      s[i * n + j] = v;
      s[j * n + i] = v;
    }
  }
  return s;
}

function mean(xs: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  return xs.length === 0 ? 0 : sum / xs.length;
}

function variance(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const m = mean(xs);
  let sum = 0;
  for (const x of xs) sum += (x - m) * (x - m);
  return sum / xs.length;
}
