/**
 * The real two-language nacos documentation site (121 pages), served from 127.0.0.1 and crawled, then
 * paired by each method and scored against its 58 hreflang-declared pairs and the 39 truly translated ones.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { scores } from "../../src/eval/index.js";
import {
  crawlSite,
  loadSite,
  matchPairs,
  mirrorFiles,
  type PairingMethod,
  pairPages,
  readCrawlManifest,
  readGoldPairs,
  type Site,
} from "../../src/site/index.js";
import { EN_ZH, loadLexicon } from "../../src/text/index.js";
import { type Handler, type LocalServer, startStaticServer } from "../net/local-server.js";
import { DEV_DATA, describeDevData } from "../helpers/dev-data.js";

const SITE = `${DEV_DATA}/sites/nacos-astro/site`;
const FIXTURES = new URL("../fixtures/sites/nacos-astro/", import.meta.url).pathname;
const declared = readGoldPairs(join(FIXTURES, "pairs.json"), EN_ZH);
const translated = readGoldPairs(join(FIXTURES, "pairs.translated.json"), EN_ZH);

let server: LocalServer;
let out: string;
let site: Site;
let summary: Awaited<ReturnType<typeof crawlSite>>;

/**
 * The pages point to `/sitemap-index.xml` (`<link rel="sitemap">`), which the build in ../shared lacks; it is
 * rebuilt here from the build's file list, as Astro writes it (an index naming sitemap-0.xml, absolute URLs
 * on the public host). A third of the pages (archive/, guide/, …) are reachable only through it.
 */
function sitemapRoutes(): Record<string, Handler> {
  const host = "https://nacos-group.github.io";
  const urls = mirrorFiles(SITE).map((f) => `${host}/${f.replace(/index\.html$/, "")}`);
  const xml = (body: string) => ((_req, res) => res.writeHead(200, { "content-type": "application/xml" }).end(body)) as Handler;
  return {
    "/sitemap-index.xml": xml(
      `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${host}/sitemap-0.xml</loc></sitemap></sitemapindex>`,
    ),
    "/sitemap-0.xml": xml(
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`,
    ),
  };
}

describeDevData("crawling the real nacos site from 127.0.0.1", () => {
  beforeAll(async () => {
    server = await startStaticServer(SITE, sitemapRoutes());
    out = mkdtempSync(join(tmpdir(), "bitext-nacos-"));
    // The site links its English half only through <link rel=alternate hreflang> to its public host.
    summary = await crawlSite([server.url("/")], {
      out,
      hostAliases: ["nacos-group.github.io"],
      fetch: { delayMs: 0 },
      concurrency: 4,
    });
    site = loadSite(out);
  });
  afterAll(async () => {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  });

  it("keeps every page of both languages, with URLs and links, and records what it skipped", () => {
    expect(summary.pages).toBe(121);
    const manifest = readCrawlManifest(out);
    expect(manifest.finishedAt).not.toBeNull();
    expect(manifest.pages.every((p) => p.url.startsWith(server.origin))).toBe(true);
    expect(manifest.pages.filter((p) => p.url.startsWith(`${server.origin}/en/`))).toHaveLength(61);
    // Links to pages this build does not have (/blog/, /docs/next/, …) answered 404 and are listed.
    expect(manifest.skipped.some((s) => s.reason.startsWith("status: HTTP 404"))).toBe(true);
    // Stylesheets and icons were never requested; the sitemap was read once.
    expect(server.requests.some((r) => /\.(css|ico|png)$/.test(r.path))).toBe(false);
    expect(server.requests.filter((r) => r.path === "/sitemap-index.xml")).toHaveLength(1);
    expect(site.pages).toHaveLength(121);
    expect(site.pages.reduce((s, p) => s + p.links.length, 0)).toBeGreaterThan(4000);
  });

  it("reaches only the pages some link leads to without the sitemap", async () => {
    const linksOnly = mkdtempSync(join(tmpdir(), "bitext-nacos-links-"));
    try {
      const s = await crawlSite([server.url("/")], {
        out: linksOnly,
        hostAliases: ["nacos-group.github.io"],
        sitemaps: false,
        fetch: { delayMs: 0 },
      });
      expect(s.pages).toBe(87);
    } finally {
      rmSync(linksOnly, { recursive: true, force: true });
    }
  });

  it("reads the same pages from the crawl as from the mirror folder", () => {
    const mirror = loadSite(SITE);
    const path = (key: string) =>
      key
        .replace(server.origin, "")
        .replace(/^\//, "")
        .replace(/(^|\/)$/, "$1index.html");
    expect(site.pages.map((p) => path(p.key)).sort()).toEqual(mirror.pages.map((p) => p.key).sort());
    const langOf = new Map(mirror.pages.map((p) => [p.key, p.lang]));
    expect(site.pages.every((p) => langOf.get(path(p.key)) === p.lang)).toBe(true);
  });

  it("finds the declared pairs by every method", () => {
    const lexicon = loadLexicon(EN_ZH);
    const table: string[] = ["method  gold        pairs  P      R      F1"];
    const f1: Record<string, number> = {};
    for (const method of ["urls", "links", "both"] as PairingMethod[]) {
      const result = pairPages(site, { method, lexicon });
      const predicted = result.pairs.map((p) => ({ a: site.pages[p.a]!.key, b: site.pages[p.b]!.key }));
      for (const [name, gold] of [
        ["declared", declared],
        ["translated", translated],
      ] as const) {
        const s = scores(matchPairs(predicted, gold.pairs));
        f1[`${method} ${name}`] = s.f1;
        table.push(
          `${method.padEnd(6)}  ${name.padEnd(10)}  ${String(result.pairs.length).padEnd(5)}  ${s.precision.toFixed(3)}  ${s.recall.toFixed(3)}  ${s.f1.toFixed(3)}`,
        );
      }
    }
    console.log(`nacos-astro crawled from 127.0.0.1 (${site.pages.length} pages)\n${table.join("\n")}`);
    expect(declared.pairs).toHaveLength(58);
    expect(translated.pairs).toHaveLength(39);
    expect(f1["urls declared"]).toBeGreaterThan(0.95);
    expect(f1["links declared"]).toBeGreaterThan(0.9);
    expect(f1["both declared"]).toBeGreaterThanOrEqual(f1["urls declared"]!);
    // Every truly translated pair is among the declared ones: the methods find them all by URL.
    expect(f1["urls translated"]).toBeGreaterThan(0.75);
  });

  it("names pages by their URL in the output of a crawl", () => {
    const result = pairPages(site, { method: "urls" });
    const first = result.pairs[0]!;
    expect(site.pages[first.a]!.key).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/en\//);
    expect(readFileSync(join(out, "site.json"), "utf8")).toContain('"format": "bitext-site-crawl 1"');
  });
});
