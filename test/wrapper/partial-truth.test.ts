import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPageTagPaths } from "../../src/html/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { REAL_DATA } from "../helpers/cli.js";

// se-scraper's own tests assert the organic count and the first title of each of its mock pages: partial truth,
// on pages never used to develop the wrapper (Google, Bing, DuckDuckGo 2019, French market, query "test keyword").
// Not asserted: Google page 1 (9 of 10: the first result, with a row of sitelinks and a "People also search for"
// box inside its box, holds too many links to join), DuckDuckGo pages 2-3 (infinite scroll: se-scraper counts
// differently).
const DIR = join(REAL_DATA, "serps", "fixtures", "se-scraper");
const EXPECTED = JSON.parse(readFileSync(join(DIR, "expected_from_tests.json"), "utf8")) as Record<
  string,
  Record<string, { organic_count: number; first_title: string }>
>;

function selfLearned(engine: string, file: string) {
  const { seq } = readPageTagPaths(join(DIR, engine, file));
  return extractRecords(learnWrapper(seq, { engine }), seq).records;
}

describe("se-scraper's assertions on its mock result pages", () => {
  for (const [engine, file] of [
    ["bing", "test_keyword_page1.html"],
    ["bing", "test_keyword_page2.html"],
    ["duckduckgo", "test_keyword_page1.html"],
    ["google", "test_keyword_page2.html"],
    ["google", "test_keyword_page3.html"],
  ] as const) {
    it(`${engine} ${file}: the organic count and the first title`, () => {
      const expected = EXPECTED[engine]![file]!;
      const records = selfLearned(engine, file);
      expect(records).toHaveLength(expected.organic_count);
      expect(records[0]!.title).toBe(expected.first_title);
    });
  }

  it("Bing: results in another language, whose title sits one box deeper beside a 'Translate this page' link, are read", () => {
    const titles = selfLearned("bing", "test_keyword_page1.html").map((r) => r.title);
    expect(titles).toContain("Keyword Tool Est La Meilleure Alternative A Google …");
    expect(titles).toContain("Outil d'Analyse de Site et Test SEO");
    expect(selfLearned("bing", "test_keyword_page3.html").length).toBeGreaterThanOrEqual(9); // of 10
  });
});
