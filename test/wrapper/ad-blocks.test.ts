import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseTitle } from "../../src/wrapper/index.js";
import { readPageTagPaths } from "../../src/html/index.js";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { REAL_DATA } from "../helpers/cli.js";

const MODERN_GOOGLE = join(REAL_DATA, "serps", "modern", "google");

function selfLearned(name: string) {
  const { seq } = readPageTagPaths(join(MODERN_GOOGLE, `${name}.html`));
  const records = extractRecords(learnWrapper(seq, { engine: "google" }), seq).records;
  const expected = (JSON.parse(readFileSync(join(MODERN_GOOGLE, `${name}.expected.json`), "utf8")) as { results: Array<{ title: string }> })
    .results;
  return { records, expected: expected.map((r) => normaliseTitle(r.title)) };
}

describe("ads labelled once for a block, not on each record", () => {
  it("a row of shopping cards under one 'Реклама · …' header is left out, the 100 organic results kept", () => {
    const { records, expected } = selfLearned("kokoc-google-2020-12-07");
    const titles = new Set(records.map((r) => normaliseTitle(r.title)));
    expect(expected).toHaveLength(100);
    expect(expected.filter((t) => titles.has(t))).toHaveLength(100);
    expect(records).toHaveLength(100);
    // The cards name a price in roubles; no organic title here does.
    expect(records.filter((r) => / ₽ /.test(r.title))).toEqual([]);
  });

  it("an ad's sitelinks and address line, below the ad's own label, are not records", () => {
    const { records, expected } = selfLearned("kokoc-google-2020-11-26");
    expect(records.filter((r) => r.url.includes("/pagead/aclk"))).toEqual([]);
    expect(records).toHaveLength(expected.length);
  });

  const organic = (i: number) =>
    `<div class="r"><h3><a href="https://site${i}.example/page">Result title number ${i} about tea</a></h3>` +
    `<p>A snippet for result ${i}, long enough to be a snippet about tea.</p></div>`;
  const card = (i: number) =>
    `<div class="r"><h3><a href="https://shop${i}.example/item">Tea kettle model ${i}</a></h3>` +
    `<p>A product card ${i} with a price and a shop name, tea kettle.</p></div>`;

  it("cards after an 'Ad' heading in a block of their own are dropped; the list's own heading does not drop the list", () => {
    const page = (ads: string) =>
      `<html><body><div id="main"><div class="list">${[1, 2, 3, 4, 5, 6].map(organic).join("")}</div>${ads}</div></body></html>`;
    const wrapper = learnWrapper(tagPathsFromHtml(page("")), { engine: "toy" });
    const block = `<div class="list"><span>Ad</span><span>tea kettles</span>${[1, 2, 3].map(card).join("")}</div>`;
    const withAds = extractRecords(wrapper, tagPathsFromHtml(page(block)));
    expect(withAds.records.map((r) => r.url)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `https://site${i}.example/page`));
    // A label above the whole result list (most of the page's records) is some other ad's, not the list's.
    const labelledList = `<html><body><div id="main"><div class="list"><span>Ad</span>${[1, 2, 3, 4, 5, 6].map(organic).join("")}</div></div></body></html>`;
    expect(extractRecords(wrapper, tagPathsFromHtml(labelledList)).records).toHaveLength(6);
  });
});
