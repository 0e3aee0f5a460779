import { describe, expect, it } from "vitest";
import { predictBoosted, trainBoosted } from "../../src/quality/boosting.js";
import { trainLogistic, predictLogistic } from "../../src/quality/logistic.js";
import { seededRandom } from "../../src/random.js";

/*
 * The mechanism of the boosted trees, on generated points (what it learns, not how well it scores pairs: that is
 * measured on the real pairs with folds by source, docs/corpus-quality.md).
 */

/** Points in the unit square, labelled 1 where exactly one coordinate is above 0.5 (an interaction no line draws). */
function xor(n: number, seed: number) {
  const random = seededRandom(seed);
  const samples: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = [random(), random()];
    samples.push(x);
    labels.push(x[0]! > 0.5 !== x[1]! > 0.5 ? 1 : 0);
  }
  return { samples, labels };
}

const accuracy = (predict: (x: number[]) => number, data: ReturnType<typeof xor>) =>
  data.samples.filter((x, i) => (predict(x) >= 0.5 ? 1 : 0) === data.labels[i]).length / data.samples.length;

describe("boosted regression trees", () => {
  it("learn an interaction of two features that a logistic regression cannot draw", () => {
    const train = xor(2000, 1);
    const test = xor(1000, 2);
    const trees = trainBoosted(train.samples, train.labels);
    const line = trainLogistic(train.samples, train.labels);
    expect(accuracy((x) => predictBoosted(trees, x), test)).toBeGreaterThan(0.95);
    expect(accuracy((x) => predictLogistic(line, x), test)).toBeLessThan(0.7);
  });

  it("are the same when trained twice on the same data (no randomness)", () => {
    const { samples, labels } = xor(500, 3);
    expect(trainBoosted(samples, labels, { rounds: 10 })).toEqual(trainBoosted(samples, labels, { rounds: 10 }));
  });

  it("start from the weighted share of positives, and leave a node unsplit that cannot give both sides minLeaf samples", () => {
    const { samples, labels } = xor(100, 4);
    const weights = labels.map((y) => (y ? 3 : 1));
    const m = trainBoosted(samples, labels, { minLeaf: 60, sampleWeights: weights });
    expect(m.trees.every((t) => t.feature.length === 1 && t.feature[0] === -1)).toBe(true);
    const positives = labels.filter((y) => y).length;
    const share = (3 * positives) / (3 * positives + (labels.length - positives));
    expect(1 / (1 + Math.exp(-m.bias))).toBeCloseTo(share, 9);
    // Single leaves move every sample the same way: towards the share it starts from, already the best constant.
    expect(predictBoosted(m, [0.1, 0.9])).toBeCloseTo(share, 6);
  });

  it("split at a threshold between two values seen, sending a sample at most the threshold left", () => {
    const samples = [...Array.from({ length: 100 }, () => [0]), ...Array.from({ length: 100 }, () => [1])];
    const labels = samples.map((x) => x[0]!);
    const m = trainBoosted(samples, labels, { rounds: 1, depth: 1, minLeaf: 10 });
    const t = m.trees[0]!;
    expect(t.feature[0]).toBe(0);
    expect(t.threshold[0]).toBe(0.5);
    expect(t.value[t.left[0]!]!).toBeLessThan(0);
    expect(t.value[t.right[0]!]!).toBeGreaterThan(0);
    expect(predictBoosted(m, [0.5])).toBeLessThan(0.5);
    expect(predictBoosted(m, [0.50001])).toBeGreaterThan(0.5);
  });
});
