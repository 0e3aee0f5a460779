/**
 * Translation evidence in literary text (feature group T): on real literary pages (a translation student's
 * English of Zhu Ziqing and Han Shaogong; written Cantonese in Traditional characters with a free English
 * rendering), a snippet holding a unit and its translation shows more lexicon coverage than the same unit beside
 * another unit's translation; and the snippet makers lay the page out as an engine would.
 */
import { describe, expect, it } from "vitest";
import { readRealBilingualPages } from "../../src/classify/index.js";
import { analyseRecord, FEATURE_GROUPS, FEATURE_NAMES, type SnippetFeatures } from "../../src/classify/index.js";
import { mismatchedSnippets, pageSnippets } from "../../src/classify/index.js";
import { parallelText } from "../../src/language-pair.js";
import { loadLexicon, toSimplified } from "../../src/text/index.js";

const pagesDir = new URL("../fixtures/classify/pages", import.meta.url).pathname;
const pages = readRealBilingualPages(pagesDir);
const page = (source: string) => pages.find((p) => p.source === source)!;
const lex = loadLexicon();
const record = (snippet: string, title = "") => ({ query: parallelText("", ""), title, url: "", snippet });
const features = (snippet: string) => analyseRecord(record(snippet), lex).features;
const coverage = (f: SnippetFeatures) => f.charCoverage + f.wordCoverage + f.englishCoverage;

describe("lexicon coverage between a unit and its translation", () => {
  for (const source of ["xlhhai_translations/fathers-back", "kanblog_yykan/sisyphus"]) {
    it(`is higher for the translation than for another unit's, in most pairs of ${source}`, () => {
      const { pairs } = page(source);
      expect(pairs.length).toBeGreaterThanOrEqual(10);
      const shift = Math.floor(pairs.length / 2);
      let wins = 0;
      let compared = 0;
      pairs.forEach((p, i) => {
        const other = pairs[(i + shift) % pairs.length]!;
        if (p.en.length < 30 || other.en.length < 30) return; // headings and datelines
        compared++;
        if (coverage(features(`${p.zh} ${p.en}`)) > coverage(features(`${p.zh} ${other.en}`))) wins++;
      });
      expect(compared).toBeGreaterThanOrEqual(8);
      expect(wins / compared).toBeGreaterThanOrEqual(0.8);
    });
  }

  it("matches Traditional characters as their Simplified forms", () => {
    const p = page("kanblog_yykan/sisyphus").pairs.find((x) => x.zh !== toSimplified(x.zh) && x.en.length > 40)!;
    expect(p).toBeDefined();
    const traditional = features(`${p.zh} ${p.en}`);
    const simplified = features(`${toSimplified(p.zh)} ${p.en}`);
    expect(traditional.charCoverage).toBeGreaterThan(0);
    for (const name of FEATURE_GROUPS.T.map((j) => FEATURE_NAMES[j]!)) expect(traditional[name]).toBe(simplified[name]);
  });

  it("finds character-level evidence in classical Chinese beside its English (Legge's Analects 1.1)", () => {
    const f = features("学而时习之，不亦说乎？ Is it not pleasant to learn with a constant perseverance and application?");
    expect(f.charCoverage).toBeGreaterThan(0); // 学 "learn"
    expect(f.englishCoverage).toBeGreaterThan(0);
    expect(f.punctuationAlignment).toBe(0.5); // the question mark on both sides; the comma has no English counterpart
  });
});

describe("sentence lengths and punctuation", () => {
  it("aligns the punctuation classes of the halves, full-width and ASCII alike", () => {
    const f = features("他说：“我明白了！” He said: “I see!”");
    expect(f.punctuationAlignment).toBe(1);
    const g = features("他说：“我明白了！” He left the room quietly and closed the door behind him.");
    expect(g.punctuationAlignment).toBeLessThan(0.5);
  });

  it("pairs complete sentences in order and scores their length ratio", () => {
    const same = features("我明白了。你去哪儿？ I understand now. Where are you going?");
    const off = features("我明白了。你去哪儿？ I understand that the meeting was moved to the large room on the third floor. Ok?");
    expect(same.sentenceLengthFit).toBeGreaterThan(off.sentenceLengthFit);
    expect(features("我明白了 I see").sentenceLengthFit).toBe(0); // no complete sentence: nothing to pair
  });
});

describe("engine-like snippets of a real literary page", () => {
  const fathers = page("xlhhai_translations/fathers-back");

  it("reads the page's language order (Chinese paragraph first)", () => {
    expect(fathers.enFirst).toBe(false);
    expect(page("pep_cn_terms/word-table").enFirst).toBe(true);
  });

  it("mismatched snippets show both languages, never a unit beside its own translation", () => {
    const mm = mismatchedSnippets(fathers);
    expect(mm.length).toBeGreaterThanOrEqual(fathers.pairs.length - 5);
    for (const s of mm) {
      const [i, j] = /pair (\d+) with pair (\d+)/.exec(s.source)!.slice(1).map(Number) as [number, number];
      expect(Math.abs(i - j)).toBeGreaterThanOrEqual(Math.floor(fathers.pairs.length / 2) - 1);
      expect(s.snippet).toMatch(/\p{Script=Han}/u);
      expect(s.snippet).toMatch(/[A-Za-z]{3}/);
      expect(s.snippet.length).toBeLessThanOrEqual(310);
      // The query's Chinese side is shown (the engine matched it); its English translation is not.
      expect(s.snippet).toContain(s.query.target.text.slice(0, 4));
      expect(s.snippet).not.toContain(fathers.pairs[i - 1]!.en.slice(0, 30));
      // The title keeps only its part in the first fragment's language (a bilingual title is a translation).
      expect(s.title).not.toMatch(/[A-Za-z]/);
    }
  });

  it("pageSnippets and mismatchedSnippets are reproducible (seeded)", () => {
    expect(mismatchedSnippets(fathers)).toEqual(mismatchedSnippets(fathers));
    expect(pageSnippets(fathers)).toEqual(pageSnippets(fathers));
  });

  it("gives no mismatched snippet for a page of fewer than four pairs", () => {
    expect(mismatchedSnippets({ ...fathers, pairs: fathers.pairs.slice(0, 3) })).toEqual([]);
  });
});

describe("the shipped model on the literary fixture pages", () => {
  it("separates their snippets from mismatched ones", async () => {
    const { loadClassifier } = await import("../../src/classify/index.js");
    const c = loadClassifier();
    const literary = pages.filter((p) => !p.source.startsWith("pep_cn_terms"));
    const pos = c.classify(literary.flatMap((p) => pageSnippets(p)));
    const neg = c.classify(literary.flatMap((p) => mismatchedSnippets(p)));
    const mean = (xs: Array<{ probability: number }>) => xs.reduce((a, x) => a + x.probability, 0) / xs.length;
    expect(mean(pos)).toBeGreaterThan(mean(neg) + 0.5);
    expect(pos.filter((p) => p.label === "bilingual").length / pos.length).toBeGreaterThanOrEqual(0.95);
    expect(neg.filter((p) => p.label === "bilingual").length / neg.length).toBeLessThanOrEqual(0.1);
  });
});

it("reads the fixture pages as the real-data reader does", () => {
  expect(pages.map((p) => p.source).sort()).toEqual(
    ["kanblog_yykan/sisyphus", "pep_cn_terms/word-table", "xlhhai_translations/fathers-back", "xlhhai_translations/rivers"].sort(),
  );
});
