import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EN_ZH_LENGTH, estimateLengthModel } from "../../src/extract/index.js";
import { lengthChars, lengthDelta, lengthProbability, normalCdf } from "../../src/extract/length-model.js";
import { TATOEBA } from "./helpers.js";

const rows = readFileSync(TATOEBA, "utf8")
  .split("\n")
  .map((l) => l.split("\t"))
  .filter((r) => r.length >= 2);
const lengths = rows.map((r) => [lengthChars(r[1]!), lengthChars(r[0]!)] as const);

describe("the Gale-Church length model, estimated from Tatoeba", () => {
  it("ships the figures that the Tatoeba dev set gives", () => {
    const m = estimateLengthModel(lengths, "tatoeba");
    expect(m.c).toBeCloseTo(EN_ZH_LENGTH.c, 2);
    expect(m.s2).toBeCloseTo(EN_ZH_LENGTH.s2, 2);
    expect(m.b).toBeCloseTo(EN_ZH_LENGTH.b, 3);
  });

  it("gives Gale-Church's own s² without the quadratic term (the figure beside the seed's 0.426)", () => {
    const gc = estimateLengthModel(lengths, "tatoeba", { quadratic: false });
    expect(gc.b).toBe(0);
    expect(gc.c).toBeCloseTo(2.804, 2);
    expect(gc.s2).toBeCloseTo(4.368, 2);
  });

  it("accepts true pairs and rejects a sentence paired with a much longer one", () => {
    const deltas = lengths.map(([l1, l2]) => Math.abs(lengthDelta(l1, l2, EN_ZH_LENGTH)));
    const within = deltas.filter((d) => d <= 2.5).length / deltas.length;
    expect(within).toBeGreaterThan(0.95);
    // "月光真美。" against a 60-letter English sentence.
    expect(Math.abs(lengthDelta(4, 60, EN_ZH_LENGTH))).toBeGreaterThan(5);
  });

  it("counts letters and digits of any script, not spaces or punctuation", () => {
    expect(lengthChars("Hello, world!")).toBe(10);
    expect(lengthChars("你好，世界！")).toBe(4);
    expect(lengthChars("はじめまして。")).toBe(6);
  });

  it("turns δ into a two-tailed probability", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 3);
    expect(lengthProbability(0)).toBeCloseTo(1, 6);
    expect(lengthProbability(1.96)).toBeCloseTo(0.05, 3);
  });

  it("refuses to estimate from nothing", () => {
    expect(() => estimateLengthModel([], "empty")).toThrow(/no pairs/);
  });
});
