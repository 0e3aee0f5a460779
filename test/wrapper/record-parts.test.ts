import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseTitle } from "../../src/wrapper/index.js";
import { readPageTagPaths } from "../../src/html/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { targetSite } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { isEngineSearchControl } from "../../src/wrapper/search-links.js";
import { REAL_DATA } from "../helpers/cli.js";

describe("parts of a record and controls in the list are not records", () => {
  it("Brave 2026: a result's sitelinks row, the video block's 'View all' and the 'search on Google' link are left out", () => {
    const base = join(REAL_DATA, "serps", "modern", "brave", "wsm-brave-javascript-tutorial");
    const { seq } = readPageTagPaths(`${base}.html`);
    const records = extractRecords(learnWrapper(seq, { engine: "brave" }), seq).records;
    // The expected titles carry the site name and the displayed URL before the title (the data README says so):
    // each must hold one record's title.
    const expected = (JSON.parse(readFileSync(`${base}.expected.json`, "utf8")) as { results: Array<{ title: string }> }).results.map((r) =>
      normaliseTitle(r.title),
    );
    const titles = records.map((r) => normaliseTitle(r.title));
    expect(expected).toHaveLength(20);
    expect(records).toHaveLength(20);
    const used = new Set<number>();
    for (const e of expected) {
      const at = titles.findIndex((t, i) => !used.has(i) && e.includes(t));
      expect(at, e).toBeGreaterThanOrEqual(0);
      used.add(at);
    }
    expect(records.filter((r) => !/^https?:\/\//.test(r.url))).toEqual([]);
    expect(records.map((r) => r.title)).not.toContain("Learn CSS");
  });

  it("Google 2021: results wrapped deeper (in a group's box, or inside another result's box) are read with the list", () => {
    const base = join(REAL_DATA, "serps", "modern", "google", "kokoc-google-2021-10-28");
    const { seq } = readPageTagPaths(`${base}.html`);
    const records = extractRecords(learnWrapper(seq, { engine: "google" }), seq).records;
    const titles = records.map((r) => r.title);
    // A box holding one result inside another's markup, and boxes grouping a few results: all at other depths.
    expect(titles).toContain("Johns Hopkins Medicine, based in Baltimore, Maryland");
    expect(titles).toContain("The Johns Hopkins University | LinkedIn");
    expect(titles).toContain("Johns Hopkins University - Forbes");
    const expected = new Set(
      (JSON.parse(readFileSync(`${base}.expected.json`, "utf8")) as { results: Array<{ title: string }> }).results.map((r) =>
        normaliseTitle(r.title),
      ),
    );
    expect(expected.size).toBe(97); // 98 results, two with one title
    expect(records.length).toBeGreaterThanOrEqual(92);
    expect(records.filter((r) => !expected.has(normaliseTitle(r.title)))).toEqual([]);
  });

  it("a relative link searching the page's query again, under a text without its words, is a control", () => {
    const q = ["javascript", "tutorial"];
    expect(isEngineSearchControl({ href: "/videos?q=javascript tutorial&source=vcluster", text: "View all" }, q)).toBe(true);
    expect(isEngineSearchControl({ href: "/search?q=javascript%20tutorial%20!g", text: "Google" }, q)).toBe(true);
    // A redirect to a result carries a URL, not a search; a title saying the query is a result's.
    expect(isEngineSearchControl({ href: "/url?q=https://example.org/javascript/tutorial&sa=U", text: "Example" }, q)).toBe(false);
    expect(isEngineSearchControl({ href: "/watch?q=javascript+tutorial&v=x1", text: "A JavaScript tutorial video" }, q)).toBe(false);
    expect(isEngineSearchControl({ href: "https://other.example/?q=javascript+tutorial", text: "Other" }, q)).toBe(false);
  });

  it("the site behind a relative redirect link", () => {
    expect(targetSite("/url?q=https://www.reuters.com/finance&sa=U")).toBe("reuters.com");
    expect(targetSite("/relative/page")).toBeNull();
  });
});
