import { describe, expect, it } from "vitest";
import { termAlternatives } from "../../src/quality/alternatives.js";
import { pairFeatures } from "../../src/quality/features.js";
import { FEATURE_NAMES, loadScorer, qualityModelPath, readQualityModel } from "../../src/quality/index.js";
import { readSide } from "../../src/quality/sides.js";
import { EN_ZH, loadLexicon } from "../../src/text/index.js";
import { fixturePairs } from "./fixture-pairs.js";

/** Real glossary rows (every 4th gold pair of the Rust glossary). */
const terms = fixturePairs("quality/rust-glossary.pairs.tsv");

describe("a side listing a term's alternatives", () => {
  const lex = loadLexicon(EN_ZH);
  const len = readQualityModel(qualityModelPath(EN_ZH)).lengthRatio;
  const features = (a: string, b: string) => pairFeatures(readSide(a, "en", EN_ZH), readSide(b, "zh", EN_ZH), EN_ZH, lex, len);

  it("is split at list separators opposite a single term; a sentence with commas is not a list", () => {
    expect(termAlternatives("参数，实参，实际参数", "zh", "argument", "en")).toEqual(["参数", "实参", "实际参数"]);
    expect(termAlternatives("destructor, dtor", "en", "析构函数", "zh")).toEqual(["destructor", "dtor"]);
    // A part without a letter is no alternative ("brace" / 大括号,“{”或“}” keeps the word).
    expect(termAlternatives("星号,*", "zh", "asterisk", "en")).toBeNull();
    expect(termAlternatives("Yes, I know.", "en", "是的，我知道。", "zh")).toBeNull();
    expect(termAlternatives("浅拷贝，浅复制", "zh", "shallow copy, deep copy", "en")).toBeNull(); // both sides are lists
  });

  it("reads as its best alternative: the features of the real glossary row are those of one of its parts", () => {
    const row = terms.find((t) => t.a === "argument")!;
    const whole = features(row.a, row.b);
    const parts = termAlternatives(row.b, "zh", row.a, "en")!.map((alt) => features(row.a, alt));
    expect(parts).toContainEqual(whole);
    const covA = FEATURE_NAMES.indexOf("cov_a");
    const covB = FEATURE_NAMES.indexOf("cov_b");
    expect(whole[covA]! + whole[covB]!).toBe(Math.max(...parts.map((f) => f[covA]! + f[covB]!)));
  });

  it("the shipped scorer keeps most glossary rows that list alternatives, and not a list paired with another term", () => {
    const scorer = loadScorer(EN_ZH);
    const lists = terms.filter((t) => termAlternatives(t.b, "zh", t.a, "en"));
    expect(lists.length).toBeGreaterThan(15);
    const kept = lists.filter((t) => scorer.score(t.a, t.b).keep).length;
    expect(kept / lists.length).toBeGreaterThan(0.6);
    // Each row's list paired with the next row's term: a misalignment, whatever the parts.
    const shifted = lists.map((t, i) => ({ a: lists[(i + 1) % lists.length]!.a, b: t.b }));
    const passed = shifted.filter((t) => scorer.score(t.a, t.b).keep).length;
    expect(passed / shifted.length).toBeLessThan(0.1);
  });
});
