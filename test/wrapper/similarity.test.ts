import { describe, expect, it } from "vitest";
import { indexTagPaths } from "../../src/html/index.js";
import {
  closeness,
  interleaving,
  interleavingSegments,
  pathSimilarity,
  similarityGraph,
  similarityMatrix,
} from "../../src/wrapper/index.js";
import { fixturePage } from "../helpers/serps.js";

// feng2010 Figure 3: P1 and P3 as positions; merged they read 3 1 3 3 1 3 1.
const P1 = [1, 4, 6];
const P3 = [0, 2, 3, 5];

describe("closeness and interleaving (feng2010 Equations 1–2)", () => {
  it("reproduces the seed's Figure 3: D_{O1/O3} = {1,1,1}, D_{O3/O1} = {1,2,1}", () => {
    const { aByB, bByA } = interleavingSegments(P1, P3);
    expect(aByB).toEqual([1, 1, 1]);
    expect(bByA).toEqual([1, 2, 1]);
  });

  it("merges consecutive separators and ignores empty regions", () => {
    // a: 0 1 | b: 2 3 4 | a: 5 | b: 6 — the three b's in a row are one separator, no empty region counted
    expect(interleavingSegments([0, 1, 5], [2, 3, 4, 6])).toEqual({ aByB: [2, 1], bByA: [3, 1] });
  });

  it("μ is the larger population variance of the two segment lists", () => {
    expect(interleaving(P1, P3)).toBeCloseTo(2 / 9, 12);
    // perfectly regular alternation: both variances 0
    expect(interleaving([0, 2, 4, 6], [1, 3, 5, 7])).toBe(0);
  });

  it("c is the distance between average positions", () => {
    expect(closeness(P1, P3)).toBeCloseTo(11 / 3 - 10 / 4, 12);
    expect(closeness([227], [215])).toBe(12); // the seed's P11/P15 example distance
  });

  it("σ = ε / (c·μ + ε) with ε = 10", () => {
    const expected = 10 / ((11 / 3 - 10 / 4) * (2 / 9) + 10);
    expect(pathSimilarity(P1, P3)).toBeCloseTo(expected, 12);
    expect(pathSimilarity([0, 2, 4, 6], [1, 3, 5, 7])).toBe(1);
  });

  it("paths that never interleave get σ = 0, unless the seed is read literally", () => {
    const before = [0, 1, 2];
    const after = [10, 11, 12];
    expect(pathSimilarity(before, after)).toBe(0);
    // literally, one-element D's have variance 0, so μ = 0 and σ = 1 with anything (notes/measured.md point 1)
    expect(pathSimilarity(before, after, 10, { literal: true })).toBe(1);
    expect(pathSimilarity([7], P3, 10, { literal: true })).toBe(1);
    expect(interleavingSegments([2, 3], [3, 4])).toEqual({ aByB: [2], bByA: [2] }); // equal positions cannot hang the walk
  });

  it("builds a symmetric matrix with a unit diagonal", () => {
    const m = similarityMatrix([P1, P3, [7, 8]]);
    expect(Array.from(m.subarray(0, 3))).toEqual([1, pathSimilarity(P1, P3), pathSimilarity(P1, [7, 8])]);
    expect(m[1 * 3 + 0]).toBe(m[0 * 3 + 1]);
    expect(m[4]).toBe(1);
  });

  it("keeps exactly the pairs with σ > 0 in the sparse graph, with the same values to the bit", () => {
    for (const prefix of ["bing-kumolife", "google-conflict", "yahoo-bc-gov"]) {
      const index = indexTagPaths(fixturePage(prefix).seq);
      const occ = index.occurrences.filter((o) => o.length >= 2);
      const n = occ.length;
      const dense = similarityMatrix(occ);
      const graph = similarityGraph(occ);
      const fromGraph = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        const cols = Array.from(graph.cols.subarray(graph.rowStart[i]!, graph.rowStart[i + 1]!));
        expect(cols).toEqual([...cols].sort((x, y) => x - y)); // rows sorted, diagonal included
        expect(cols).toContain(i);
        for (let e = graph.rowStart[i]!; e < graph.rowStart[i + 1]!; e++) fromGraph[i * n + graph.cols[e]!] = graph.values[e]!;
      }
      expect(fromGraph).toEqual(dense);
      // sparse indeed: most pairs of paths on a result page never interleave
      expect(graph.cols.length).toBeLessThan(0.4 * n * n);
    }
  });
});
