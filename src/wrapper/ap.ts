import { seededRandom } from "../random.js";
import { denseGraph, type SimilarityGraph } from "./similarity.js";
import { lowerBound } from "../stats.js";

/**
 * Affinity Propagation (Frey & Dueck, Science 2007) on a dense similarity matrix held in a
 * Float64Array (row-major, n×n). The message updates, convergence test and final exemplar
 * refinement follow the authors' reference `apcluster.m`.
 */

export interface ApOptions {
  /** s(k,k): "median" of the off-diagonal similarities (default), "min", or a number. */
  preference?: "median" | "min" | number;
  /** λ in [0.5, 1): new = (1−λ)·update + λ·old. */
  damping?: number;
  maxIterations?: number;
  /** Stop once the exemplar set has not changed for this many iterations. */
  convergenceIterations?: number;
}

export interface ApResult {
  /** Indices of the exemplars, ascending. */
  exemplars: number[];
  /** For each point, the index of its exemplar. */
  labels: Int32Array;
  iterations: number;
  converged: boolean;
  preference: number;
}

/**
 * `apcluster.m` stops after 100 unchanged iterations (at most 1,000), damping 0.5 (the `affinity-propagation`
 * package: 0.8). On tag-path graphs the exemplar set, once stable for 15 iterations (scikit-learn's default),
 * never changed again on the 114 real result pages, and the one page that never converges oscillates between
 * equivalent clusterings: `bench/wrapper-equivalence.ts` finds the same records with 15/200 as with 100/1000,
 * and with damping 0.7 as with 0.8 (0.5 changes one page). Together they cut the iterations from about 230 to
 * under 80 on average.
 */
export const AP_DEFAULTS = { damping: 0.7, maxIterations: 200, convergenceIterations: 15 } as const;

/** AP on a dense row-major n×n matrix: every pair is an edge of the graph. */
export function affinityPropagation(similarities: Float64Array, n: number, options: ApOptions = {}): ApResult {
  if (similarities.length !== n * n) throw new Error(`affinityPropagation: expected ${n * n} similarities, got ${similarities.length}`);
  return sparseAffinityPropagation(denseGraph(similarities, n), options);
}

/**
 * AP on a sparse similarity graph (Frey & Dueck's sparse variant): messages flow only along the stored
 * entries, a missing entry is a similarity of −∞ (the two points can never be each other's exemplar), so
 * one iteration costs O(entries) instead of O(n²). On a complete graph every loop visits exactly the
 * entries, and in the order, of the dense algorithm, so the result is that of `apcluster.m` to the bit.
 * A point with no neighbour is an exemplar of itself and takes no part in the messages. The graph's
 * pattern must be symmetric; its diagonal values are replaced by the preference.
 */
export function sparseAffinityPropagation(graph: SimilarityGraph, options: ApOptions = {}): ApResult {
  const n = graph.n;
  const damping = options.damping ?? AP_DEFAULTS.damping;
  if (!(damping >= 0.5 && damping < 1)) throw new Error("affinityPropagation: damping must be in [0.5, 1)");
  const maxIterations = options.maxIterations ?? AP_DEFAULTS.maxIterations;
  const convIterations = options.convergenceIterations ?? AP_DEFAULTS.convergenceIterations;
  const preference = resolveGraphPreference(graph, options.preference ?? "median");

  if (n === 1) return { exemplars: [0], labels: Int32Array.of(0), iterations: 0, converged: true, preference };

  const m = messages(graph, preference, damping);
  const window = new ExemplarWindow(n, convIterations);
  let iteration = 0;
  let converged = false;
  for (; iteration < maxIterations; iteration++) {
    updateResponsibilities(graph, m);
    updateAvailabilities(graph, m);
    const exemplarCount = window.record(iteration, (i) => isExemplar(m, i));
    if (exemplarCount > 0 && (iteration >= convIterations - 1 || iteration === maxIterations - 1) && window.stable()) {
      converged = true;
      break;
    }
  }

  let exemplars: number[] = [];
  for (let i = 0; i < n; i++) if (isExemplar(m, i)) exemplars.push(i);
  if (exemplars.length === 0) {
    // No point ever became an exemplar (possible with a very low preference): one cluster around the most central point.
    exemplars = [mostCentral(graph, m.s)];
  }
  const labels = refine(graph, m.s, m.transpose, exemplars);
  const finalExemplars = [...new Set(labels)].sort((x, y) => x - y);
  return { exemplars: finalExemplars, labels, iterations: Math.min(iteration + 1, maxIterations), converged, preference };
}

/** The message state of one AP run, one value per stored entry of the graph. */
interface Messages {
  /** Similarities, the preference on the diagonal. */
  s: Float64Array;
  /** Responsibilities r(i,k) and availabilities a(i,k). */
  r: Float64Array;
  a: Float64Array;
  /** Scratch: column k's clipped responsibilities, in row k's entry order. */
  rp: Float64Array;
  diag: Int32Array;
  transpose: Int32Array;
  /** Points with no neighbour: exemplars of themselves, outside the messages. */
  isolated: Uint8Array;
  damping: number;
  /** 1 − damping: the share of the new update. */
  keep: number;
}

function messages(graph: SimilarityGraph, preference: number, damping: number): Messages {
  const { n, rowStart, cols } = graph;
  const m = cols.length;
  const s = Float64Array.from(graph.values);
  const diag = diagonalEntries(graph);
  for (let i = 0; i < n; i++) s[diag[i]!] = preference;
  const isolated = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (rowStart[i + 1]! - rowStart[i]! === 1) isolated[i] = 1;
  return {
    s,
    r: new Float64Array(m),
    a: new Float64Array(m),
    rp: new Float64Array(m),
    diag,
    transpose: transposeEntries(graph),
    isolated,
    damping,
    keep: 1 - damping,
  };
}

function isExemplar(m: Messages, i: number): boolean {
  return m.isolated[i] === 1 || m.a[m.diag[i]!]! + m.r[m.diag[i]!]! > 0;
}

/** Responsibilities: r(i,k) = s(i,k) − max_{k'≠k} (a(i,k') + s(i,k')), damped. */
function updateResponsibilities(graph: SimilarityGraph, m: Messages): void {
  const { n, rowStart } = graph;
  const { s, r, a, isolated, damping, keep } = m;
  for (let i = 0; i < n; i++) {
    if (isolated[i]) continue;
    const end = rowStart[i + 1]!;
    let max1 = Number.NEGATIVE_INFINITY;
    let max2 = Number.NEGATIVE_INFINITY;
    let argmax = -1;
    for (let e = rowStart[i]!; e < end; e++) {
      const v = a[e]! + s[e]!;
      if (v >= max1) {
        max2 = max1;
        max1 = v;
        argmax = e;
      } else if (v > max2) max2 = v;
    }
    for (let e = rowStart[i]!; e < end; e++) {
      const update = s[e]! - (e === argmax ? max2 : max1);
      r[e] = keep * update + damping * r[e]!;
    }
  }
}

/**
 * Availabilities: a(i,k) = min(0, r(k,k) + Σ_{i'∉{i,k}} max(0, r(i',k))), a(k,k) = Σ_{i'≠k} max(0, r(i',k)), damped.
 * Column k is walked through row k's entries and their transposes (ascending i), and summed in
 * apcluster.m's order (all clipped, then the self-responsibility swapped in unclipped), so results agree
 * with the reference to the last bit even on matrices full of ties.
 */
function updateAvailabilities(graph: SimilarityGraph, m: Messages): void {
  const { n, rowStart } = graph;
  const { r, a, rp, diag, transpose, isolated, damping, keep } = m;
  for (let k = 0; k < n; k++) {
    if (isolated[k]) continue;
    const end = rowStart[k + 1]!;
    const dk = diag[k]!;
    let sum = 0;
    for (let t = rowStart[k]!; t < end; t++) {
      const v = Math.max(0, r[transpose[t]!]!);
      rp[t] = v;
      sum += v;
    }
    const selfT = dk; // the diagonal is its own transpose
    sum -= rp[selfT]!;
    rp[selfT] = r[dk]!;
    sum += rp[selfT]!;
    for (let t = rowStart[k]!; t < end; t++) {
      const e = transpose[t]!;
      const update = t === selfT ? sum - rp[selfT]! : Math.min(0, sum - rp[t]!);
      a[e] = keep * update + damping * a[e]!;
    }
  }
}

/**
 * The convergence test: a ring buffer of the last `size` exemplar indicator vectors, with per-point sums;
 * stable when every point was an exemplar in all of them or in none.
 */
class ExemplarWindow {
  private readonly history: Uint8Array;
  private readonly sums: Int32Array;

  constructor(
    private readonly n: number,
    private readonly size: number,
  ) {
    this.history = new Uint8Array(n * size);
    this.sums = new Int32Array(n);
  }

  /** Record iteration `iteration`'s exemplars; returns how many there are. */
  record(iteration: number, isExemplar: (i: number) => boolean): number {
    const slot = (iteration % this.size) * this.n;
    let count = 0;
    for (let i = 0; i < this.n; i++) {
      const x = isExemplar(i) ? 1 : 0;
      this.sums[i] = this.sums[i]! - this.history[slot + i]! + x;
      this.history[slot + i] = x;
      count += x;
    }
    return count;
  }

  stable(): boolean {
    for (let i = 0; i < this.n; i++) if (this.sums[i] !== 0 && this.sums[i] !== this.size) return false;
    return true;
  }
}

/** Index of each row's diagonal entry. */
function diagonalEntries(graph: SimilarityGraph): Int32Array {
  const diag = new Int32Array(graph.n).fill(-1);
  for (let i = 0; i < graph.n; i++) {
    for (let e = graph.rowStart[i]!; e < graph.rowStart[i + 1]!; e++) if (graph.cols[e] === i) diag[i] = e;
    if (diag[i]! < 0) throw new Error(`affinityPropagation: row ${i} has no diagonal entry`);
  }
  return diag;
}

/** For each entry (i, k), the index of entry (k, i). */
function transposeEntries(graph: SimilarityGraph): Int32Array {
  const { n, rowStart, cols } = graph;
  const transpose = new Int32Array(cols.length);
  const cursor = Int32Array.from(rowStart.subarray(0, n));
  // Walking rows in ascending order, the entries (i, k) reach row k's entries in ascending i, i.e. in order.
  for (let i = 0; i < n; i++) {
    for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) {
      const k = cols[e]!;
      const t = cursor[k]!++;
      if (cols[t] !== i) throw new Error("affinityPropagation: the similarity graph's pattern is not symmetric");
      transpose[t] = e;
    }
  }
  return transpose;
}

/**
 * Assign points to exemplars, then move each exemplar to the member with the highest summed similarity, and
 * reassign (apcluster.m's refinement). A point with no entry to any exemplar is an exemplar of itself.
 */
function refine(graph: SimilarityGraph, s: Float64Array, transpose: Int32Array, initial: number[]): Int32Array {
  const { n, rowStart, cols } = graph;
  const exemplars = [...initial];
  let labels = assign(graph, s, exemplars);
  const members: number[][] = exemplars.map(() => []);
  const slotOf = new Map(exemplars.map((e, i) => [e, i]));
  for (let i = 0; i < n; i++) {
    const slot = slotOf.get(labels[i]!);
    if (slot !== undefined) members[slot]!.push(i);
  }
  const inCluster = new Uint8Array(n);
  for (let x = 0; x < exemplars.length; x++) {
    const group = members[x]!;
    for (const i of group) inCluster[i] = 1;
    let best = -1;
    let bestSum = Number.NEGATIVE_INFINITY;
    for (const candidate of group) {
      // Σ over members m of s(m, candidate), in ascending m: −∞ unless the candidate has an entry for every member.
      let sum = 0;
      let found = 0;
      for (let t = rowStart[candidate]!; t < rowStart[candidate + 1]!; t++) {
        if (!inCluster[cols[t]!]) continue;
        sum += s[transpose[t]!]!;
        found++;
      }
      if (found < group.length) sum = Number.NEGATIVE_INFINITY;
      if (sum > bestSum) {
        bestSum = sum;
        best = candidate;
      }
    }
    for (const i of group) inCluster[i] = 0;
    exemplars[x] = best;
  }
  labels = assign(graph, s, exemplars);
  return labels;
}

function assign(graph: SimilarityGraph, s: Float64Array, exemplars: number[]): Int32Array {
  const { n, rowStart, cols } = graph;
  const rank = new Int32Array(n).fill(-1); // order of each exemplar in `exemplars` (ties go to the first)
  exemplars.forEach((e, x) => {
    rank[e] = x;
  });
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestRank = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) {
      const x = rank[cols[e]!]!;
      if (x < 0) continue;
      const v = s[e]!;
      if (v > bestValue || (v === bestValue && x < bestRank)) {
        bestValue = v;
        best = cols[e]!;
        bestRank = x;
      }
    }
    labels[i] = best < 0 ? i : best;
  }
  for (const e of exemplars) labels[e] = e;
  return labels;
}

function mostCentral(graph: SimilarityGraph, s: Float64Array): number {
  const { n, rowStart, cols } = graph;
  const sums = new Float64Array(n);
  // Column sums in ascending row order, as the dense reference adds them.
  for (let i = 0; i < n; i++)
    for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) if (cols[e] !== i) sums[cols[e]!] = sums[cols[e]!]! + s[e]!;
  let best = 0;
  let bestSum = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    if (sums[k]! > bestSum) {
      bestSum = sums[k]!;
      best = k;
    }
  }
  return best;
}

/**
 * The preference of a graph: as `resolvePreference` over the full n×n matrix, where the missing entries
 * count as similarity 0 (two tag paths that do not interleave have σ = 0).
 */
export function resolveGraphPreference(graph: SimilarityGraph, preference: "median" | "min" | number): number {
  if (typeof preference === "number") return preference;
  return graphPreferences(graph)[preference];
}

/** Both preferences of `resolveGraphPreference` from one sort of the stored similarities. */
export function graphPreferences(graph: SimilarityGraph): { median: number; min: number } {
  const { n, rowStart, cols, values } = graph;
  if (n < 2) return { median: 0, min: 0 };
  const zeros = n * (n - 1) - (cols.length - n);
  const total = n * (n - 1);
  const mid = total >> 1;
  // A sparse graph (most pairs of tag paths never interleave) with no negative value: the missing entries, zeros,
  // are the smallest values and more than half of them, so both are 0, without sorting.
  if (mid < zeros && nonNegative(values)) return { median: 0, min: 0 };
  const off = new Float64Array(cols.length - n);
  let m = 0;
  for (let i = 0; i < n; i++) for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) if (cols[e] !== i) off[m++] = values[e]!;
  off.sort();
  const below = lowerBound(off, 0);
  // The q-th smallest of the stored values merged with `zeros` implicit zeros.
  const nth = (q: number) => (q < below ? off[q]! : q < below + zeros ? 0 : off[q - zeros]!);
  return { median: total % 2 ? nth(mid) : (nth(mid - 1) + nth(mid)) / 2, min: nth(0) };
}

function nonNegative(values: Float64Array): boolean {
  for (let e = 0; e < values.length; e++) if (!(values[e]! >= 0)) return false;
  return true;
}

/** The preference value: the median (or minimum) of the off-diagonal similarities, or the given number. */
export function resolvePreference(s: Float64Array, n: number, preference: "median" | "min" | number): number {
  if (typeof preference === "number") return preference;
  if (n < 2) return 0;
  const off = new Float64Array(n * (n - 1));
  let m = 0;
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) if (i !== k) off[m++] = s[i * n + k]!;
  off.sort();
  if (preference === "min") return off[0]!;
  const mid = off.length >> 1;
  return off.length % 2 ? off[mid]! : (off[mid - 1]! + off[mid]!) / 2;
}

/**
 * Tiny deterministic noise that breaks exact ties between similarities, as `apcluster.m` does with
 * `S + (eps·S + realmin·100)·rand`. Tag-path matrices are full of exactly equal rows (a path and its
 * `#text` child relate identically to everything), on which the messages oscillate between equally good
 * exemplars; noise at machine epsilon is lost in rounding there, so it is 1e-9 relative (+1e-12 absolute)
 * here — far below any similarity difference that means something. Seeded, so learning is reproducible.
 */
const TIE_NOISE = 1e-9;
const TIE_NOISE_FLOOR = 1e-12;

export function withTieBreakNoise(s: Float64Array, seed = 0x5eed): Float64Array {
  const out = Float64Array.from(s);
  const random = seededRandom(seed);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! + (TIE_NOISE * Math.abs(out[i]!) + TIE_NOISE_FLOOR) * random();
  return out;
}

/** `withTieBreakNoise` on the stored entries of a graph (on a complete graph: the same values, in the same order). */
export function graphWithTieBreakNoise(graph: SimilarityGraph, seed = 0x5eed): SimilarityGraph {
  return { ...graph, values: withTieBreakNoise(graph.values, seed) };
}
