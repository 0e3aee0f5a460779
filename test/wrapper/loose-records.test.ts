import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseTitle } from "../../src/wrapper/index.js";
import { readPageTagPaths } from "../../src/html/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { REAL_DATA } from "../helpers/cli.js";

/**
 * Results the engine marks up otherwise than the list's template (its own property's, a partner's, a video's), in the
 * results' own list: read as records of the list, while blocks of links, new searches and answer boxes in the same
 * list are not (real pages of ../shared/data/serps).
 */

const SERPS = join(REAL_DATA, "serps");

function page(set: string, engine: string, name: string) {
  const dir = join(SERPS, set);
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Array<{ file: string; serp_url?: string }>;
  const url = manifest.find((m) => m.file.endsWith(`${name}.html`))?.serp_url;
  const base = join(dir, engine, name);
  const { seq } = readPageTagPaths(`${base}.html`);
  const expected = (JSON.parse(readFileSync(`${base}.expected.json`, "utf8")) as { results: Array<{ title: string }> }).results.map((r) =>
    normaliseTitle(r.title),
  );
  return { seq, url, expected };
}

const titlesOf = (records: ReadonlyArray<{ title: string }>) => records.map((r) => normaliseTitle(r.title));

describe("results of another template in the result list", () => {
  it("Ask 2015: the partner answer, the about.com result and the YouTube result join the nine-record list, in page order", () => {
    const p = page("aql-more", "ask", "ask-tie-dye-patterns-1446417858");
    const result = extractRecords(learnWrapper(p.seq, { engine: "ask", pageUrl: p.url }), p.seq, { pageUrl: p.url });
    expect(result.status).toBe("ok");
    expect(result.records).toHaveLength(10);
    expect(p.expected).toHaveLength(10);
    const titles = titlesOf(result.records);
    expect(titles[0]).toBe(normaliseTitle("How to: Tie Dye Patterns"));
    expect(titles[8]).toBe(normaliseTitle("How To Tie Dye - Fish Scales - YouTube"));
    expect(result.records[4]!.url).toContain("clk.about.com");
    expect(titles.filter((t, i) => t === p.expected[i])).toHaveLength(10);
  });

  it("Ask 2016: a wrapper learned on another page reads the YouTube and Amazon results among the organic ones", () => {
    const sample = page("aql-more", "ask", "ask-batman-movie-1467834503");
    const p = page("aql-more", "ask", "ask-who-framed-roger-rabbit-1473167643");
    const wrapper = learnWrapper(sample.seq, { engine: "ask", pageUrl: sample.url });
    const records = extractRecords(wrapper, p.seq, { pageUrl: p.url }).records;
    expect(records).toHaveLength(10);
    expect(titlesOf(records)).toEqual(p.expected);
  });

  it("Brave: the code answer box quoting the first result does not replace it", () => {
    const p = page("aql-more", "brave", "brave-how-tot-ell-if-tail-recurssive-1658814198");
    const records = extractRecords(learnWrapper(p.seq, { engine: "brave", pageUrl: p.url }), p.seq, { pageUrl: p.url }).records;
    expect(normaliseTitle(records[0]!.title)).toBe(
      normaliseTitle("algorithms - What is tail recursion? - Computer Science Stack Exchange"),
    );
    expect(records.filter((r) => r.url.includes("cs.stackexchange.com/questions/6230"))).toHaveLength(1);
  });

  it("Bing and Google: a knowledge panel's links to a new search in the list are no results", () => {
    const bing = page("aql", "bing", "bing-the-clavarioid-fungi-of-new-zealand-ron-petersen-1556393373");
    const b = extractRecords(learnWrapper(bing.seq, { engine: "bing", pageUrl: bing.url }), bing.seq, { pageUrl: bing.url }).records;
    expect(b).toHaveLength(10);
    expect(b.some((r) => r.url.includes("/search?"))).toBe(false);
    const google = page("aql", "google", "google-bill-easley-sophisticated-prelude-1626498182");
    const g = extractRecords(learnWrapper(google.seq, { engine: "google", pageUrl: google.url }), google.seq, { pageUrl: google.url });
    expect(g.records.some((r) => r.title === "ビル・イーズリー")).toBe(false);
  });

  it("360: a news block headed like a result (a title, then only links to news pages) is not a record", () => {
    const p = page("aql-more", "360", "360-hui-ji-pei-xun-1579668897");
    const records = extractRecords(learnWrapper(p.seq, { engine: "360", pageUrl: p.url }), p.seq, { pageUrl: p.url }).records;
    expect(p.expected).toHaveLength(6);
    expect(records).toHaveLength(6);
    expect(titlesOf(records)).toEqual(p.expected);
    expect(records.some((r) => r.title.includes("相关资讯"))).toBe(false);
  });

  it("Google 2020: a featured video whose only link is its thumbnail, labelled with its duration, is not a record", () => {
    const p = page("aql-more", "google", "google-susan-boyle-make-me-a-channel-of-your-peace-1607791072");
    const records = extractRecords(learnWrapper(p.seq, { engine: "google", pageUrl: p.url }), p.seq, { pageUrl: p.url }).records;
    expect(records.some((r) => r.title === "5:28")).toBe(false);
    expect(records).toHaveLength(10);
  });
});
