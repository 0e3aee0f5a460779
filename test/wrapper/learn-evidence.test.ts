import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseTitle } from "../../src/wrapper/index.js";
import { readPageTagPaths } from "../../src/html/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { parseWrapperFile } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { controlTitleFlags, repeatedRecordFlags } from "../../src/wrapper/index.js";
import { searchLinkFlags, searchLinkKind } from "../../src/wrapper/search-links.js";
import { FIXTURES, REAL_DATA } from "../helpers/cli.js";

/** Self-learned records of a real page of ../shared/data/serps, with its expected titles. */
function selfLearned(set: string, engine: string, name: string) {
  const base = join(REAL_DATA, "serps", set, engine, name);
  const { seq } = readPageTagPaths(`${base}.html`);
  const result = extractRecords(learnWrapper(seq, { engine }), seq);
  const expected = (JSON.parse(readFileSync(`${base}.expected.json`, "utf8")) as { results: Array<{ title: string }> }).results.map((r) =>
    normaliseTitle(r.title),
  );
  return { result, titles: result.records.map((r) => r.title), expected };
}

describe("links to a new search are not results", () => {
  it("tells a search link by its parameters: the page's query, or the link's own words", () => {
    expect(searchLinkKind("/search?q=apple t3 chip&offset=1&spellcheck=0", "apple t3 chip", "Next")).toBe("query");
    expect(searchLinkKind("/videos/search?q=Shang-Chi+film&qpvt=Shang-Chi+film", "Shang-Chi film", "Videos of Shang-Chi film")).toBe(
      "query",
    );
    expect(searchLinkKind("/search?q=harukaze+wakaba&FORM=AWRE", "harukazewakaba0", "harukaze wakaba")).toBe("own-text");
    expect(
      searchLinkKind("https://www.theverge.com/2018/11/12/apple-t2", "apple t3 chip", "Apple confirms its T2 security chip"),
    ).toBeNull();
    expect(searchLinkKind("/url?q=https://example.org/a&sa=U", "example", "Example")).toBeNull();
  });

  it("keeps a list whose every result carries the query (a book search's dq=), drops pagination and a vertical's block among results", () => {
    const book = (id: string) => ({
      href: `https://books.google.com/books?id=${id}&dq=conflict+middle+east`,
      text: `Book ${id}`,
      snippet: "A long enough description of a book.",
    });
    expect(searchLinkFlags([book("a"), book("b"), book("c")], "conflict middle east")).toEqual([false, false, false]);
    const result = (n: number) => ({
      href: `https://site${n}.example/page`,
      text: `Result ${n}`,
      snippet: "A long enough snippet of a real result.",
    });
    const links = [
      result(1),
      { href: "/videos/search?q=shang+chi", text: "Videos of Shang Chi", snippet: "Four videos, each with a caption" },
      result(2),
      result(3),
      { href: "/search?q=shang+chi&first=11", text: "Next", snippet: "" },
    ];
    expect(searchLinkFlags(links, "shang chi")).toEqual([false, true, false, false, true]);
  });

  it("Brave 2022: no 'Next' record after the 20 results, and an answer box's parts count once", () => {
    const { titles, expected } = selfLearned("aql-more", "brave", "brave-apple-t3-chip-1651405075");
    expect(titles).not.toContain("Next");
    expect(titles.filter((t) => t === "Wikipedia")).toHaveLength(0);
    expect(titles).toHaveLength(20);
    expect(titles.map(normaliseTitle).filter((t) => expected.includes(t)).length).toBeGreaterThanOrEqual(19);
  });

  it("Bing 2019: the 'Videos of …' block in the list is not a record", () => {
    const { titles, expected } = selfLearned("aql-more", "bing", "bing-shang-chi-film-1563662560");
    expect(titles).not.toContain("Videos of Shang-Chi film");
    expect(titles).toHaveLength(7);
    expect(titles.slice(0, 2)).toEqual(["Shang-Chi - Wikipedia", "Shang-Chi (film) | Disney Wiki | FANDOM powered by Wikia"]);
    expect(expected).toHaveLength(7);
  });

  it("Google 2021: ten book results that all carry the query stay results", () => {
    const { titles } = selfLearned("aql", "google", "google-conflict-middle-east-wikipedia-1636797028");
    expect(titles).toHaveLength(10);
    expect(titles.slice(0, 3)).toEqual([
      "Decline of the Arab-Israeli Conflict, The: Middle East ...",
      "Narrating Conflict in the Middle East: Discourse, Image and ...",
      "Water and Conflict in the Middle East",
    ]);
  });
});

describe("one result template at several depths", () => {
  it("Google 2022: results whose title link sits deeper (extra wrappers around a rich result) are read with the others", () => {
    const { titles, expected } = selfLearned("modern", "google", "kokoc-google-2022-03-31-1");
    const normalised = titles.map(normaliseTitle);
    expect(normalised).toContain(normaliseTitle("Подиум для ТВ Милан 14 купить в интернет-магазине ЮТАШОП ..."));
    expect(normalised).toContain(normaliseTitle("Audiences TV : la victoire des Bleus loin devant la série de France 3 ..."));
    const found = normalised.filter((t) => expected.includes(t)).length;
    expect(found).toBeGreaterThanOrEqual(90);
    expect(titles.length).toBeLessThanOrEqual(expected.length);
  });
});

describe("titles", () => {
  it("Brave 2026: a link holding the site line and then the title gives the title alone; every expected URL is found", () => {
    const base = join(REAL_DATA, "serps", "modern", "brave", "wsm-brave-javascript-tutorial");
    const { seq } = readPageTagPaths(`${base}.html`);
    const records = extractRecords(learnWrapper(seq, { engine: "brave" }), seq).records;
    const titles = records.map((r) => r.title);
    expect(titles).toContain("JavaScript Courses & Tutorials | Codecademy");
    expect(titles).toContain("The Modern JavaScript Tutorial");
    expect(titles.some((t) => t.startsWith("Codecademy "))).toBe(false);
    const expected = (JSON.parse(readFileSync(`${base}.expected.json`, "utf8")) as { results: Array<{ url: string }> }).results.map(
      (r) => r.url,
    );
    const urls = new Set(records.map((r) => r.url));
    expect(expected.filter((u) => urls.has(u))).toHaveLength(expected.length);
  });
});

describe("repeated records and control links", () => {
  it("drops a record leading where an earlier one leads with other text, keeps one repeated whole", () => {
    const box = [
      { url: "https://en.wikipedia.org/wiki/X", title: "X", snippet: "x is a thing" },
      { url: "https://en.wikipedia.org/wiki/X", title: "Wikipedia", snippet: "Data from" },
      { url: "https://a.example/", title: "A", snippet: "about a" },
      { url: "https://a.example/", title: "A", snippet: "about a" },
    ];
    expect(repeatedRecordFlags(box)).toEqual([false, true, false, false]);
  });

  it("Yahoo 1999: a directory listing one site under two headings keeps both", () => {
    const { titles } = selfLearned("aql-more", "yahoo", "yahoo-funny-pictures-943791338");
    expect(titles).toHaveLength(20);
    expect(titles.filter((t) => t === "All Pets Are Funny")).toHaveLength(2);
  });

  it("a link text repeated in most records is a control unless it says the query", () => {
    const recs = ["Read more »", "Read more »", "Read more »", "Something"].map((title) => ({ title }));
    expect(controlTitleFlags(recs, ["fooood"])).toEqual([true, true, true, false]);
    expect(
      controlTitleFlags(
        ["Wonder Kids", "Wonder Kids", "Wonder Kids"].map((title) => ({ title })),
        ["wonder", "kids"],
      ),
    ).toEqual([false, false, false]);
  });

  it("Ask 2015 (German): the only link of a result reads 'Mehr lesen »', so the title is the record's first text", () => {
    const { seq } = readPageTagPaths(join(FIXTURES, "serps", "no_results", "uncompressed_no_results_serp_pages__ask.html"));
    const wrapper = learnWrapper(seq, { engine: "ask" });
    expect(wrapper.clusters[0]!.titleFromText).toBe(true);
    const r = extractRecords(wrapper, seq);
    expect(r.records).toHaveLength(10);
    expect(r.records.map((x) => x.title).slice(0, 3)).toEqual(["food food fooood. - Imgfave", "fooood:) - Imgfave", "FOOOOD"]);
    expect(r.records[0]!.url).toBe("http://imgfave.com/collection/115381/food-food-fooood");
    expect(r.records.some((x) => x.title === "Mehr lesen »")).toBe(false);
    // Saved and read back, the wrapper reads another page of that layout the same way.
    const saved = parseWrapperFile(JSON.stringify({ formatVersion: 1, engine: "ask", wrapper, previous: [] })).wrapper!;
    expect(saved.clusters[0]!.titleFromText).toBe(true);
    const other = readPageTagPaths(join(REAL_DATA, "serps", "fixtures", "googlescraper", "serp_pages", "fellow_ask_de_ip.html")).seq;
    const titles = extractRecords(saved, other).records.map((x) => x.title);
    expect(titles).toHaveLength(10);
    expect(titles[0]).toMatch(/^Deutscher Odd Fellow-Orden/);
    expect(titles).not.toContain("Mehr lesen »");
  });
});
