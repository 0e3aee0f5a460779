import oracle from "affinity-propagation";
import { describe, expect, it } from "vitest";
import { indexTagPaths } from "../../src/html/index.js";
import { seededRandom } from "../../src/random.js";
import {
  AP_DEFAULTS,
  affinityPropagation,
  graphWithTieBreakNoise,
  resolveGraphPreference,
  resolvePreference,
  sparseAffinityPropagation,
  withTieBreakNoise,
} from "../../src/wrapper/index.js";
import { similarityGraph, similarityMatrix } from "../../src/wrapper/index.js";
import { fixturePage } from "../helpers/serps.js";

/** Points around k centres in the plane; similarity = −squared distance, as in Frey & Dueck's examples. */
function blobs(n: number, k: number, seed: number): Float64Array {
  const r = seededRandom(seed);
  const centres = Array.from({ length: k }, () => [r() * 100, r() * 100] as const);
  const pts = Array.from({ length: n }, (_, i) => {
    const c = centres[i % k]!;
    return [c[0] + (r() - 0.5) * 10, c[1] + (r() - 0.5) * 10] as const;
  });
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s[i * n + j] = -((pts[i]![0] - pts[j]![0]) ** 2 + (pts[i]![1] - pts[j]![1]) ** 2);
  return s;
}

function compare(s: Float64Array, n: number, damping?: number) {
  const preference = resolvePreference(s, n, "median");
  const ours = affinityPropagation(s, n, { preference, ...(damping ? { damping } : {}) });
  const theirs = oracle.getClusters(Array.from(s), {
    preference,
    maxIter: AP_DEFAULTS.maxIterations,
    convIter: AP_DEFAULTS.convergenceIterations,
    damping: damping ?? AP_DEFAULTS.damping,
  });
  expect(ours.exemplars).toEqual([...new Set(theirs.exemplars)].sort((a, b) => a - b));
  expect(Array.from(ours.labels)).toEqual(theirs.clusters);
  return ours;
}

describe("Affinity Propagation (Frey & Dueck 2007)", () => {
  it("finds the obvious exemplars of three well-separated groups", () => {
    const s = blobs(30, 3, 7);
    const r = affinityPropagation(s, 30);
    expect(r.converged).toBe(true);
    expect(r.exemplars).toHaveLength(3);
    // every point shares its exemplar with the points of its own group (i % 3)
    for (let i = 0; i < 30; i++) expect(r.labels[i]).toBe(r.labels[i % 3]);
  });

  it("picks the same exemplars as the reference package on random similarity matrices", () => {
    for (const [n, k, seed] of [
      [20, 2, 1],
      [40, 4, 2],
      [60, 5, 3],
      [35, 7, 4],
    ] as const)
      compare(blobs(n, k, seed), n);
    for (const seed of [11, 12, 13]) {
      const r = seededRandom(seed);
      const n = 25;
      const s = Float64Array.from({ length: n * n }, () => r()); // asymmetric, uniform
      compare(s, n);
      compare(s, n, 0.6);
    }
  });

  it("picks the same exemplars as the reference package on real tag-path similarity matrices", () => {
    for (const prefix of ["bing-kumolife", "360-site-chaxun", "sogou-ti-gong", "google-conflict", "yahoo-bc-gov"]) {
      const index = indexTagPaths(fixturePage(prefix).seq);
      const occ = index.occurrences.filter((o) => o.length >= 2);
      const s = withTieBreakNoise(similarityMatrix(occ));
      const r = compare(s, occ.length);
      expect(r.exemplars.length).toBeGreaterThan(1);
    }
  });

  it("takes the median of the off-diagonal similarities as the default preference", () => {
    const s = Float64Array.from([9, 1, 2, 3, 9, 4, 5, 6, 9]);
    expect(resolvePreference(s, 3, "median")).toBe(3.5);
    expect(resolvePreference(s, 3, "min")).toBe(1);
    expect(affinityPropagation(s, 3).preference).toBe(3.5);
  });

  it("rejects a damping factor outside [0.5, 1) and a matrix of the wrong size", () => {
    expect(() => affinityPropagation(new Float64Array(4), 2, { damping: 1 })).toThrow(/damping/);
    expect(() => affinityPropagation(new Float64Array(5), 2)).toThrow(/expected 4/);
  });
});

describe("Affinity Propagation on a sparse similarity graph", () => {
  it("runs the messages of separate components apart: each finds the exemplars it finds alone", () => {
    // Two groups of points, no similarity between the groups: a graph with two components.
    const a = blobs(24, 3, 21);
    const b = blobs(18, 2, 22);
    const n = 42;
    const dense = new Float64Array(n * n);
    const present: boolean[] = [];
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < n; k++) {
        const same = i < 24 === k < 24;
        present.push(same);
        if (same) dense[i * n + k] = i < 24 ? a[i * 24 + k]! : b[(i - 24) * 18 + (k - 24)]!;
      }
    }
    const graph = denseToGraph(dense, n, present);
    const preference = -50;
    const together = sparseAffinityPropagation(graph, { preference });
    const alone = [affinityPropagation(a, 24, { preference }), affinityPropagation(b, 18, { preference })];
    expect(together.converged).toBe(true);
    expect(together.exemplars).toEqual([...alone[0]!.exemplars, ...alone[1]!.exemplars.map((e) => e + 24)]);
    expect(Array.from(together.labels)).toEqual([...alone[0]!.labels, ...Array.from(alone[1]!.labels, (l) => l + 24)]);
  });

  it("makes a point without any similarity its own exemplar, and leaves the others as they were", () => {
    const s = blobs(20, 2, 5);
    const n = 21; // point 20 relates to nothing
    const dense = new Float64Array(n * n);
    const present: boolean[] = [];
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < n; k++) {
        present.push(i === k || (i < 20 && k < 20));
        if (i < 20 && k < 20) dense[i * n + k] = s[i * 20 + k]!;
      }
    }
    const preference = resolvePreference(s, 20, "median");
    const r = sparseAffinityPropagation(denseToGraph(dense, n, present), { preference });
    expect(r.labels[20]).toBe(20);
    expect(Array.from(r.labels.subarray(0, 20))).toEqual(Array.from(affinityPropagation(s, 20, { preference }).labels));
  });

  it("counts the pairs a graph leaves out as similarity 0 when it takes the median or the minimum", () => {
    for (const prefix of ["bing-kumolife", "sogou-ti-gong"]) {
      const index = indexTagPaths(fixturePage(prefix).seq);
      const occ = index.occurrences.filter((o) => o.length >= 2);
      const dense = similarityMatrix(occ);
      const graph = similarityGraph(occ);
      for (const p of ["median", "min"] as const) expect(resolveGraphPreference(graph, p)).toBe(resolvePreference(dense, occ.length, p));
    }
  });

  it("clusters the real tag paths of result pages in well under the dense algorithm's iterations", () => {
    const index = indexTagPaths(fixturePage("360-site-chaxun").seq);
    const occ = index.occurrences.filter((o) => o.length >= 2);
    const r = sparseAffinityPropagation(graphWithTieBreakNoise(similarityGraph(occ)));
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeLessThan(AP_DEFAULTS.maxIterations);
    expect(r.exemplars.length).toBeGreaterThan(1);
  });
});

/** A graph holding the entries of `dense` marked present (row-major). */
function denseToGraph(dense: Float64Array, n: number, present: boolean[]) {
  const rowStart = new Int32Array(n + 1);
  const cols: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      if (!present[i * n + k]) continue;
      cols.push(k);
      values.push(dense[i * n + k]!);
    }
    rowStart[i + 1] = cols.length;
  }
  return { n, rowStart, cols: Int32Array.from(cols), values: Float64Array.from(values) };
}
