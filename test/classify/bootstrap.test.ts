import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildBootstrapSet } from "../../src/classify/index.js";
import { repeatedHighlight } from "../../src/classify/bootstrap.js";
import { readBilingualPage, readHeldOutPairs, readRealBilingualPages, readSerpRecords } from "../../src/classify/index.js";
import { isMojibake } from "../../src/classify/bootstrap-sources.js";
import { EN_ZH, langShares } from "../../src/text/index.js";

const serps = new URL("../fixtures/classify/serps", import.meta.url).pathname;
const page = new URL("../fixtures/extract/animal-farm-bilingual.html", import.meta.url).pathname;
const tatoeba = new URL("../fixtures/text/tatoeba-sample.tsv", import.meta.url).pathname;

describe("building the bootstrap annotation set from real data", () => {
  it("reads real result records, skipping mojibake", () => {
    const records = readSerpRecords(serps);
    const byPage = (name: string) => records.filter((r) => r.source.includes(name));
    expect(byPage("bing-sweden-riots")).toHaveLength(10);
    expect(byPage("bing-sweden-riots").every((r) => r.lang === "en" && r.query === "Sweden Riots")).toBe(true);
    expect(byPage("sogou-ti-gong").every((r) => r.lang === "zh")).toBe(true);
    // The Baidu capture was decoded with the wrong charset: its query and 9 of its 10 records are mojibake.
    const baidu = byPage("baidu-mao-ning");
    expect(baidu).toHaveLength(1);
    expect(baidu[0]!.query).toBe("");
    const garbled = JSON.parse(
      readFileSync(`${serps}/baidu/baidu-mao-ning-kui-mao-dan-dan-mang-long-lou-mang-lu-shikato-1537858258.expected.json`, "utf8"),
    ) as { results: Array<{ snippet: string }> };
    expect(isMojibake(garbled.results[0]!.snippet)).toBe(true);
    expect(isMojibake("枪贩网售高压气枪 贩枪网络涉及20个省区市")).toBe(false);
    expect(records.every((r) => /#rank\d+$/.test(r.source))).toBe(true);
  });

  it("pairs the sentences of a real bilingual page", () => {
    const { title, pairs } = readBilingualPage(page);
    expect(title).toBe("The Freedom of the Press");
    expect(pairs[0]!.en).toMatch(/^This book was first thought of/);
    expect(pairs[0]!.zh).toMatch(/^这本书的中心思想最早是于1937年构思而成的/);
    // (One translation keeps an English word: "俄罗斯方面 Criticizes 支持…", so not every sentence is pure.)
    for (const p of pairs) {
      expect(langShares(p.en, EN_ZH).en).toBeGreaterThan(0.9);
      expect(langShares(p.zh, EN_ZH).zh).toBeGreaterThan(0.6);
    }
  });

  it("takes only the held-out lines of a parallel file, with their Tatoeba ids", () => {
    const pairs = readHeldOutPairs(tatoeba, 10);
    expect(pairs).toHaveLength(20);
    expect(pairs[0]!.source).toMatch(/^tatoeba-sample\.tsv:10 \(tatoeba\.org #\d+ & #\d+\)$/);
  });

  it("composes labelled examples that each name their source, reproducibly", () => {
    const inputs = {
      serp: readSerpRecords(serps),
      parallel: readHeldOutPairs(tatoeba, 2),
      page: readBilingualPage(page).pairs,
      pageTitle: "The Freedom of the Press",
    };
    const set = buildBootstrapSet(inputs, { seed: 7, when: "2024-01-01T00:00:00Z", perKind: 20 });
    expect(buildBootstrapSet(inputs, { seed: 7, when: "2024-01-01T00:00:00Z", perKind: 20 })).toEqual(set);
    expect(set.every((a) => a.source && a.who === "bootstrap")).toBe(true);
    const positives = set.filter((a) => a.label === "bilingual");
    const negatives = set.filter((a) => a.label === "monolingual");
    expect(positives.length).toBeGreaterThan(100);
    expect(negatives.length).toBeGreaterThan(100);
    // Every positive shows both languages; real result records are kept unchanged as negatives.
    for (const p of positives) {
      const s = langShares(`${p.title} ${p.snippet}`, EN_ZH);
      expect(s.en).toBeGreaterThan(0.05);
      expect(s.zh).toBeGreaterThan(0.05);
    }
    const real = negatives.filter((a) => a.source!.startsWith("serp "));
    expect(real).toHaveLength(inputs.serp.length);
    expect(real[0]!.snippet).toBe(inputs.serp[0]!.snippet);
    expect(
      new Set(
        set.map((a) =>
          a
            .source!.split(/[:(]/)[0]!
            .replace(/ \S+#rank\d+$/, "")
            .trim(),
        ),
      ),
    ).toEqual(
      new Set([
        "serp",
        "composed mono-zh",
        "composed mono-en",
        "composed hard-zh-terms",
        "composed hard-en-terms",
        "composed hard-unrelated",
        "composed ecec",
        "composed cece",
        "composed title",
        "composed page",
        "composed page-mismatched",
        "real serp-highlight",
      ]),
    );
  });

  it("adds snippets of real bilingual pages as positives and mismatched ones as hard negatives, per source", () => {
    const realPages = readRealBilingualPages(new URL("../fixtures/classify/pages", import.meta.url).pathname);
    const inputs = { serp: readSerpRecords(serps), parallel: readHeldOutPairs(tatoeba, 2), page: [], realPages };
    const set = buildBootstrapSet(inputs, { seed: 7, when: "2024-01-01T00:00:00Z", perKind: 20, perSource: 12 });
    const kind = (k: string) => set.filter((a) => a.source!.startsWith(`real ${k}: `));
    const folder = (a: { source?: string }) => /: ([^/]+)\//.exec(a.source!)![1];
    for (const [k, label] of [
      ["page-snippet", "bilingual"],
      ["page-mismatched", "monolingual"],
      ["page-neighbour", "monolingual"],
    ] as const) {
      const mine = kind(k);
      expect(mine.every((a) => a.label === label)).toBe(true);
      const perFolder = new Map<string, number>();
      for (const a of mine) perFolder.set(folder(a)!, (perFolder.get(folder(a)!) ?? 0) + 1);
      // At most perSource of each source folder, spread over its pages (xlhhai has two: rivers and fathers-back).
      expect([...perFolder.keys()].sort()).toEqual(["kanblog_yykan", "pep_cn_terms", "xlhhai_translations"]);
      for (const n of perFolder.values()) expect(n).toBeLessThanOrEqual(12);
    }
    expect(kind("page-snippet").some((a) => a.source!.includes("/rivers "))).toBe(true);
    expect(kind("page-snippet").some((a) => a.source!.includes("/fathers-back "))).toBe(true);
    // Neighbours: a unit beside the translation of the next one (the closest text that is not its translation; the
    // last unit's neighbour is the first).
    expect(kind("page-neighbour").every((a) => /mismatched pair (\d+) with pair (\d+)$/.test(a.source!))).toBe(true);
    for (const a of kind("page-neighbour")) {
      const [, i, j] = /pair (\d+) with pair (\d+)$/.exec(a.source!)!;
      expect([Number(i) + 1, 1]).toContain(Number(j));
    }
  });

  it("uses real records that repeat their highlighted query as hard negatives", () => {
    expect(repeatedHighlight("<em>Sweden Riots</em>: police … <em>sweden riots</em> and <b>Stockholm</b>")).toBe("Sweden Riots");
    expect(repeatedHighlight("<em>once</em> only")).toBeUndefined();
    const set = buildBootstrapSet(
      { serp: readSerpRecords(serps), parallel: readHeldOutPairs(tatoeba, 2), page: [] },
      { seed: 7, when: "2024-01-01T00:00:00Z", perKind: 20 },
    );
    const hl = set.filter((a) => a.source!.startsWith("real serp-highlight: "));
    expect(hl.length).toBeGreaterThan(0);
    for (const a of hl) {
      expect(a.label).toBe("monolingual");
      const q = a.query.source.text || a.query.target.text;
      const html = `${a.title} ${a.snippet}`.toLowerCase();
      expect(html.split(q.toLowerCase()).length - 1).toBeGreaterThanOrEqual(2);
    }
  });
});
