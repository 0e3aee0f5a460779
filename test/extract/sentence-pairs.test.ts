import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractFromHtml } from "../../src/extract/index.js";
import { splitIntoSentencePairs, splitSentences } from "../../src/extract/index.js";
import type { SentencePair } from "../../src/extract/index.js";
import { EN_ZH } from "../../src/text/index.js";
import { fixture, TATOEBA } from "./helpers.js";

const pair = (a: string, b: string): SentencePair => ({ langs: EN_ZH, a, b, score: 0.9, method: "seed", sourceUrl: "p.html" });

describe("splitting paragraph pairs into sentence pairs", () => {
  it("cuts sentences, keeping titles and opening quotes where they belong", () => {
    expect(splitSentences("Mr. Smith went to the U.S. in 1990. He left.", "en")).toEqual([
      "Mr. Smith went to the U.S. in 1990.",
      "He left.",
    ]);
    expect(splitSentences("你呢？“他说：好。”然后走了。", "zh")).toEqual(["你呢？", "“他说：好。”", "然后走了。"]);
  });

  it("recovers the sentence pairs of paragraphs made of Tatoeba pairs", () => {
    const rows = readFileSync(TATOEBA, "utf8")
      .split("\n")
      .map((l) => l.split("\t"))
      .filter((r) => r.length >= 2 && r[0]!.length > 25);
    let correct = 0;
    let total = 0;
    for (let k = 0; k + 27 < rows.length && total < 400; k += 37) {
      const group = [rows[k]!, rows[k + 9]!, rows[k + 18]!, rows[k + 27]!];
      if (group.some((r) => splitSentences(r[0]!, "en").length !== 1 || splitSentences(r[1]!, "zh").length !== 1)) continue;
      const out = splitIntoSentencePairs(pair(group.map((r) => r[0]).join(" "), group.map((r) => r[1]).join("")));
      total += 4;
      correct += out.filter((p, i) => p.a === group[i]![0] && p.b === group[i]![1]).length;
    }
    expect(total).toBe(400);
    expect(correct / total).toBeGreaterThan(0.9);
  });

  it("keeps a pair whole when one side has a sentence the other lacks, or only one sentence", () => {
    const whole = pair("I like apples. They are red. My sister likes pears and grapes very much.", "我喜欢苹果。");
    expect(splitIntoSentencePairs(whole)).toEqual([whole]);
  });

  it("splits the real Animal Farm paragraphs and keeps score and source", () => {
    const { pairs } = extractFromHtml(fixture("animal-farm-bilingual.html"), "af.html");
    const split = pairs.flatMap(splitIntoSentencePairs);
    expect(split.length).toBeGreaterThan(40);
    expect(split).toContainEqual(
      expect.objectContaining({
        a: "Only one of these had any ideological motive.",
        b: "其中只有一家出版商有任何意识形态动机。",
        sourceUrl: "af.html",
      }),
    );
  });
});
