import oracle from "affinity-propagation";
import { describe, expect, it } from "vitest";
import { indexTagPaths } from "../../src/html/tagpaths.js";
import { seededRandom } from "../../src/random.js";
import { affinityPropagation, resolvePreference, withTieBreakNoise } from "../../src/wrapper/ap.js";
import { similarityMatrix } from "../../src/wrapper/similarity.js";
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
  const theirs = oracle.getClusters(Array.from(s), { preference, ...(damping ? { damping } : {}) });
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
    for (const [n, k, seed] of [[20, 2, 1], [40, 4, 2], [60, 5, 3], [35, 7, 4]] as const) compare(blobs(n, k, seed), n);
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
