import { seededRandom } from "../random.js";

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

export const AP_DEFAULTS = { damping: 0.8, maxIterations: 1000, convergenceIterations: 100 } as const;

export function affinityPropagation(similarities: Float64Array, n: number, options: ApOptions = {}): ApResult {
  if (similarities.length !== n * n) throw new Error(`affinityPropagation: expected ${n * n} similarities, got ${similarities.length}`);
  const damping = options.damping ?? AP_DEFAULTS.damping;
  if (!(damping >= 0.5 && damping < 1)) throw new Error("affinityPropagation: damping must be in [0.5, 1)");
  const maxIterations = options.maxIterations ?? AP_DEFAULTS.maxIterations;
  const convIterations = options.convergenceIterations ?? AP_DEFAULTS.convergenceIterations;
  const preference = resolvePreference(similarities, n, options.preference ?? "median");

  if (n === 1) return { exemplars: [0], labels: Int32Array.of(0), iterations: 0, converged: true, preference };

  const s = Float64Array.from(similarities);
  for (let i = 0; i < n; i++) s[i * n + i] = preference;
  const r = new Float64Array(n * n);
  const a = new Float64Array(n * n);
  const rp = new Float64Array(n);
  // Ring buffer of the last `convIterations` exemplar indicator vectors, with per-point sums.
  const history = new Uint8Array(n * convIterations);
  const historySum = new Int32Array(n);
  const keep = 1 - damping;

  let iteration = 0;
  let converged = false;
  for (; iteration < maxIterations; iteration++) {
    // Responsibilities: r(i,k) = s(i,k) − max_{k'≠k} (a(i,k') + s(i,k'))
    for (let i = 0; i < n; i++) {
      const row = i * n;
      let max1 = Number.NEGATIVE_INFINITY;
      let max2 = Number.NEGATIVE_INFINITY;
      let argmax = -1;
      for (let k = 0; k < n; k++) {
        const v = a[row + k]! + s[row + k]!;
        if (v >= max1) {
          max2 = max1;
          max1 = v;
          argmax = k;
        } else if (v > max2) max2 = v;
      }
      for (let k = 0; k < n; k++) {
        const update = s[row + k]! - (k === argmax ? max2 : max1);
        r[row + k] = keep * update + damping * r[row + k]!;
      }
    }
    // Availabilities: a(i,k) = min(0, r(k,k) + Σ_{i'∉{i,k}} max(0, r(i',k))), a(k,k) = Σ_{i'≠k} max(0, r(i',k)).
    // Summed in apcluster.m's order (all clipped, then the self-responsibility swapped in unclipped), so
    // results agree with the reference to the last bit even on matrices full of ties.
    for (let k = 0; k < n; k++) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const v = Math.max(0, r[i * n + k]!);
        rp[i] = v;
        sum += v;
      }
      sum -= rp[k]!;
      rp[k] = r[k * n + k]!;
      sum += rp[k]!;
      for (let i = 0; i < n; i++) {
        const update = i === k ? sum - rp[k]! : Math.min(0, sum - rp[i]!);
        a[i * n + k] = keep * update + damping * a[i * n + k]!;
      }
    }
    // Convergence: the exemplar set unchanged over the last `convIterations` iterations.
    const slot = (iteration % convIterations) * n;
    let exemplarCount = 0;
    for (let i = 0; i < n; i++) {
      const e = a[i * n + i]! + r[i * n + i]! > 0 ? 1 : 0;
      historySum[i] = historySum[i]! - history[slot + i]! + e;
      history[slot + i] = e;
      exemplarCount += e;
    }
    if (exemplarCount > 0 && (iteration >= convIterations - 1 || iteration === maxIterations - 1)) {
      let stable = 0;
      for (let i = 0; i < n; i++) if (historySum[i] === 0 || historySum[i] === convIterations) stable++;
      if (stable === n) {
        converged = true;
        break;
      }
    }
  }

  let exemplars: number[] = [];
  for (let i = 0; i < n; i++) if (a[i * n + i]! + r[i * n + i]! > 0) exemplars.push(i);
  if (exemplars.length === 0) {
    // No point ever became an exemplar (possible with a very low preference): one cluster around the most central point.
    exemplars = [mostCentral(s, n)];
  }
  const labels = refine(s, n, exemplars);
  const finalExemplars = [...new Set(labels)].sort((x, y) => x - y);
  return { exemplars: finalExemplars, labels, iterations: Math.min(iteration + 1, maxIterations), converged, preference };
}

/** Assign points to exemplars, then move each exemplar to the member with the highest summed similarity, and reassign (apcluster.m's refinement). */
function refine(s: Float64Array, n: number, initial: number[]): Int32Array {
  const exemplars = [...initial];
  let labels = assign(s, n, exemplars);
  for (let e = 0; e < exemplars.length; e++) {
    const members: number[] = [];
    for (let i = 0; i < n; i++) if (labels[i] === exemplars[e]) members.push(i);
    let best = -1;
    let bestSum = Number.NEGATIVE_INFINITY;
    for (const candidate of members) {
      let sum = 0;
      for (const m of members) sum += s[m * n + candidate]!;
      if (sum > bestSum) {
        bestSum = sum;
        best = candidate;
      }
    }
    exemplars[e] = best;
  }
  labels = assign(s, n, exemplars);
  return labels;
}

function assign(s: Float64Array, n: number, exemplars: number[]): Int32Array {
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const e of exemplars) {
      const v = s[i * n + e]!;
      if (v > bestValue) {
        bestValue = v;
        best = e;
      }
    }
    labels[i] = best;
  }
  for (const e of exemplars) labels[e] = e;
  return labels;
}

function mostCentral(s: Float64Array, n: number): number {
  let best = 0;
  let bestSum = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    let sum = 0;
    for (let i = 0; i < n; i++) if (i !== k) sum += s[i * n + k]!;
    if (sum > bestSum) {
      bestSum = sum;
      best = k;
    }
  }
  return best;
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
