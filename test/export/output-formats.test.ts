import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { formatPairs, type OutputPair } from "../../src/export/index.js";
import { toTsv } from "../../src/export/formats.js";
import { EN_JA, EN_ZH } from "../../src/text/index.js";

const pairs: OutputPair[] = [
  { a: 'Good morning! <b> & "quotes"', b: "早上好！", score: 0.9, method: "seed", sourceUrls: ["https://a.example/1"] },
  {
    a: "Line one\nline two\tand a tab",
    b: "第一行\n第二行",
    score: 0.5,
    method: "wrapper",
    sourceUrls: ["https://a.example/1", "https://b.example/2"],
  },
  { a: "Unscored", b: "未评分", score: null, method: "seed", sourceUrls: [] },
];

describe("output formats", () => {
  it("TSV has the header source_url en zh score method and one line per pair", () => {
    const lines = toTsv(pairs, EN_ZH).trimEnd().split("\n");
    expect(lines[0]).toBe("source_url\ten\tzh\tscore\tmethod");
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((l) => l.split("\t").length === 5)).toBe(true);
    expect(lines[2]).toBe("https://a.example/1 https://b.example/2\tLine one line two and a tab\t第一行 第二行\t0.5\twrapper");
  });

  it("TMX 1.4 parses as XML, with xml:lang on each variant and the score as a prop", () => {
    const [file] = formatPairs(pairs, EN_ZH, "tmx");
    expect(file!.suffix).toBe(".tmx");
    const doc = new JSDOM(file!.content, { contentType: "application/xml" }).window.document;
    expect(doc.documentElement.getAttribute("version")).toBe("1.4");
    const tus = [...doc.getElementsByTagName("tu")];
    expect(tus).toHaveLength(3);
    const tuvs = [...tus[0]!.getElementsByTagName("tuv")];
    expect(tuvs.map((t) => t.getAttribute("xml:lang"))).toEqual(["en", "zh"]);
    expect(tuvs[0]!.textContent).toBe('Good morning! <b> & "quotes"');
    const props = [...tus[1]!.getElementsByTagName("prop")].map((p) => `${p.getAttribute("type")}=${p.textContent}`);
    expect(props).toEqual(["x-score=0.5", "x-method=wrapper", "x-source-url=https://a.example/1", "x-source-url=https://b.example/2"]);
  });

  it("Moses writes two line-aligned files with equal line counts", () => {
    const files = formatPairs(pairs, EN_ZH, "moses");
    expect(files.map((f) => f.suffix)).toEqual([".en", ".zh"]);
    const counts = files.map((f) => f.content.split("\n").length);
    expect(counts[0]).toBe(pairs.length + 1);
    expect(counts[1]).toBe(counts[0]);
    expect(files[1]!.content.split("\n")[1]).toBe("第一行 第二行");
  });

  it("JSONL has one object per line with the texts under their language codes and the provenance", () => {
    const [file] = formatPairs(pairs, EN_JA, "jsonl");
    const objs = file!.content
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objs[0]).toEqual({ en: pairs[0]!.a, ja: "早上好！", score: 0.9, source_url: "https://a.example/1", method: "seed" });
    expect(objs[1]!["source_urls"]).toEqual(["https://a.example/1", "https://b.example/2"]);
    expect(objs[2]!["source_url"]).toBeNull();
  });
});
