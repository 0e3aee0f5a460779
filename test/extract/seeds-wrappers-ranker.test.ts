import { describe, expect, it } from "vitest";
import { pageSnippets } from "../../src/extract/index.js";
import { randomWalkWithRestart } from "../../src/extract/rank.js";
import { isSeed, kanjiOverlapScore, PairScorer } from "../../src/extract/seeds.js";
import type { Snippet } from "../../src/extract/index.js";
import type { SnippetPair } from "../../src/extract/types.js";
import { adjacentPairs, wrappersOf } from "../../src/extract/wrappers.js";
import { DEFAULT_EXTRACT_OPTIONS } from "../../src/extract/index.js";
import { bestMatching } from "../../src/extract/extract.js";
import { parseTree as parseDocument } from "../../src/extract/index.js";
import { contentTokens, EN_JA, EN_ZH } from "../../src/text/index.js";
import { fixture } from "./helpers.js";

const snippet = (text: string, lang: string): Snippet => ({ index: 0, lang, text, lead: "", trail: "", block: 0, gapBefore: [] });
const pairOf = (en: string, zh: string): SnippetPair => ({ first: snippet(en, "en"), second: snippet(zh, "zh") });
const thresholds = DEFAULT_EXTRACT_OPTIONS.seeds;

describe("the seed extractor (length model + word overlap)", () => {
  const scorer = new PairScorer(EN_ZH);

  it("takes a translation as a seed", () => {
    const e = scorer.evidence(pairOf("Good morning! How are you today?", "早上好！你今天好吗？"));
    expect(isSeed(e, thresholds)).toBe(true);
  });

  it("rejects a heading next to a sentence it does not translate", () => {
    const e = scorer.evidence(pairOf("I'm great actually-thanks for asking!", "而如果是其他人问你，那么我们可以这样来回答："));
    expect(isSeed(e, thresholds)).toBe(false);
  });

  it("needs dictionary evidence, not only a shared number", () => {
    const e = scorer.evidence(pairOf("Download all MP3", "网友评论（3）"));
    expect(e.overlap).toBeGreaterThanOrEqual(thresholds.minOverlap);
    expect(e.lexicalOverlap).toBe(0);
    expect(isSeed(e, thresholds)).toBe(false);
  });

  it("scores Japanese through the kanji of its words (CC-CEDICT), and kana alone scores nothing", () => {
    const en = contentTokens("The meeting has been postponed until next week.", "en");
    const withKanji = kanjiOverlapScore(contentTokens("会議は来週に延期されました。", "ja"), en, "en");
    const kanaOnly = kanjiOverlapScore(contentTokens("はじめまして。", "ja"), contentTokens("Nice to meet you.", "en"), "en");
    expect(withKanji).toBeGreaterThan(0.15);
    expect(kanaOnly).toBe(0);
    const ja = new PairScorer(EN_JA).evidence({ first: snippet("I am a student.", "en"), second: snippet("私は学生です。", "ja") });
    expect(isSeed(ja, thresholds)).toBe(true);
  });
});

describe("the wrapper constructor (feng2011 Table II)", () => {
  const { snippets, trailingGap } = pageSnippets(parseDocument(fixture("feng2011-figure3.html")), {
    pair: EN_ZH,
    segmentation: "html",
  });
  const pairs = adjacentPairs(snippets);
  const rightContext = (p: SnippetPair) => snippets[p.second.index + 1]?.gapBefore ?? trailingGap;
  const find = (en: string) => pairs.find((p) => p.first.text.startsWith(en) && p.second.lang === "zh")!;

  it("learns S1's surface template and HTML style: <div.langs_en>[E]</div><div.langs_cn>[C]</div>", () => {
    const s1 = find("Really good");
    const w = wrappersOf(s1, rightContext(s1), true).find((x) => x.l.length === 1)!;
    expect(w.template).toBe("[en][zh]");
    expect(w.l).toEqual(["<div.langs_en>"]);
    expect(w.m).toEqual(["</div>", "<div.langs_cn>"]);
    expect(w.r).toEqual(["</div>"]);
  });

  it("extracts I'm alright… and Can't complain! with S1's wrapper, but not the <p> pair", () => {
    const keys = new Set(wrappersOf(find("Really good"), rightContext(find("Really good")), true).map((w) => w.key));
    const matches = (p: SnippetPair) => wrappersOf(p, rightContext(p), true).some((w) => keys.has(w.key));
    expect(matches(find("I'm alright"))).toBe(true);
    expect(matches(find("Can't complain"))).toBe(true);
    expect(matches(find("I'm great"))).toBe(false);
  });

  it("without HTML styles a wrapper is only the surface template", () => {
    const s1 = find("Really good");
    expect(wrappersOf(s1, rightContext(s1), false)).toEqual([{ key: "[en][zh]", template: "[en][zh]", l: [], m: [], r: [] }]);
  });
});

describe("Random Walk with Restart", () => {
  it("is a probability distribution that favours nodes reached from more restart nodes", () => {
    // 0, 1: restart nodes (seeds); 2 is reached from both, 3 from seed 1 only.
    const edges = [
      { from: 0, to: 2, weight: 1 },
      { from: 1, to: 2, weight: 1 },
      { from: 1, to: 3, weight: 1 },
      { from: 2, to: 0, weight: 1 },
      { from: 3, to: 1, weight: 1 },
    ];
    const r = randomWalkWithRestart(5, edges, [0, 1]);
    expect(r.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(r[2]!).toBeGreaterThan(r[3]!);
    expect(r[4]).toBe(0); // unreachable
  });

  it("sends the mass of dead ends back to the restart set, and ignores self-loops", () => {
    const r = randomWalkWithRestart(
      2,
      [
        { from: 0, to: 1, weight: 1 },
        { from: 1, to: 1, weight: 5 },
      ],
      [0],
      { restart: 0.5 },
    );
    // π0 = 0.5 + 0.5·π1 (dead end), π1 = 0.5·π0 → π0 = 2/3, π1 = 1/3.
    expect(r[0]).toBeCloseTo(2 / 3, 6);
    expect(r[1]).toBeCloseTo(1 / 3, 6);
  });

  it("gives nothing without restart nodes", () => {
    expect([...randomWalkWithRestart(3, [], [])]).toEqual([0, 0, 0]);
  });
});

describe("choosing pairs when candidates share a snippet", () => {
  const chain = [0, 1, 2, 3].map((i) => ({ ...snippet(`s${i}`, i % 2 ? "zh" : "en"), index: i }));
  const cand = (i: number, w: number) => ({ pair: { first: chain[i]!, second: chain[i + 1]! }, w });

  it("prefers the n row pairs of E C E C … to the n − 1 pairs across rows when they weigh alike", () => {
    const picked = bestMatching([cand(0, 1), cand(1, 1.2), cand(2, 1)], (c) => c.w);
    expect(picked.map((c) => c.pair.first.index)).toEqual([0, 2]);
  });

  it("takes the heavier of two overlapping pairs", () => {
    expect(bestMatching([cand(0, 1), cand(1, 3)], (c) => c.w).map((c) => c.pair.first.index)).toEqual([1]);
  });
});
