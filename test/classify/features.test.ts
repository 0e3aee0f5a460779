import { parallelText } from "../../src/language-pair.js";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyseRecord, cleanText, prepareRecordText, stripHighlights } from "../../src/classify/index.js";
import { MAX_SNIPPET_CHARS } from "../../src/classify/preprocess.js";
import { loadLexicon } from "../../src/text/index.js";

const lex = loadLexicon();
const record = (snippet: string, query = parallelText("", ""), title = "") => ({ query, title, url: "", snippet });

interface SerpPage {
  query: string;
  results: Array<{ rank: number; title: string; snippet: string; url: string }>;
}
const sogou = JSON.parse(
  readFileSync(
    new URL("../fixtures/classify/serps/sogou/sogou-ti-gong-jin-kou-qi-qiang-1647324224.expected.json", import.meta.url),
    "utf8",
  ),
) as SerpPage;
const bing = JSON.parse(
  readFileSync(new URL("../fixtures/classify/serps/bing/bing-sweden-riots-1618569435.expected.json", import.meta.url), "utf8"),
) as SerpPage;

describe("snippet preprocessing", () => {
  it("strips highlights, dates, ellipses and URLs, folds widths, simplifies and expands contractions", () => {
    expect(cleanText("2018年4月25日 - <em>阿里</em>通讯注册即送100分钟话费...国内长途低至6分")).toBe(
      "阿里通讯注册即送100分钟话费 国内长途低至6分",
    );
    expect(cleanText("Mar 3, 2020 · I&#39;m here… see https://example.com/x or en.wikipedia.org 我們在這裡")).toBe(
      "I am here see or 我们在这里",
    );
    expect(cleanText("３ days ago － ＡＢＣ，ｄｏｎ＇ｔ")).toBe("ABC,do not");
  });

  it("drops a trailing site name from titles", () => {
    expect(prepareRecordText({ title: "<em>Sweden riots</em> - Wikipedia", snippet: "" }).title).toBe("Sweden riots");
    expect(prepareRecordText({ title: "枪贩网售高压气枪_百度文库", snippet: "" }).title).toBe("枪贩网售高压气枪");
    expect(prepareRecordText({ title: "Python教程 - CSDN", snippet: "" }).title).toBe("Python教程");
    // A bilingual title is not a title with a site name.
    expect(prepareRecordText({ title: "我不干了 - I quit", snippet: "" }).title).toBe("我不干了 - I quit");
  });

  it("reads a record's snippet only up to a snippet's length: a whole page as a snippet is cut, not tokenised", () => {
    const real = bing.results[0]!;
    const page = `${real.snippet} `.repeat(Math.ceil(3_000_000 / real.snippet.length)); // 3 MB of text
    const huge = analyseRecord(record(page, parallelText("sweden riots", ""), real.title), lex);
    const cut = analyseRecord(record(page.slice(0, MAX_SNIPPET_CHARS), parallelText("sweden riots", ""), real.title), lex);
    expect(huge.features).toEqual(cut.features);
    expect(huge.text.length).toBeLessThan(MAX_SNIPPET_CHARS + real.title.length + 10);
  });

  it("keeps non-highlight markup visible for display", () => {
    expect(stripHighlights("a <em>b</em> &lt;c&gt; <script>x</script>")).toBe("a b <c> <script>x</script>");
  });
});

describe("the six features on hand-checked snippets", () => {
  it("computes the seed's example: I see. 我明白了。 I quit! 我不干了!", () => {
    const a = analyseRecord(record("I see. 我明白了。 I quit! 我不干了!", parallelText("I quit!", "我不干了!")), lex);
    expect(a.languageString).toBe("ECEC");
    expect(a.segments.map((s) => s.text)).toEqual(["I see.", "我明白了。", "I quit!", "我不干了!"]);
    expect(a.segments.map((s) => s.tokens)).toEqual([
      ["i", "see"],
      ["我", "明白", "了"],
      ["i", "quit"],
      ["我", "不", "干", "了"],
    ]);
    // Eq. 3 for C1 = 我明白了 with E1 = I see: 我↔i = 1 (CC-CEDICT "I; me; my"), 明白, 了 unmatched → 1 / (3 + 2).
    // C2 = 我不干了 with E2 = I quit: 我↔i = 1 → 1 / (4 + 2); the right neighbour of C2 is null (0).
    expect(a.pairs).toEqual([
      { segment: 1, partner: 0, score: 1 / 5 },
      { segment: 3, partner: 2, score: 1 / 6 },
    ]);
    const f = a.features;
    expect(f.wordOverlap).toBeCloseTo((1 / 5 + 1 / 6) / (2 * 2)); // Eq. 4: Σ InV / (n·m), n = m = 2
    expect(f.pairShare).toBe(1); // m / n
    expect(f.pairedLength).toBe(1); // Eq. 5: (2 + 3 + 2 + 4) / 11
    expect(f.stringLength).toBe(4);
    expect(f.segmentLengthVariance).toBeCloseTo(0.6875); // lengths 2, 3, 2, 4: mean 2.75
    expect(f.queryFrequency).toBe(2); // "i quit" once, "我不干了" once
  });

  it("gives a real monolingual Chinese result record no word overlap", () => {
    const r = sogou.results.find((x) => x.rank === 4)!;
    const a = analyseRecord({ query: parallelText("", sogou.query), title: r.title, url: r.url, snippet: r.snippet }, lex);
    expect(a.languageString).toBe("C");
    expect(a.features.wordOverlap).toBe(0);
    expect(a.features.pairShare).toBe(0);
    expect(a.features.pairedLength).toBe(0);
    expect(a.features.stringLength).toBe(1);
    expect(a.features.segmentLengthVariance).toBe(0);
  });

  it("counts the query in title and snippet, English case-insensitively", () => {
    const features = (rank: number) => {
      const r = bing.results.find((x) => x.rank === rank)!;
      return analyseRecord({ query: parallelText(bing.query, ""), title: r.title, url: r.url, snippet: r.snippet }, lex);
    };
    // Rank 1: "<em>Sweden riots</em>: What triggered …" holds the query "Sweden Riots" once (title).
    expect(features(1).languageString).toBe("E");
    expect(features(1).features.queryFrequency).toBe(1);
    // Rank 2: "Sweden: Riots in Malmo" is not the query as a phrase.
    expect(features(2).features.queryFrequency).toBe(0);
    // Both sides of a parallel query, the English one twice.
    const both = analyseRecord(record("I quit! 我不干了! ... i QUIT!", parallelText("I quit!", "我不干了!"), "我不干了 - I quit"), lex);
    expect(both.features.queryFrequency).toBe(5); // title: 我不干了, i quit; snippet: i quit ×2, 我不干了
  });

  it("scores a translated pair next to an untranslated one", () => {
    // ECE: the only even segment, 汤姆是老师, translates its left neighbour, not its right one.
    const a = analyseRecord(record("Tom is a teacher. 汤姆是老师。 The weather is nice today."), lex);
    expect(a.languageString).toBe("ECE");
    expect(a.pairs).toHaveLength(1);
    expect(a.pairs[0]!.partner).toBe(0);
    // 汤姆↔tom and 老师↔teacher = 1; 是↔is = 1 too: "is" is lemmatised to "be", CC-CEDICT's 是 "to be" → 3 / (3 + 4)
    expect(a.pairs[0]!.score).toBeCloseTo(3 / 7);
    expect(a.features.wordOverlap).toBeCloseTo(3 / 7); // n = m = 1
    // Eq. 5: (4 + 3) / (4 + 3 + 5)
    expect(a.features.pairedLength).toBeCloseTo(7 / 12);
  });
});
