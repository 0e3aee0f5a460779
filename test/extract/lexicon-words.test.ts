/**
 * The seed scorer's Chinese words: CC-CEDICT headwords (the lexicon's one load, no segmenter to load beside
 * it), found from Simplified text so that a Traditional page is matched against the lexicon as well as a
 * Simplified one, while the pair keeps the text as written.
 */
import { describe, expect, it } from "vitest";
import { PairScorer } from "../../src/extract/seeds.js";
import type { Snippet } from "../../src/extract/index.js";
import { extractFromHtml } from "../../src/extract/index.js";
import { cedictWords, EN_ZH } from "../../src/text/index.js";

const snippet = (index: number, lang: string, text: string): Snippet => ({
  index,
  lang,
  text,
  lead: "",
  trail: "",
  block: 0,
  gapBefore: [],
});

// One sentence written for this test, in Simplified and in Traditional characters.
const EN = "I'm going to the library to read books.";
const HANS = "我要去图书馆看书。";
const HANT = "我要去圖書館看書。";

describe("Chinese words for the seed scorer", () => {
  it("cuts a run into the fewest CC-CEDICT headwords", () => {
    expect(cedictWords("委员会昨天批准了预算")).toEqual(["委员会", "昨天", "批准", "了", "预算"]);
    expect(cedictWords("图书馆")).toEqual(["图书馆"]);
  });

  it("finds the same dictionary evidence in Traditional as in Simplified text", () => {
    const scorer = new PairScorer(EN_ZH);
    const hans = scorer.evidence({ first: snippet(0, "en", EN), second: snippet(1, "zh", HANS) });
    const hant = scorer.evidence({ first: snippet(0, "en", EN), second: snippet(1, "zh", HANT) });
    expect(hans.overlap).toBeGreaterThan(0.15);
    expect(hant.overlap).toBeCloseTo(hans.overlap, 6);
  });

  it("outputs a Traditional pair as written", () => {
    const html = `<html><body><p>${EN}</p><p>${HANT}</p></body></html>`;
    expect(extractFromHtml(html, "t.html").pairs.map((p) => [p.a, p.b])).toEqual([[EN, HANT]]);
  });
});
