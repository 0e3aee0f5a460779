/**
 * Structure-first extraction on real bilingual pages (../shared/data/bilingual-pages/real, development pages
 * only; the held-out pages are not read here). Each test asserts pairs of the page's own template, and what
 * stays out.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { devKey, evaluateRealPages, findRealPages } from "../../src/extract/index.js";
import { extractFromHtml } from "../../src/extract/index.js";
import { readGoldPairs } from "../../src/extract/index.js";
import { readSavedPage } from "../../src/html/index.js";
import { REAL_DATA } from "../helpers/cli.js";

const REAL = join(REAL_DATA, "bilingual-pages", "real");
const HELD_OUT = ["xlhhai_translations/winter-in-jinan.html", "rakudocs_zh_en/packages.html", "kanblog_yykan/lands-end.html"];

function pairsOf(page: string) {
  return extractFromHtml(readSavedPage(join(REAL, page)).text, page).pairs;
}

function find(pairs: ReturnType<typeof pairsOf>, en: string) {
  return pairs.filter((p) => p.a === en).map((p) => p.b);
}

describe("structure-first extraction on real pages", () => {
  it("pairs the rows of a glossary table, English cell with the first Chinese cell, notes column left out", () => {
    const pairs = pairsOf("rust_glossary/rust-glossary.html");
    expect(find(pairs, "borrowing")).toEqual(["借用"]);
    expect(find(pairs, "borrower")).toEqual(["借用者，借入者"]); // a cell is a unit: its comma does not split it
    expect(pairs.some((p) => p.a.startsWith("Tom's Obvious"))).toBe(false); // a note cell, not a pair
    expect(pairs.length).toBeGreaterThan(380);
  });

  it("pairs 3-way sibling groups (en, zh-hans, zh-hant) of a spec, headings included, pinyin and code points not English", () => {
    const pairs = pairsOf("w3c_clreq/clreq_index.html");
    expect(find(pairs, "Purpose of this document")).toEqual(["目的"]);
    expect(find(pairs, "Song")).toContain("宋体");
    expect(pairs.some((p) => /[āǎ]/u.test(p.a))).toBe(false);
    expect(pairs.some((p) => /^[0-9A-F]{4}$/u.test(p.a))).toBe(false);
  });

  it("pairs Chinese-first paragraphs of a literary translation whatever the lexicon knows, struck-out words removed", () => {
    const gold = readGoldPairs(join(REAL, "xlhhai_translations/fathers-back.pairs.tsv")).pairs;
    const pairs = pairsOf("xlhhai_translations/fathers-back.html");
    const keys = new Set(pairs.map((p) => `${devKey(p.a)}\u0000${devKey(p.b)}`));
    expect(gold.every((g) => keys.has(`${devKey(g.a)}\u0000${devKey(g.b)}`))).toBe(true);
    expect(pairs).toHaveLength(gold.length);
  });

  it("takes a bilingual title `中文<br><span>English</span>` and two-column pair blocks, not the footer's links", () => {
    const pairs = pairsOf("kanblog_yykan/sisyphus.html");
    expect(pairs[0]).toMatchObject({ a: "He Who Pushes the Stone", b: "推石頭之人" });
    expect(pairs).toHaveLength(11);
    expect(pairs.some((p) => p.a === "home" || p.b === "主頁")).toBe(false);
  });

  it("pairs 'English，中文，gloss' list items term to term, and '中文 / English' headings, not the table of contents", () => {
    const terms = pairsOf("pep_cn_terms/word-list.html");
    expect(find(terms, "Annotations")).toEqual(["注解"]);
    expect(find(terms, "augmented assignment")).toEqual(["增强赋值"]);
    const docs = pairsOf("rakudocs_zh_en/exceptions.html");
    expect(find(docs, "Typed exceptions")).toEqual(["类型化异常"]); // once: the heading, not its TOC link
    expect(find(docs, "Using exceptions in Raku")).toEqual(["Raku 中使用异常"]);
  });

  it("pairs dialogue lines inside <pre> and two-line replies, not notes that quote the English", () => {
    const pairs = pairsOf("aszswaz_dialogue/dialogue.html");
    expect(find(pairs, "Excuse me!")).toEqual(["不好意思，打扰一下！"]);
    expect(find(pairs, "My pleasure.")).toEqual(["能为您效劳是我的荣幸。"]);
    expect(pairs.some((p) => p.a === "Yes?" && p.b.includes("yes"))).toBe(false);
    expect(pairs.some((p) => p.a === "Pardon?" && p.b.startsWith("pardon"))).toBe(false);
  });

  it("scores every development source at F ≥ .90 and precision ≥ .95 (score_dev's exact match)", () => {
    const results = evaluateRealPages(findRealPages(REAL, HELD_OUT));
    expect(results.map((r) => r.source)).toContain("w3c_clreq");
    for (const r of results) {
      expect(r.f1, r.source).toBeGreaterThanOrEqual(0.9);
      expect(r.precision, r.source).toBeGreaterThanOrEqual(0.95);
    }
  });
});
