import { describe, expect, it } from "vitest";
import { pageFeatures } from "../../src/site/index.js";

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
    expect(f.links).toEqual([
      "http://site.test/a.html",
      "http://site.test/en/frame.html?x=1&y=2",
      "http://site.test/area.html",
    ]);
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
