import { describe, expect, it } from "vitest";
import { monotoneAlignment } from "../../src/classify/sentence-alignment.js";

describe("the monotone sentence alignment", () => {
  it("follows the evidence along the diagonal and measures it against the other cells", () => {
    // Three Chinese sentences against three English ones, each translated by the one in the same place.
    const { aligned, gain } = monotoneAlignment([0.6, 0.1, 0, 0.1, 0.5, 0.1, 0, 0.1, 0.7], 3, 3);
    expect(aligned).toBeCloseTo(0.6, 10);
    expect(gain).toBeCloseTo(0.6 - 0.4 / 6, 10);
  });

  it("gains nothing when a topic spreads the evidence evenly over every pair of sentences", () => {
    const { aligned, gain } = monotoneAlignment([0.3, 0.3, 0.3, 0.3], 2, 2);
    expect(aligned).toBeCloseTo(0.3, 10);
    expect(gain).toBeCloseTo(0, 10);
  });

  it("starts at the first sentences, may skip one side's sentence, and stops where the evidence ends", () => {
    // The second English sentence has no counterpart; the third Chinese sentence is cut off by the engine.
    const { aligned } = monotoneAlignment([0.5, 0, 0, 0, 0, 0.6, 0, 0, 0], 3, 3);
    expect(aligned).toBeCloseTo((0.5 + 0 + 0.6) / 3, 10);
  });

  it("is 0 without sentences", () => {
    expect(monotoneAlignment([], 0, 3)).toEqual({ aligned: 0, gain: 0 });
  });
});
