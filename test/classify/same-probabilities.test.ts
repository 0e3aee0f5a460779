/**
 * The feature computation may be rewritten for speed, never changed in meaning: on a fixed set of real
 * snippets, features and probabilities of the feng2010-6 model equal those recorded before the rewrite. A change
 * of meaning (the tokeniser's, 2026-11-27) re-records the records it moves, named in test/fixtures/README.md.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ClassifierInput, loadClassifier, parseClassifierInput, recordFeatures } from "../../src/classify/index.js";
import { loadLexicon } from "../../src/text/index.js";

interface Recorded extends ClassifierInput {
  source: string;
  features: number[];
  probability: number;
}

const file = new URL("../fixtures/classify/probabilities-feng2010-6.jsonl", import.meta.url);
const recorded = readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l, i) => parseClassifierInput({ file: file.pathname, line: i + 1 }, JSON.parse(l)) as unknown as Recorded); // the file's {en, zh} query → source/target
const modelPath = new URL("../fixtures/classify/model-feng2010-6.json", import.meta.url).pathname;

describe("features and probabilities as recorded before the speed rewrite", () => {
  it("has real result snippets and composed bootstrap records in the set", () => {
    expect(recorded.length).toBeGreaterThan(800);
    expect(recorded.filter((r) => r.source.startsWith("serps/")).length).toBeGreaterThan(500);
  });

  it("computes the same six features", () => {
    const lex = loadLexicon();
    const diffs = recorded.flatMap((r) => {
      const f = recordFeatures(r, lex).slice(0, 6);
      return f.some((v, j) => Math.abs(v - r.features[j]!) > 1e-9) ? [{ source: r.source, now: f, recorded: r.features }] : [];
    });
    expect(diffs).toEqual([]);
  });

  it("gives the same probabilities with the feng2010-6 model", () => {
    const predictions = loadClassifier(modelPath).classify(recorded);
    const diffs = recorded.flatMap((r, i) => {
      const p = predictions[i]!.probability;
      return Math.abs(p - r.probability) > 1e-9 ? [{ source: r.source, now: p, recorded: r.probability }] : [];
    });
    expect(diffs).toEqual([]);
  });
});
