import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright";
import { launchChromium } from "../../src/browser/index.js";
import { readSavedPage } from "../../src/html/index.js";
import { parseDocument } from "../../src/html/index.js";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { collapsedView, collapseRepeats, collectTagPaths, indexTagPaths, type MinimalNode } from "../../src/html/index.js";
import { UserError } from "../../src/errors.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { AQL, MANIFEST } from "../helpers/serps.js";

/** `depth` nested divs, each with a word of text, closed at the end or never. */
function deepPage(depth: number, closed: boolean): string {
  return `<!doctype html><html><body>${"<div>x".repeat(depth)}${closed ? "</div>".repeat(depth) : ""}</body></html>`;
}

/** Learning on a hostile page ends with records or with "no record structure", never with a crash. */
function learnOrNone(seq: ReturnType<typeof tagPathsFromHtml>): number {
  try {
    return extractRecords(learnWrapper(seq, { engine: "test" }), seq).records.length;
  } catch (err) {
    if (err instanceof UserError) return 0;
    throw err;
  }
}

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

  it("keeps the space a blank text node puts between two inline texts, at the end of the first, as no position", () => {
    const seq = tagPathsFromHtml("<html><body><p><b>Keyword</b> <b>Tests</b>\n  <i>x</i></p></body></html>");
    expect(seq.texts.filter((t) => t !== null)).toEqual(["Keyword ", "Tests ", "x"]);
    expect(seq.paths.filter((p) => p.endsWith("#text"))).toEqual(["html\\body\\p\\b\\#text", "html\\body\\p\\i\\#text"]);
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

  it("caps nesting as Blink does: below depth 513 elements become siblings and keep their text", () => {
    for (const closed of [true, false]) {
      const seq = tagPathsFromHtml(deepPage(20_000, closed));
      expect(seq.truncated).toBe(false);
      expect(seq.pathIds).toHaveLength(3 + 2 * 20_000); // html, head, body, then each div and its text
      const depths = seq.paths.map((p) => p.split("\\").length);
      expect(Math.max(...depths)).toBe(514); // a div at depth 513 and its #text
      expect(seq.paths.length).toBeLessThan(1100); // one path per level, not one per element
      // The divs past the cap are siblings: each spans only itself and its text.
      const last = seq.pathIds.length - 2;
      expect(seq.paths[seq.pathIds[last]!]!.split("\\")).toHaveLength(513);
      expect(seq.ends[last]).toBe(last + 2);
      expect(seq.ends[2]).toBe(seq.pathIds.length); // body still holds everything
      expect(learnOrNone(seq)).toBeGreaterThanOrEqual(0);
    }
  });

  it("walks a page of many tiny elements and learns from it or finds no records, without failing", () => {
    const seq = tagPathsFromHtml(`<!doctype html><html><body>${"<b>x</b>".repeat(50_000)}</body></html>`);
    expect(seq.pathIds).toHaveLength(3 + 2 * 50_000);
    expect(seq.paths).toHaveLength(5);
    expect(learnOrNone(seq)).toBeGreaterThanOrEqual(0);
  });

  it("stops at its budget of distinct path characters and says so, with a consistent sequence", () => {
    // 8,200 distinct tags at the cap, each path about 2,000 characters long: more than 2^24 in all.
    const html = `<html><body>${"<div>".repeat(520)}${Array.from({ length: 8200 }, (_, i) => `<t${i}>`).join("")}</body></html>`;
    const seq = tagPathsFromHtml(html);
    expect(seq.truncated).toBe(true);
    expect(seq.paths.reduce((n, p) => n + p.length, 0)).toBeLessThanOrEqual(2 ** 24);
    const n = seq.pathIds.length;
    expect(n).toBeGreaterThan(1000);
    for (let p = 0; p < n; p++) expect(seq.ends[p]! > p && seq.ends[p]! <= n).toBe(true);
  });

  it("collapses tandem repeats of two or three tags, not of one", () => {
    expect(collapseRepeats("html\\body\\dl\\dd\\li\\dd\\li\\dd\\li\\a")).toBe("html\\body\\dl\\dd\\li\\a");
    expect(collapseRepeats("html\\body\\div\\div\\div\\a")).toBe("html\\body\\div\\div\\div\\a");
    expect(collapseRepeats("a\\b\\c\\a\\b\\c\\d")).toBe("a\\b\\c\\d");
    // Not from the parent's collapsed form: that would give a\b.
    expect(collapseRepeats("a\\b\\a\\a\\b\\a\\b")).toBe("a\\b\\a\\a\\b");
  });

  it("collapses as the definition does: scan units of 2 then 3, drop each repeat where found, until nothing changes", () => {
    // The definition, dropping a repeat by shifting the rest of the path; collapseRepeats moves each tag once.
    const reference = (path: string): string => {
      const tags = path.split("\\");
      let changed = true;
      while (changed) {
        changed = false;
        for (let unit = 2; unit <= 3; unit++) {
          for (let i = 0; i + 2 * unit <= tags.length; i++) {
            if (tags.slice(i, i + unit).join() !== tags.slice(i + unit, i + 2 * unit).join()) continue;
            tags.splice(i + unit, unit);
            changed = true;
            i--;
          }
        }
      }
      return tags.join("\\");
    };
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let t = 0; t < 2000; t++) {
      const path = Array.from({ length: 1 + random(40) }, () => "abc"[random(2 + (t % 2))]).join("\\");
      expect(collapseRepeats(path)).toBe(reference(path));
    }
  });

  it("collapses every path of a page as collapseRepeats collapses it alone", () => {
    // Legacy nesting (unclosed dd/li, p/b/i) and the order-dependent case a\b\a\a\b\a\b as tag names.
    const html = `<html><body><dl>${"<dd><li>x".repeat(40)}</dl>${"<p><b><i>y".repeat(30)}${"<u><s><u><u><s><u><s>z".repeat(5)}</body></html>`;
    const seq = tagPathsFromHtml(html);
    const view = collapsedView(seq);
    const expected = seq.pathIds.map((id) => collapseRepeats(seq.paths[id]!));
    expect(view.pathIds.map((id) => view.paths[id]!)).toEqual(expected);
    expect(new Set(view.paths).size).toBe(view.paths.length);
    expect(view.paths.length).toBeLessThan(seq.paths.length / 2);
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

  it("gives the offline sequence of a page nested past Blink's depth cap, closed and unclosed", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const mixed = `<html><body>${"<div>a<!--x-->b<p>q</p>".repeat(600)}c<i>z</i>d</body></html>`; // texts merge at the cap
    const tables = `<html><body>${"<table><tr><td>a".repeat(300)}<ul><li>x<li>y</ul></body></html>`;
    for (const html of [deepPage(1500, true), deepPage(1500, false), mixed, tables]) {
      await page.setContent(html);
      const inBrowser = await page.evaluate(collectTagPaths, (await page.evaluateHandle(() => document)) as never);
      expect(inBrowser).toEqual(tagPathsFromHtml(html));
    }
    await context.close();
  });
});
