import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateRecords, matchTitles, normaliseTitle, similarTitles } from "../../src/wrapper/index.js";
import { loadGoldPages } from "../../src/wrapper/index.js";
import { readPageTagPaths } from "../../src/html/index.js";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { pageQuery } from "../../src/wrapper/index.js";
import { REAL_DATA } from "../helpers/cli.js";
import { DEV_DATA, describeDevData } from "../helpers/dev-data.js";
import { fixturePage } from "../helpers/serps.js";

/** Real pages of ../shared/data/serps/aql-more (development data, not held out). */
const AQL_MORE = join(REAL_DATA, "serps", "aql-more");
const page = (engine: string, name: string) => readPageTagPaths(join(AQL_MORE, engine, `${name}.html`)).seq;

describe("record wrappers on pages no one tuned for", () => {
  it("reads one result template at two depths, across pages (Bing 2022: li\\h2\\a beside li\\div\\h2\\a)", () => {
    const wrapper = learnWrapper(page("bing", "bing-wonder-kids-beginning-1652132287"), { engine: "bing" });
    const result = extractRecords(wrapper, page("bing", "bing-mesozoic-wikipedia-1643229373"));
    expect(result.status).toBe("ok");
    expect(result.records.map((r) => r.title)).toEqual([
      "Mesozoic - Wikipedia",
      "Appalachia (landmass) - Wikipedia",
      "Mesozoico – Wikipédia, a enciclopédia livre",
      "Starfish - Simple English Wikipedia, the free encyclopedia",
      "中生代 - Wikipedia",
    ]);
  });

  it("prefers headed results with snippets to a carousel of host names (Bing 2022)", () => {
    const seq = page("bing", "bing-wonder-kids-beginning-1652132287");
    const titles = extractRecords(learnWrapper(seq, { engine: "bing" }), seq).records.map((r) => r.title);
    expect(titles).toEqual([
      "In The Beginning (Genesis 1:1) - The Wonder Kids | Shazam",
      "In the Beginning by The Wonder Kids on Amazon Music",
      "WonderKids™ - Wesley Family Services",
      "Wonder Kids Wiki | Fandom",
    ]);
  });

  it("leaves out an ad list above the results whose titles sit at another depth (Bing 2014)", () => {
    const p = fixturePage("bing-kumolife");
    const records = extractRecords(learnWrapper(p.seq, { engine: "bing" }), p.seq).records;
    expect(records.some((r) => r.title === "Kumho Tires - Great Selection of Kumho Tires.")).toBe(false);
    const counts = matchTitles(
      records.map((r) => normaliseTitle(r.title)),
      p.expectedTitles.map(normaliseTitle),
    );
    expect(counts).toEqual({ tp: p.expectedTitles.length, fp: 0, fn: 0 });
  });

  it("drops a record labelled as an ad in any listed language", () => {
    const rows = [1, 2, 3, 4, 5, 6].map(
      (i) =>
        `<li><h3><a href="https://site${i}.example/">Result ${i} about tea</a></h3>${i === 1 ? "<span>Anzeige</span>" : ""}<p>Snippet ${i} on green tea, long enough to count.</p></li>`,
    );
    const seq = tagPathsFromHtml(`<html><head><title>tea - Search</title></head><body><ol>${rows.join("")}</ol></body></html>`);
    const titles = extractRecords(learnWrapper(seq, { engine: "toy" }), seq).records.map((r) => r.title);
    expect(titles).toEqual([2, 3, 4, 5, 6].map((i) => `Result ${i} about tea`));
  });

  it("reports a mismatch for a wrapper of the same engine ten or more years apart", () => {
    const pairs: Array<[string, string, string]> = [
      ["yahoo", "yahoo-full-speed-1011203807", "yahoo-games-video-games-developers-and-publishers-croteam-1624838167"],
      ["ask", "ask-five-phases-of-mitosis-1173539024", "ask-big-tex-trailer-for-sale-1649774735"],
    ];
    for (const [engine, a, b] of pairs) {
      for (const [from, to] of [
        [a, b],
        [b, a],
      ] as const) {
        const result = extractRecords(learnWrapper(page(engine, from), { engine }), page(engine, to));
        expect(result.status, `${from} → ${to}`).toBe("mismatch");
        expect(result.records).toEqual([]);
      }
    }
  });

  it("reads the submitted query from the page title", () => {
    expect(pageQuery(page("brave", "brave-how-tot-ell-if-tail-recurssive-1658814198"))).toBe("how tot ell if tail recurssive");
  });
});

describe("evaluating records on a data set", () => {
  it("matches titles one to one, equal or one holding ≥ 60 % of the other", () => {
    expect(similarTitles("javascripttutorial", "w3schoolsjavascripttutorial")).toBe(true); // 18 of 27
    expect(similarTitles("tutorial", "w3schoolsjavascripttutorial")).toBe(false);
    expect(matchTitles(["a1", "a1"], ["a1"])).toEqual({ tp: 1, fp: 1, fn: 0 });
    expect(normaliseTitle("<em>Ｆｕｌｌ</em>&amp; Width")).toBe("full&width");
  });
});

describeDevData("evaluating records on a whole development set", () => {
  it("loads the modern layout (manifest with <engine>/ paths and years), leaves out excluded pages, pairs pages of one year", () => {
    const dir = join(DEV_DATA, "serps", "modern");
    const all = loadGoldPages(dir);
    expect(all).toHaveLength(25);
    const pages = loadGoldPages(dir, undefined, ["modern/google/kokoc-google-2021-10-26.html", "modern/bing/celina-bing-caffeine.html"]);
    expect(pages).toHaveLength(23);
    const google2019 = pages.filter((p) => p.engine === "google" && /2019/.test(p.file));
    expect(google2019).toHaveLength(3);
    expect(google2019.every((p) => p.timeKind === "year")).toBe(true);
    const report = evaluateRecords(google2019);
    expect(report.engines[0]!.cross.pairs).toBe(6);
    expect(report.overall.self.match.recall).toBeGreaterThanOrEqual(0.95);
    expect(report.overall.cross.match.recall).toBeGreaterThanOrEqual(0.95);
  });
});
