import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_ELEMENTS } from "../../src/html/index.js";
import { loadSite, pageFeatures } from "../../src/site/index.js";

const PAGE = `<!doctype html><html><head>
<title>Home · 首页</title>
<link rel="alternate" hreflang="zh" href="/zh/index.html">
<link rel="stylesheet" href="/style.css">
<link rel="sitemap" href="/sitemap.xml">
<meta http-equiv="refresh" content="30; url=/next.html?a=1&amp;b=2">
<script>document.write('<iframe src="/from-script.html"></iframe>')</script>
</head><body>
<!-- <iframe src="/commented-out.html"></iframe> -->
<p>Read <a href="/a.html#part">this</a> first.</p>
<iframe src="frame.html?x=1&amp;y=2"></iframe>
<map name="m"><area href="/area.html" alt=""></map>
<a href="mailto:someone@example.org">mail</a>
</body></html>`;

describe("what a site spider reads from a page", () => {
  const f = pageFeatures(PAGE, "http://site.test/en/index.html");

  it("collects hyperlinks from a, iframe/frame and area, resolved, fragments dropped, attributes decoded", () => {
    expect(f.links).toEqual(["http://site.test/a.html", "http://site.test/en/frame.html?x=1&y=2", "http://site.test/area.html"]);
  });

  it("keeps hreflang alternates and meta refresh as pages to visit, and sitemaps apart", () => {
    expect(f.discover).toEqual(["http://site.test/zh/index.html", "http://site.test/next.html?a=1&b=2"]);
    expect(f.sitemaps).toEqual(["http://site.test/sitemap.xml"]);
  });

  it("ignores link-like text in comments and scripts", () => {
    const all = [...f.links, ...f.discover, ...f.sitemaps].join(" ");
    expect(all).not.toMatch(/commented-out|from-script/);
  });

  it("reads the title apart from the body text", () => {
    expect(f.title).toBe("Home · 首页");
    expect(f.text).toBe("Read this first. mail");
  });
});

describe("a page nested 100,000 elements deep (issue 16)", () => {
  // The walk is iterative and keeps no tag-path strings: no stack overflow, no depth² memory.
  const depth = 100_000;

  it("closed: every element is in the structure and the text is read", () => {
    const html = `<html><body>${"<div>".repeat(depth)}deep text here${"</div>".repeat(depth)}</body></html>`;
    const f = pageFeatures(html, "http://site.test/deep.html");
    expect(f.tags.filter((t) => t === "div")).toHaveLength(depth);
    expect(f.text).toBe("deep text here");
  });

  it("unclosed, with links: loads as a site page like any other", () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-deep-"));
    try {
      const deepUnclosed = `<html><body>${"<div>words on the way down ".repeat(depth)}<a href="other.html">a link to the other page</a>`;
      writeFileSync(join(dir, "deep.html"), deepUnclosed);
      writeFileSync(join(dir, "other.html"), `<html><body><p>${"An ordinary page of English text. ".repeat(10)}</p></body></html>`);
      const site = loadSite(dir);
      const deep = site.pages.find((p) => p.key === "deep.html")!;
      expect(deep.lang).toBe("en");
      expect(deep.tags.length).toBeGreaterThan(depth);
      expect(deep.links).toEqual([site.pages.findIndex((p) => p.key === "other.html")]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("past the element cap: the page is left out of the site with its reason, the rest loads", () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-many-"));
    try {
      writeFileSync(join(dir, "many.html"), `<html><body>${"<i>x</i>".repeat(MAX_ELEMENTS + 1)}`);
      writeFileSync(join(dir, "other.html"), `<html><body><p>${"An ordinary page of English text. ".repeat(10)}</p></body></html>`);
      const site = loadSite(dir);
      expect(site.pages.map((p) => p.key)).toEqual(["other.html"]);
      expect(site.dropped).toContainEqual({
        key: "many.html",
        reason: `cannot be processed: too-many-elements: more than ${MAX_ELEMENTS.toLocaleString("en")} elements`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
