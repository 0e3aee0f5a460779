import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeHtml } from "../../src/html/index.js";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { hardBlockReason, type PageObservation, saysNoResults, softBlockReason } from "../../src/serp/index.js";
import { pageText } from "../../src/serp/index.js";
import { defaultWrappersDir, loadEngine } from "../../src/serp/index.js";
import { parseEngineDefinition } from "../../src/serp/index.js";
import { REAL_DATA } from "../helpers/cli.js";
import { DEV_DATA, describeDevData } from "../helpers/dev-data.js";

const baidu = loadEngine(defaultWrappersDir(), "baidu").definition;
const google = loadEngine(defaultWrappersDir(), "google").definition;
const generic = parseEngineDefinition({ searchUrl: "https://s.example/?q={query}" }, "example", "f");

function obs(over: Partial<PageObservation>): PageObservation {
  return {
    requestUrl: "https://www.baidu.com/s?wd=I%20see",
    finalUrl: "https://www.baidu.com/s?wd=I%20see",
    httpStatus: 200,
    title: "I see_百度搜索",
    text: "",
    blockSelectors: [],
    noResultsSelectors: [],
    ...over,
  };
}

describe("telling a block from results", () => {
  it("treats 429, 403 and 503 as blocks", () => {
    for (const status of [429, 403, 503]) expect(hardBlockReason(obs({ httpStatus: status }), generic.blocks)).toBe(`HTTP ${status}`);
    expect(hardBlockReason(obs({ httpStatus: 200 }), generic.blocks)).toBeNull();
  });

  it("treats a redirect to a verification, captcha or consent host as a block", () => {
    const wappass =
      "https://wappass.baidu.com/static/captcha/tuxing.html?&ak=c27bbc89afca0463650ac9bde68ebe06&backurl=https%3A%2F%2Fwww.baidu.com";
    expect(hardBlockReason(obs({ finalUrl: wappass }), baidu.blocks)).toMatch(/^redirected to https:\/\/wappass\.baidu\.com/);
    const sorry = "https://www.google.com/sorry/index?continue=https://www.google.com/search%3Fq%3Dx";
    expect(hardBlockReason(obs({ requestUrl: "https://www.google.com/search?q=x", finalUrl: sorry }), google.blocks)).toMatch(/sorry/);
    const consent = "https://consent.google.com/ml?continue=https://www.google.com/search?q%3Dx";
    expect(hardBlockReason(obs({ requestUrl: "https://www.google.com/search?q=x", finalUrl: consent }), google.blocks)).toMatch(/consent/);
  });

  it("never reads the user's query in the URL as a block signal", () => {
    // "verify" and "captcha" are block URL patterns; a query containing them is not a redirect.
    const url = "https://www.bing.com/search?q=how%20to%20verify%20a%20captcha&first=1";
    expect(hardBlockReason(obs({ requestUrl: url, finalUrl: url }), generic.blocks)).toBeNull();
    const moved = "https://cn.bing.com/search?q=how%20to%20verify%20a%20captcha&first=1";
    expect(hardBlockReason(obs({ requestUrl: url, finalUrl: moved }), generic.blocks)).toBeNull();
  });

  it("treats a captcha element as a block", () => {
    expect(hardBlockReason(obs({ blockSelectors: ["#captcha-form"] }), google.blocks)).toBe("block element #captcha-form on the page");
  });

  it("reads block wording only as a hint for pages without records", () => {
    expect(softBlockReason(obs({ text: "Our systems have detected unusual traffic from your computer network." }), google.blocks)).toMatch(
      /^page says ".*unusual traffic"$/,
    );
    expect(softBlockReason(obs({ title: "百度安全验证", text: "请完成下方验证后继续操作" }), baidu.blocks)).toMatch(/安全验证/);
    expect(softBlockReason(obs({ text: "There are no results for this query" }), generic.blocks)).toBeNull();
  });

  it("finds no block signal on the real result pages of the fixtures, except block words quoted inside result snippets", () => {
    const { files, flagged } = blockSignals(`${REAL_DATA}/serps`);
    expect(files).toBeGreaterThanOrEqual(50);
    expect(flagged).toBeLessThanOrEqual(1);
  });
});

describeDevData("block signals on every real result page of the development data", () => {
  it("finds none, except block words quoted inside result snippets", () => {
    const { files, flagged } = blockSignals(`${DEV_DATA}/serps`);
    expect(files).toBeGreaterThanOrEqual(80);
    expect(flagged).toBeLessThanOrEqual(2);
  });
});

/**
 * Every saved result page below ROOT read as the harvest reads a page: no hard block signal, and where block
 * wording shows, the archive's expected records show it inside a result's snippet. The counts of pages and
 * of pages with such wording.
 */
function blockSignals(root: string): { files: number; flagged: number } {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      if (f.isDirectory()) walk(join(d, f.name));
      else if (f.name.endsWith(".html")) files.push(join(d, f.name));
    }
  };
  walk(root);
  let flagged = 0;
  for (const f of files) {
    const seq = tagPathsFromHtml(decodeHtml(readFileSync(f)).text);
    const o = obs({ requestUrl: "https://s.example/s?q=x", finalUrl: "https://s.example/s?q=x", text: pageText(seq, 1_000_000) });
    expect(hardBlockReason(o, generic.blocks)).toBeNull();
    const soft = softBlockReason(o, {
      ...generic.blocks,
      textPatterns: [...new Set([...generic.blocks.textPatterns, ...baidu.blocks.textPatterns, ...google.blocks.textPatterns])],
    });
    if (soft) {
      flagged++;
      // The archive's expected records show where the words are: in a result's snippet.
      const expected = JSON.parse(readFileSync(f.replace(/\.html$/, ".expected.json"), "utf8")) as { results: { snippet: string }[] };
      expect(expected.results.map((r) => r.snippet).join("\n")).toContain(soft.replace(/^page says "|"$/g, ""));
    }
  }
  return { files: files.length, flagged };
}

describe("a genuine no-results page", () => {
  it("is recognised by the engine's markers, and undecided when the engine has none", () => {
    expect(saysNoResults(obs({ text: "抱歉，没有找到与“zzqx”相关的网页。" }), baidu.noResults)).toBe(true);
    expect(saysNoResults(obs({ noResultsSelectors: [".nors"] }), baidu.noResults)).toBe(true);
    expect(saysNoResults(obs({ text: "相关结果约100个" }), baidu.noResults)).toBe(false);
    expect(saysNoResults(obs({ text: "nothing" }), generic.noResults)).toBeNull();
  });
});
