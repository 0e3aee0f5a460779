import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { createScorer, loadScorer, qualityModelPath, readQualityModel } from "../../src/quality/index.js";
import { EN_ZH } from "../../src/text/index.js";
import { fixturePairs } from "./fixture-pairs.js";

/* The pair scorer's model file: version 2 carries boosted trees beside the logistic regression; version 1 is read still. */
const dir = mkdtempSync(join(tmpdir(), "bitext-quality-model-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shipped = JSON.parse(readFileSync(qualityModelPath(EN_ZH), "utf8")) as Record<string, unknown> & {
  trees: { share: number; trees: Array<{ left: number[] }> };
};

function written(name: string, model: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(model));
  return path;
}

function refusal(path: string): UserError {
  try {
    readQualityModel(path);
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error(`${path} was read`);
}

// Real Tatoeba pairs (test/fixtures/quality/tatoeba-heldout.tsv): the first one, and its English with the second's Chinese.
const [first, second] = fixturePairs("quality/tatoeba-heldout.tsv");
const pairs: Array<[string, string]> = [
  [first!.a, first!.b],
  [first!.a, second!.b],
];

describe("the pair scorer's model file", () => {
  it("ships version 2: the trees have a share of the score", () => {
    const model = readQualityModel(qualityModelPath(EN_ZH));
    expect(model.formatVersion).toBe(2);
    expect(model.trees?.trees.length).toBeGreaterThan(0);
    expect(model.trees?.share).toBeGreaterThan(0);
  });

  it("reads a version 1 model (the logistic regression alone), which scores otherwise than with the trees", () => {
    const { trees: _, ...rest } = shipped;
    const path = written("v1.json", { ...rest, formatVersion: 1 });
    const v1 = loadScorer(EN_ZH, { modelPath: path });
    const v2 = loadScorer(EN_ZH);
    const scores = pairs.map(([a, b]) => [v1.score(a, b).score, v2.score(a, b).score]);
    for (const [s1, s2] of scores) {
      expect(s1).toBeGreaterThanOrEqual(0);
      expect(s1).toBeLessThanOrEqual(1);
      expect(s1).not.toBe(s2);
    }
    // Both put the translation above its neighbour.
    expect(scores[0]![0]!).toBeGreaterThan(scores[1]![0]!);
    expect(scores[0]![1]!).toBeGreaterThan(scores[1]![1]!);
  });

  it("refuses a version 2 model without trees, and a tree whose child is out of range, naming the field", () => {
    const { trees: _, ...rest } = shipped;
    const missing = refusal(written("no-trees.json", rest));
    expect(missing.kind).toBe("quality-model-unusable");
    expect(missing.message).toMatch(/no-trees\.json: trees: a version 2 model has them/);

    const bad = structuredClone(shipped);
    bad.trees.trees[0]!.left[0] = 0;
    const loop = refusal(written("loop.json", bad));
    expect(loop.message).toMatch(/loop\.json: trees\.trees\[0\]: node 0: child out of range/);
    expect(() => createScorer(readQualityModel(qualityModelPath(EN_ZH)), "shipped")).not.toThrow();
  });
});
