import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright";
import { launchChromium } from "../../src/browser/launch.js";
import { readSavedPage } from "../../src/html/load.js";
import { parseDocument } from "../../src/html/dom.js";
import { tagPathsFromHtml } from "../../src/html/parse.js";
import { collapseRepeats, collectTagPaths, indexTagPaths, type MinimalNode } from "../../src/html/tagpaths.js";
import { AQL, MANIFEST } from "../helpers/serps.js";

const SMALL = `<!doctype html><html><head><title>t</title><script>var x = "<b>";</script></head>
<body><table><tr><td><a href="/r1">One</a> first</td></tr><tr><td><a href="/r2">Two</a></td></tr></table>
<noscript><div>enable js</div></noscript><!-- a comment --></body></html>`;

describe("tag paths (feng2010 §3.1, §4.2)", () => {
  it("lists elements and non-blank text nodes in pre-order with their paths from html", () => {
    const seq = tagPathsFromHtml(SMALL);
    const paths = seq.pathIds.map((id) => seq.paths[id]);
    expect(paths).toEqual([
      "html",
      "html\\head",
      "html\\head\\title",
      "html\\head\\title\\#text",
      "html\\head\\script",
      "html\\body",
      "html\\body\\table",
      "html\\body\\table\\tbody",
      "html\\body\\table\\tbody\\tr",
      "html\\body\\table\\tbody\\tr\\td",
      "html\\body\\table\\tbody\\tr\\td\\a",
      "html\\body\\table\\tbody\\tr\\td\\a\\#text",
      "html\\body\\table\\tbody\\tr\\td\\#text",
      "html\\body\\table\\tbody\\tr",
      "html\\body\\table\\tbody\\tr\\td",
      "html\\body\\table\\tbody\\tr\\td\\a",
      "html\\body\\table\\tbody\\tr\\td\\a\\#text",
      "html\\body\\noscript",
    ]);
    expect(seq.texts[12]).toBe(" first");
    expect(seq.hrefs[10]).toBe("/r1");
    expect(seq.ends[8]).toBe(13); // the first <tr> spans positions 8..12
  });

  it("builds the inverted map from each unique path to its sorted occurrence vector S_i", () => {
    const index = indexTagPaths(tagPathsFromHtml(SMALL));
    const id = index.seq.paths.indexOf("html\\body\\table\\tbody\\tr\\td\\a");
    expect(Array.from(index.occurrences[id]!)).toEqual([10, 15]);
    expect(index.parents[10]).toBe(9);
    expect(index.parents[0]).toBe(-1);
    expect(index.length).toBe(18);
  });

  it("gives the same sequence from jsdom and from parse5 on every real fixture page", () => {
    for (const m of MANIFEST) {
      const html = readSavedPage(join(AQL, m.engine, m.file)).text;
      const viaJsdom = collectTagPaths(parseDocument(html) as unknown as MinimalNode);
      expect(viaJsdom, m.file).toEqual(tagPathsFromHtml(html));
    }
  });

  it("collapses tandem repeats of two or three tags, not of one", () => {
    expect(collapseRepeats("html\\body\\dl\\dd\\li\\dd\\li\\dd\\li\\a")).toBe("html\\body\\dl\\dd\\li\\a");
    expect(collapseRepeats("html\\body\\div\\div\\div\\a")).toBe("html\\body\\div\\div\\div\\a");
    expect(collapseRepeats("a\\b\\c\\a\\b\\c\\d")).toBe("a\\b\\c\\d");
  });
});

describe("tag paths inside a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("collectTagPaths evaluated in Chromium yields the offline sequence of a real result page", async () => {
    const m = MANIFEST.find((r) => r.file.startsWith("bing-crimson"))!;
    const html = readFileSync(join(AQL, m.engine, m.file), "utf8");
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.route("**/*", (route) => route.abort()); // no network: the page's images and scripts stay out
    await page.setContent(html, { waitUntil: "domcontentloaded" });
    const inBrowser = await page.evaluate(collectTagPaths, (await page.evaluateHandle(() => document)) as never);
    await context.close();
    expect(inBrowser).toEqual(tagPathsFromHtml(html));
  });
});
