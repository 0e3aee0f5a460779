import { describe, expect, it } from "vitest";
import { loadScorer, makeNegatives, NEGATIVE_KINDS } from "../../src/quality/index.js";
import { seededRandom } from "../../src/random.js";
import { EN_ZH, loadLexicon } from "../../src/text/index.js";
import { fixturePairs } from "./fixture-pairs.js";

/*
 * The shipped model (models/quality-en-zh.json) on real pairs it was not trained on: Tatoeba lines the lexicon
 * and the model left out, and Rust glossary terms (a source the model was trained with, so this is a floor on
 * behaviour, not an accuracy claim; the accuracy figures come from `bitext eval quality`, folds by source).
 */
const read = (name: string) => fixturePairs(`quality/${name}`);

describe("the pair scorer with the shipped model", () => {
  const scorer = loadScorer(EN_ZH);
  const tatoeba = read("tatoeba-heldout.tsv");
  const terms = read("rust-glossary.pairs.tsv");
  // The dictionary and the segmenter load on first use: here, not inside the first test's time limit (a loaded
  // machine running several test files took over a minute).
  scorer.score("Hello.", "你好。");

  it("gives every pair a score in [0, 1], keep, and reasons that are empty exactly when kept", () => {
    for (const p of [...tatoeba, ...terms]) {
      const v = scorer.score(p.a, p.b);
      expect(v.score).toBeGreaterThanOrEqual(0);
      expect(v.score).toBeLessThanOrEqual(1);
      expect(v.keep).toBe(v.reasons.length === 0);
    }
  });

  it("keeps most real sentence pairs and rejects nearly every misaligned, shuffled, cut or one-language pair", () => {
    const keep = tatoeba.filter((p) => scorer.score(p.a, p.b).keep).length / tatoeba.length;
    const negatives = makeNegatives(tatoeba, EN_ZH, loadLexicon(EN_ZH), seededRandom(11)).filter((n) => n.kind !== "gloss");
    const passed = negatives.filter((n) => scorer.score(n.a, n.b).keep);
    const precision = (keep * tatoeba.length) / (keep * tatoeba.length + passed.length);
    expect(keep).toBeGreaterThan(0.6);
    expect(precision).toBeGreaterThan(0.97);
    expect(new Set(negatives.map((n) => n.kind))).toEqual(new Set(NEGATIVE_KINDS.filter((k) => k !== "gloss")));
  });

  it("scores a real pair above its misaligned neighbour", () => {
    let better = 0;
    for (let i = 0; i + 1 < tatoeba.length; i++) {
      const p = tatoeba[i]!;
      if (scorer.score(p.a, p.b).score > scorer.score(p.a, tatoeba[i + 1]!.b).score) better++;
    }
    expect(better / (tatoeba.length - 1)).toBeGreaterThan(0.95);
  });

  it("finds a dictionary word inside a longer Chinese word (handbag = 提包, inside 手提包)", () => {
    // 手提包 is a segmenter word whose own glosses lack "handbag"; "handbag" looked up in English finds 提包.
    expect(scorer.score("Is this your handbag?", "这是你的手提包吗?").score).toBeGreaterThan(0.5);
    expect(scorer.score("Is this your handbag?", "这是我的雨伞吗?").score).toBeLessThan(0.5);
  });

  it("rejects navigation and title boilerplate whatever the score", () => {
    for (const [a, b] of [
      ["Home", "首页"],
      ["Next page", "下一页"],
      ["Read more", "閱讀更多"],
      ["Copyright © 2023 Example Ltd. All rights reserved.", "版权所有 © 2023 Example Ltd."],
    ] as const) {
      expect(scorer.score(a, b).reasons).toContain("boilerplate");
    }
  });

  it("scores 0 a pair a hard rule rejects (the model learned only from pairs the rules let through)", () => {
    for (const [a, b, reason] of [
      ["Home", "首页", "boilerplate"],
      ["I have 3 cats.", "我有4只猫。", "number_mismatch"],
      ["Good morning!", "Good morning!", "wrong_language"],
    ] as const) {
      expect(scorer.score(a, b)).toMatchObject({ score: 0, keep: false, reasons: expect.arrayContaining([reason]) });
    }
    expect(scorer.score("I have 3 cats.", "我有3只猫。").score).toBeGreaterThan(0.5);
  });

  it("keeps the threshold given instead of the model's", () => {
    const lenient = loadScorer(EN_ZH, { threshold: 0.01 });
    expect(lenient.threshold).toBe(0.01);
    const p = terms.find((t) => !scorer.score(t.a, t.b).keep && scorer.score(t.a, t.b).reasons.join() === "low_score");
    if (p) expect(lenient.score(p.a, p.b).keep).toBe(true);
    expect(scorer.threshold).toBeGreaterThan(0.01);
  });
});
