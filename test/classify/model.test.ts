import { parallelText } from "../../src/language-pair.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Annotation,
  createClassifier,
  loadClassifier,
  type ModelFile,
  parseAnnotations,
  readModelFile,
  trainClassifier,
  writeModelFile,
} from "../../src/classify/index.js";
import { UserError } from "../../src/errors.js";

const fixture = new URL("../fixtures/classify/annotations-sample.jsonl", import.meta.url).pathname;
const annotations = parseAnnotations(fixture, readFileSync(fixture, "utf8"));
const dir = mkdtempSync(join(tmpdir(), "bitext-classify-"));
// A small grid keeps the test fast; the search itself is the same code as `bitext train`.
const grid = { C: [2, 32], gamma: [0.5, 8] };

describe("training, saving and loading a classifier", () => {
  const train = annotations.filter((_, i) => i % 4 !== 0);
  const test = annotations.filter((_, i) => i % 4 === 0);
  let model: ModelFile;
  const path = join(dir, "model.json");

  beforeAll(() => {
    model = trainClassifier(train, { file: "annotations-sample.jsonl", sha256: "x" }, { grid, folds: 3 });
    writeModelFile(path, model);
  });

  it("records the feature set, scaling, C, γ, CV figures and training set in the model", () => {
    expect(model.features.names).toHaveLength(17);
    expect(model.features.version).toBe("bitext-17/1");
    expect(model.scaling.min).toHaveLength(17);
    expect(grid.C).toContain(model.svm.C);
    expect(grid.gamma).toContain(model.svm.gamma);
    expect(model.cv.grid).toHaveLength(4);
    expect(model.cv.folds).toBe(3);
    expect(model.training.size).toBe(train.length);
    expect(model.training.positives + model.training.negatives).toBe(train.length);
    expect(model.lexicon).toContain("cc-cedict");
  });

  it("predicts identically after save and load", () => {
    const inMemory = createClassifier(path, model).classify(test);
    const loaded = loadClassifier(path).classify(test);
    expect(loaded).toEqual(inMemory);
    expect(readModelFile(path)).toEqual(model);
  });

  it("classifies held-out annotations well and orders probabilities sensibly", () => {
    const predictions = loadClassifier(path).classify(test);
    const correct = predictions.filter((p, i) => p.label === test[i]!.label).length;
    expect(correct / test.length).toBeGreaterThan(0.85);
    for (const p of predictions) {
      expect(p.probability).toBeGreaterThanOrEqual(0);
      expect(p.probability).toBeLessThanOrEqual(1);
      expect(p.label).toBe(p.probability >= 0.5 ? "bilingual" : "monolingual");
    }
  });

  it("applies a different threshold when asked", () => {
    const strict = loadClassifier(path, { threshold: 0.99 }).classify(test);
    const loose = loadClassifier(path, { threshold: 0.01 }).classify(test);
    const count = (ps: typeof strict) => ps.filter((p) => p.label === "bilingual").length;
    expect(count(strict)).toBeLessThan(count(loose));
  });

  it("refuses to train without both labels", () => {
    const onlyPositive = annotations.filter((a) => a.label === "bilingual");
    expect(() => trainClassifier(onlyPositive, { file: "x", sha256: "x" }, { grid })).toThrow(
      /need at least 5 bilingual and 5 monolingual/,
    );
  });
});

describe("the shipped model", () => {
  it("loads from models/default.json and tells the seed's example from a monolingual snippet", () => {
    const classifier = loadClassifier();
    expect(classifier.modelId).toMatch(/^default@[0-9a-f]{12}$/);
    const [seed, bilingual, monolingual] = classifier.classify([
      { query: parallelText("I quit!", "我不干了!"), title: "", url: "", snippet: "I see. 我明白了。 I quit! 我不干了!" },
      { query: parallelText("I quit!", "我不干了!"), title: "", url: "", snippet: "I understand. 我明白了。 I quit! 我不干了!" },
      {
        query: parallelText("", "提供进口气枪"),
        title: "枪贩网售高压<em>气枪</em> 贩枪网络涉及20个省区市-中新网",
        url: "http://example.com/",
        snippet:
          "2013年8月2日-昨日，记者从旺苍县公安局获悉，旺苍县公安局通过一起网购高压气枪案件，成功破获了一桩涉及全国 20 个省市的制造、销售枪械的团伙犯罪案件。",
      },
    ]);
    expect(bilingual!.label).toBe("bilingual");
    expect(monolingual!.label).toBe("monolingual");
    // The seed's own example holds no dictionary evidence (明白 is "understand", not "see"; 不干 is not "quit"): a model
    // that rejects snippets whose two languages are not translations of each other (bitext-15/1 on) is unsure of it;
    // it still ranks it far above the monolingual record.
    expect(seed!.probability).toBeGreaterThan(100 * monolingual!.probability);
  });
});

describe("broken model files", () => {
  const good = readFileSync(new URL("../../models/default.json", import.meta.url), "utf8");
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const expectUserError = (path: string, message: RegExp) => {
    let err: unknown;
    try {
      loadClassifier(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain("\n");
  };

  it("names a missing file", () => {
    expectUserError(join(dir, "nope.json"), /nope\.json: model file not found/);
  });

  it("names a truncated file", () => {
    expectUserError(write("truncated.json", good.slice(0, good.length / 2)), /truncated\.json: not valid JSON .*corrupt/);
  });

  it("names a file whose SVM lost support vectors", () => {
    const m = JSON.parse(good) as ModelFile;
    m.svm.libsvm = m.svm.libsvm.split("\n").slice(0, -5).join("\n");
    expectUserError(write("cut-svm.json", JSON.stringify(m)), /cut-svm\.json: svm\.libsvm: expected \d+ support vectors, found \d+/);
  });

  it("names a model trained on another feature set", () => {
    const m = JSON.parse(good) as ModelFile;
    m.features.version = "feng2010-6/0";
    expectUserError(write("old.json", JSON.stringify(m)), /old\.json: features: trained on feature set feng2010-6\/0/);
  });

  it("names a file that is not a model", () => {
    expectUserError(write("other.json", JSON.stringify({ hello: "world" })), /other\.json: format: expected "bitext-classifier"/);
    const m = JSON.parse(good) as ModelFile;
    (m.scaling as { min: unknown }).min = [1, 2];
    expectUserError(write("scaling.json", JSON.stringify(m)), /scaling\.json: scaling\.min: expected 17 finite numbers/);
  });
});

describe("annotation files", () => {
  it("applies undo lines and later relabels, and rejects bad lines with file and line", () => {
    const rec = { query: { en: "a", zh: "乙" }, title: "t", url: "u", snippet: "s" };
    const lines = [
      { ...rec, label: "bilingual" },
      { ...rec, snippet: "other", label: "monolingual" },
      { ...rec, undo: true },
      { ...rec, snippet: "other", label: "bilingual" },
    ].map((l) => JSON.stringify(l));
    const parsed: Annotation[] = parseAnnotations("a.jsonl", lines.join("\n"));
    expect(parsed.map((a) => [a.snippet, a.label])).toEqual([["other", "bilingual"]]);
    expect(() => parseAnnotations("a.jsonl", `${lines[0]}\n{"query":{"en":"x"},"snippet":"y","label":"maybe"}`)).toThrow(
      /^a\.jsonl:2: label: expected "bilingual" or "monolingual"$/,
    );
    expect(() => parseAnnotations("a.jsonl", "{nope")).toThrow(/^a\.jsonl:1: not valid JSON$/);
    expect(() => parseAnnotations("a.jsonl", '{"query":{"en":1},"snippet":"y","label":"bilingual"}')).toThrow(
      /^a\.jsonl:1: query\.en: expected a string$/,
    );
  });
});
