import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateRecords, matchTitles, normaliseTitle } from "../../src/wrapper/index.js";
import { readPageTagPaths } from "../../src/html/index.js";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { renderDiv, renderDiv2023 } from "../../src/sim/layouts/div.js";
import type { SerpView } from "../../src/sim/layouts/types.js";
import { extractRecords, MIN_TEMPLATE_MATCH } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { LAYOUT_THRESHOLD } from "../../src/wrapper/index.js";
import { recordTemplate, shorterHeadingTail, withinShift } from "../../src/wrapper/template.js";
import type { ExtractResult, Wrapper } from "../../src/wrapper/index.js";
import { REAL_DATA } from "../helpers/cli.js";

/**
 * Applying a wrapper learned on one real result page to another (development pages of ../shared/data/serps,
 * none of the held-out ones): the same layout must be read, another engine's or another decade's refused.
 */

const SERPS = join(REAL_DATA, "serps");

interface Page {
  engine: string;
  file: string;
  seq: ReturnType<typeof readPageTagPaths>["seq"];
  titles: string[];
}

const cache = new Map<string, Page>();

/** A page of a data set by file name, decoded with its manifest charset, with its expected titles. */
function page(set: string, engine: string, name: string): Page {
  const key = `${set}/${engine}/${name}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const manifest = JSON.parse(readFileSync(join(SERPS, set, "manifest.json"), "utf8")) as Array<{
    file: string;
    charset?: string;
    expected?: string;
  }>;
  const row = manifest.find((m) => m.file === `${name}.html` || m.file === `${engine}/${name}.html`);
  if (!row) throw new Error(`${key}: not in the manifest`);
  const html = join(SERPS, set, engine, `${name}.html`);
  const expected = JSON.parse(readFileSync(html.replace(/\.html$/, ".expected.json"), "utf8")) as {
    results: Array<{ title: string | null }>;
  };
  const p = {
    engine,
    file: name,
    seq: readPageTagPaths(html, row.charset ? { charset: row.charset } : {}).seq,
    titles: expected.results.map((r) => r.title ?? "").filter(Boolean),
  };
  cache.set(key, p);
  return p;
}

const wrappers = new Map<Page, Wrapper>();
function wrapperOf(p: Page): Wrapper {
  const hit = wrappers.get(p);
  if (hit) return hit;
  const w = learnWrapper(p.seq, { engine: p.engine });
  wrappers.set(p, w);
  return w;
}

function apply(from: Page, to: Page): ExtractResult {
  return extractRecords(wrapperOf(from), to.seq);
}

function counts(result: ExtractResult, to: Page) {
  return matchTitles(
    result.records.map((r) => normaliseTitle(r.title)),
    to.titles.map(normaliseTitle),
  );
}

describe("a wrapper applied to a later page of the same layout", () => {
  it("finds a result list that moved two levels up (Sogou, March → July 2012)", () => {
    const from = page("aql", "sogou", "sogou-eed-1-4a1-a-1332923188");
    const to = page("aql", "sogou", "sogou-j-1341637724");
    const result = apply(from, to);
    expect(result.status).toBe("ok");
    expect(counts(result, to)).toEqual({ tp: 10, fp: 0, fn: 0 });
    expect(result.records[1]!.title).toBe("美国做空机构香橼投资是怎么赚钱的_百度知道");
  });

  it("finds a result list one level shallower on a page of another source, same year (Google 2022)", () => {
    const from = page("modern", "google", "parsy-google-test-de");
    const to = page("modern", "google", "kokoc-google-2022-03-31-1");
    const result = apply(from, to);
    expect(result.status).toBe("ok");
    const c = counts(result, to);
    expect(c.fp).toBe(0);
    expect(c.tp).toBeGreaterThanOrEqual(79); // of 95; the 16 others are missed by the self-learned wrapper too
  });

  it("does not refuse pages of the same engine and period, and says how well they match", () => {
    const pairs: Array<[Page, Page]> = [
      [page("aql", "bing", "bing-sweden-riots-1618569435"), page("aql", "bing", "bing-connecticut-covid-deaths-1628019384")],
      [page("aql-more", "brave", "brave-unremovable-1650484694"), page("aql-more", "brave", "brave-tina-daunt-1652776164")],
      [page("aql", "google", "google-conflict-middle-east-wikipedia-1636797028"), page("modern", "google", "kokoc-google-2022-06-16")],
      [page("aql-more", "yahoo", "yahoo-gabel-970409689"), page("aql-more", "yahoo", "yahoo-gender-discrimination-970694307")],
    ];
    for (const [from, to] of pairs) {
      const result = apply(from, to);
      const what = `${from.file} → ${to.file}`;
      expect(result.status, what).toBe("ok");
      const c = counts(result, to);
      expect(c.tp / to.titles.length, what).toBeGreaterThanOrEqual(0.9);
      expect(c.fp, what).toBeLessThanOrEqual(1);
      expect(result.match!.template!, what).toBeGreaterThanOrEqual(MIN_TEMPLATE_MATCH);
    }
  });
});

describe("a redesign that wraps the title in new boxes (the simulator's div layout → its 2023 redesign)", () => {
  const view = (query: string): SerpView => ({
    query,
    page: 1,
    perPage: 10,
    total: 100,
    results: Array.from({ length: 10 }, (_, i) => ({
      titleHtml: `Result ${i + 1} about <em>${query}</em>`,
      href: `https://site${i + 1}.example/${query}`,
      displayUrl: `site${i + 1}.example/${query}`,
      snippetHtml: `What site ${i + 1} says about ${query}, long enough to be a snippet.`,
      date: "2023-05-01",
    })),
    ads: [],
    related: ["green tea", "black tea"],
    pageHref: (n) => `/s?wd=${query}&pn=${n}`,
    searchHref: (q) => `/s?wd=${q}`,
  });

  it("is read with the learned root: its title recognised at its heading, wherever it sits", () => {
    const wrapper = learnWrapper(tagPathsFromHtml(renderDiv(view("tea"))), { engine: "sim-div" });
    const result = extractRecords(wrapper, tagPathsFromHtml(renderDiv2023(view("coffee"))));
    expect(result.status).toBe("ok");
    expect(result.records.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Result ${i + 1} about coffee`));
    expect(result.match!.template!).toBeGreaterThanOrEqual(MIN_TEMPLATE_MATCH);
  });
});

describe("the layout-mismatch check", () => {
  it("refuses every page of another engine, with no records", () => {
    const pages = [
      page("aql", "bing", "bing-sweden-riots-1618569435"),
      page("aql", "baidu", "baidu-e-eeeae-1558963051"),
      page("aql-more", "brave", "brave-unremovable-1650484694"),
      page("aql-more", "google", "google-la-pipa-1635023533"),
      page("aql-more", "ask", "ask-batman-movie-1467834503"),
      page("aql-more", "yahoo", "yahoo-gabel-970409689"),
    ];
    for (const from of pages) {
      for (const to of pages) {
        if (from === to) continue;
        const result = apply(from, to);
        expect(result.status, `${from.file} → ${to.file}`).toBe("mismatch");
        expect(result.records).toEqual([]);
        expect(result.match!.layout).toBeLessThan(LAYOUT_THRESHOLD[wrapperOf(from).layout.kind]);
      }
    }
  });

  it("refuses pages of the same engine more than ten years apart", () => {
    const pairs: Array<[Page, Page]> = [
      [
        page("aql-more", "yahoo", "yahoo-gabel-970409689"),
        page("aql-more", "yahoo", "yahoo-ganze-filme-online-schauen-kostenlos-und-in-voller-lange-1376615487"),
      ],
      [
        page("aql-more", "yahoo", "yahoo-full-speed-1011203807"),
        page("aql-more", "yahoo", "yahoo-games-puzzles-brain-teasers-sudoku-1574052323"),
      ],
      [page("aql-more", "ask", "ask-smirnoff-label-1173377085"), page("aql-more", "ask", "ask-big-tex-trailer-for-sale-1649774735")],
    ];
    for (const [a, b] of pairs) {
      for (const [from, to] of [
        [a, b],
        [b, a],
      ] as const) {
        const result = apply(from, to);
        expect(result.status, `${from.file} → ${to.file}`).toBe("mismatch");
        expect(result.records).toEqual([]);
      }
    }
  });

  it("refuses records unlike the wrapper's template on a page whose layout is close enough (Google 2019 → 2020)", () => {
    const from = page("aql-more", "google", "google-flop-thumbs-up-1568839345");
    const to = page("modern", "google", "kokoc-google-2020-11-27");
    const result = apply(from, to);
    expect(result.match!.layout).toBeGreaterThanOrEqual(LAYOUT_THRESHOLD.classes);
    expect(result.status).toBe("mismatch");
    expect(result.match!.template!).toBeLessThan(MIN_TEMPLATE_MATCH);
    expect(result.detail).toMatch(/template matches the wrapper's 0\.\d\d, under 0\.2/);
  });

  it("reads a page of the same layout without results as empty, not as a mismatch", () => {
    const row = (i: number) =>
      `<li><h3><a href="https://site${i}.example/">Result ${i} about tea</a></h3><p>Snippet ${i} on green tea, long enough.</p></li>`;
    const shell = (list: string) =>
      `<html><head><title>tea - Search</title></head><body><div class="top"><form class="box"></form></div><ol class="res">${list}</ol><div class="foot"></div></body></html>`;
    const wrapper = learnWrapper(tagPathsFromHtml(shell([1, 2, 3, 4, 5].map(row).join(""))), { engine: "toy" });
    expect(extractRecords(wrapper, tagPathsFromHtml(shell(""))).status).toBe("empty");
  });
});

describe("record templates", () => {
  it("are the cluster's member paths relative to the record root, with the title path", () => {
    const cluster = {
      ancestorPath: "html\\body\\ol\\li",
      paths: ["html\\body\\ol\\li\\h3\\a", "html\\body\\ol\\li\\p\\#text", "html\\body\\ol"],
      sampleRecords: 5,
      titlePath: "h3\\a",
      score: 5,
      role: "results" as const,
    };
    expect(recordTemplate(cluster).sort()).toEqual(["h3\\a", "p\\#text"]);
    expect(shorterHeadingTail("div\\h2\\a")).toBe("h2\\a");
    expect(shorterHeadingTail("h2\\a")).toBeNull();
    expect(shorterHeadingTail("div\\a")).toBeNull();
  });

  it("let a root move by inserted or deleted tags only", () => {
    const tags = (p: string) => p.split("\\");
    expect(withinShift(tags("html\\body\\div\\div\\ol\\li"), tags("html\\body\\div\\ol\\li"), 2)).toBe(true);
    expect(withinShift(tags("html\\body\\div\\ol\\li"), tags("html\\body\\main\\div\\section\\ol\\li"), 2)).toBe(true);
    expect(withinShift(tags("html\\body\\div\\ol\\li"), tags("html\\body\\main\\div\\section\\div\\ol\\li"), 2)).toBe(false);
    expect(withinShift(tags("html\\body\\div\\main\\ol\\li"), tags("html\\body\\div\\aside\\ol\\li"), 2)).toBe(true); // a substitution is one deletion + one insertion
    expect(withinShift(tags("html\\body\\div\\main\\ol\\li"), tags("html\\body\\div\\aside\\ol\\li\\div\\ul\\li"), 2)).toBe(false);
  });
});

describe("eval records --folds engine", () => {
  it("reads each engine's pages with every other engine's wrappers, all refused", () => {
    const pages = [
      page("aql", "bing", "bing-sweden-riots-1618569435"),
      page("aql", "bing", "bing-connecticut-covid-deaths-1628019384"),
      page("aql", "baidu", "baidu-e-eeeae-1558963051"),
    ].map((p) => ({ file: p.file, engine: p.engine, seq: p.seq, titles: p.titles }));
    const report = evaluateRecords(pages, { folds: "engine" });
    const bing = report.engines.find((e) => e.engine === "bing")!;
    expect(bing.foreign).toEqual({ pairs: 2, mismatch: 2, empty: 0, records: 0, matched: 0 });
    expect(report.engines.find((e) => e.engine === "baidu")!.foreign).toEqual({ pairs: 2, mismatch: 2, empty: 0, records: 0, matched: 0 });
    expect(bing.cross.pairs).toBe(2);
    expect(bing.cross.match.recall).toBeGreaterThanOrEqual(0.95);
  });
});
