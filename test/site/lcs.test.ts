import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lcsLength, lcsLengthDp, pageFeatures, structuralSimilarity } from "../../src/site/index.js";
import { REAL_DATA } from "../helpers/cli.js";

const NACOS = `${REAL_DATA}/sites/nacos-astro/site/`;

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a / 4294967296;
  };
}

describe("comparing page structures with the bit-parallel LCS", () => {
  it("equals the textbook dynamic programme on random sequences across word boundaries", () => {
    const r = rng(42);
    for (const [la, lb, alphabet] of [
      [1, 1, 2],
      [31, 33, 3],
      [32, 32, 4],
      [64, 65, 5],
      [100, 37, 8],
      [257, 300, 12],
      [500, 480, 40],
    ] as const) {
      for (let t = 0; t < 5; t++) {
        const a = Array.from({ length: la }, () => Math.floor(r() * alphabet));
        const b = Array.from({ length: lb }, () => Math.floor(r() * alphabet));
        expect(lcsLength(a, b)).toBe(lcsLengthDp(a, b));
        expect(lcsLength(Uint16Array.from(b), Uint16Array.from(a))).toBe(lcsLengthDp(a, b));
      }
    }
    expect(lcsLength([], [1, 2])).toBe(0);
    expect(lcsLength([1, 2, 3], [1, 2, 3])).toBe(3);
  });

  it("scores a real translated page pair above an unrelated page of the other language", () => {
    // One id space for the three pages.
    const all = ["en/docs/latest/auth/index.html", "docs/latest/auth/index.html", "docs/latest/guide/user/sdk/index.html"].map(
      (f) => pageFeatures(readFileSync(NACOS + f, "utf8"), "http://x/").tags,
    );
    const ids = new Map<string, number>();
    const idOf = (n: string) => {
      if (!ids.has(n)) ids.set(n, ids.size);
      return ids.get(n)!;
    };
    const [en, zh, other] = all.map((names) => names.map(idOf));
    const same = structuralSimilarity(en!, zh!);
    const different = structuralSimilarity(en!, other!);
    expect(same).toBeGreaterThan(0.95);
    expect(different).toBeLessThan(same - 0.1);
    expect(lcsLength(en!, zh!)).toBe(lcsLengthDp(en!, zh!));
  });
});
