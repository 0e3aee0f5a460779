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
export function interleavingSegments(a: ArrayLike<number>, b: ArrayLike<number>): { aByB: number[]; bByA: number[] } {
  const buffers = new RunBuffers(Math.max(a.length, b.length));
  const { na, nb } = buffers.walk(a, b);
  return { aByB: buffers.aByB(na), bByA: buffers.bByA(nb) };
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

/**
 * The similarity graph of the given occurrence vectors: σ as a sparse, symmetric matrix that stores only
 * the pairs with σ > 0 (plus the unit diagonal). Most tag paths of a page never interleave (σ = 0): the
 * page's head and its footer, a menu and the results. Two paths can only interleave when their spans
 * overlap, so pairs whose first-to-last ranges do not overlap are skipped without a merge walk, and the
 * others are measured with reused buffers, without allocating. Values equal `pathSimilarity` bit for bit.
 */
export function similarityGraph(
  occurrences: ReadonlyArray<ArrayLike<number>>,
  epsilon = DEFAULT_EPSILON,
  options: InterleavingOptions = {},
): SimilarityGraph {
  const n = occurrences.length;
  if (options.literal) return denseGraph(similarityMatrix(occurrences, epsilon, options), n);
  const means = new Float64Array(n);
  const first = new Float64Array(n);
  const last = new Float64Array(n);
  let longest = 0;
  for (let i = 0; i < n; i++) {
    const o = occurrences[i]!;
    means[i] = mean(o);
    first[i] = o.length > 0 ? o[0]! : Number.POSITIVE_INFINITY;
    last[i] = o.length > 0 ? o[o.length - 1]! : Number.NEGATIVE_INFINITY;
    longest = Math.max(longest, o.length);
  }
  const runs = new RunBuffers(2 * longest);
  const pairI: number[] = [];
  const pairJ: number[] = [];
  const pairV: number[] = [];
  const degree = new Int32Array(n).fill(1); // the diagonal
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (first[j]! >= last[i]! || first[i]! >= last[j]!) continue; // disjoint spans cannot interleave
      const mu = runs.interleaving(occurrences[i]!, occurrences[j]!);
      if (mu === Number.POSITIVE_INFINITY) continue;
      const c = Math.abs(means[i]! - means[j]!);
      const cmu = mu === 0 ? 0 : c * mu;
      pairI.push(i);
      pairJ.push(j);
      pairV.push(epsilon / (cmu + epsilon));
      degree[i]!++;
      degree[j]!++;
    }
  }
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = rowStart[i]! + degree[i]!;
  const cols = new Int32Array(rowStart[n]!);
  const values = new Float64Array(rowStart[n]!);
  const cursor = Int32Array.from(rowStart.subarray(0, n));
  // Pairs come ordered by (i, j), so appending in this order leaves every row sorted by column.
  let p = 0;
  for (let i = 0; i < n; i++) {
    cols[cursor[i]!] = i;
    values[cursor[i]!++] = 1;
    for (; p < pairI.length && pairI[p] === i; p++) {
      const j = pairJ[p]!;
      cols[cursor[i]!] = j;
      values[cursor[i]!++] = pairV[p]!;
      cols[cursor[j]!] = i;
      values[cursor[j]!++] = pairV[p]!;
    }
  }
  return { n, rowStart, cols, values };
}

/**
 * A sparse similarity matrix in compressed rows: row i's entries are `cols`/`values` from `rowStart[i]`
 * to `rowStart[i + 1]`, in ascending column order, the diagonal included. The pattern is symmetric
 * (entry (i, k) exists exactly when (k, i) does); a missing entry means "no similarity at all".
 */
export interface SimilarityGraph {
  n: number;
  rowStart: Int32Array;
  cols: Int32Array;
  values: Float64Array;
}

/** Every entry of a dense row-major n×n matrix as a graph (the general case of the sparse routines). */
export function denseGraph(s: ArrayLike<number>, n: number): SimilarityGraph {
  if (s.length !== n * n) throw new Error(`denseGraph: expected ${n * n} similarities, got ${s.length}`);
  const rowStart = new Int32Array(n + 1);
  const cols = new Int32Array(n * n);
  for (let i = 0; i < n; i++) {
    rowStart[i + 1] = (i + 1) * n;
    for (let k = 0; k < n; k++) cols[i * n + k] = k;
  }
  return { n, rowStart, cols, values: Float64Array.from(s) };
}

/** μ without allocating: the run lengths of a merge walk go into buffers sized once for the longest path. */
class RunBuffers {
  private readonly aRuns: Float64Array;
  private readonly bRuns: Float64Array;
  constructor(size: number) {
    this.aRuns = new Float64Array(size);
    this.bRuns = new Float64Array(size);
  }

  /** `interleaving(a, b)` (default reading) from the walk's buffers. */
  interleaving(a: ArrayLike<number>, b: ArrayLike<number>): number {
    const { na, nb } = this.walk(a, b);
    if (na < 2 || nb < 2) return Number.POSITIVE_INFINITY;
    return Math.max(variance(this.aRuns.subarray(0, na)), variance(this.bRuns.subarray(0, nb)));
  }

  /** The merge walk of two sorted position lists: the maximal runs of each, into the buffers; their counts. */
  walk(a: ArrayLike<number>, b: ArrayLike<number>): { na: number; nb: number } {
    let na = 0;
    let nb = 0;
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) {
        let run = 0;
        while (i < a.length && (j >= b.length || a[i]! <= b[j]!)) {
          i++;
          run++;
        }
        this.aRuns[na++] = run;
      } else {
        let run = 0;
        while (j < b.length && (i >= a.length || b[j]! < a[i]!)) {
          j++;
          run++;
        }
        this.bRuns[nb++] = run;
      }
    }
    return { na, nb };
  }

  aByB(na: number): number[] {
    return Array.from(this.aRuns.subarray(0, na));
  }

  bByA(nb: number): number[] {
    return Array.from(this.bRuns.subarray(0, nb));
  }
}

function mean(xs: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  return xs.length === 0 ? 0 : sum / xs.length;
}

function variance(xs: ArrayLike<number>): number {
  if (xs.length === 0) return 0;
  const m = mean(xs);
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += (xs[i]! - m) * (xs[i]! - m);
  return sum / xs.length;
}
