import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { describeFailure } from "../../src/cli/errors.js";
import { UserError } from "../../src/errors.js";
import { crawlSite, loadSite, readCrawlManifest } from "../../src/site/index.js";
import { type Handler, type LocalServer, startStaticServer } from "../net/local-server.js";
import { generateSite, readSentencePairs, SCHEMES, writeSite } from "./site-generator.js";

const sentences = readSentencePairs(new URL("../fixtures/sites/tatoeba-sample.tsv", import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), "bitext-crawl-"));
const root = join(tmp, "www");
let server: LocalServer | undefined;
let n = 0;
const outDir = () => join(tmp, `out-${++n}`);

beforeAll(() => {
  const generated = generateSite({ seed: 3, scheme: SCHEMES["eng:chi"]!, pairs: 20, onlyEn: 2, sentences });
  writeSite(generated, root);
  // Real sites hold more than pages: a stub page with almost no text, a PDF, a page behind robots.txt.
  writeFileSync(join(root, "eng", "stub.htm"), "<html><body><a href='about/index.htm'>About</a> ok</body></html>");
  mkdirSync(join(root, "eng", "private"), { recursive: true });
  writeFileSync(join(root, "eng", "private", "secret.htm"), `<html><body><p>${"secret ".repeat(40)}</p></body></html>`);
  writeFileSync(join(root, "eng", "report.pdf"), "%PDF-1.4");
  const home = join(root, "eng", "index.htm");
  writeFileSync(
    home,
    readFileSync(home, "utf8").replace(
      "</body>",
      '<a href="stub.htm">stub</a> <a href="private/secret.htm">secret</a> <a href="report.pdf">PDF</a> <a href="http://elsewhere.example/x.htm">away</a></body>',
    ),
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const robots = (body: string): Record<string, Handler> => ({
  "/robots.txt": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(body),
});

describe("crawling a bilingual site politely", () => {
  it("keeps the HTML pages of the host, skipping robots-disallowed, tiny, non-HTML and off-site URLs", async () => {
    server = await startStaticServer(root, robots("User-agent: *\nDisallow: /eng/private/\n"));
    const out = outDir();
    const summary = await crawlSite([server.url("/eng/index.htm")], { out, fetch: { delayMs: 0 } });
    const manifest = readCrawlManifest(out);
    const paths = manifest.pages.map((p) => new URL(p.url).pathname);
    // 1 home + 5 section indexes + 22 content pages per language; Chinese reached through the language link.
    expect(paths.filter((p) => p.startsWith("/eng/"))).toHaveLength(28);
    expect(paths.filter((p) => p.startsWith("/chi/"))).toHaveLength(26);
    expect(summary.pages).toBe(54);
    const reasons = Object.fromEntries(manifest.skipped.map((s) => [new URL(s.url).pathname, s.reason]));
    expect(reasons["/eng/private/secret.htm"]).toMatch(/^robots/);
    expect(reasons["/eng/stub.htm"]).toMatch(/bytes of text/);
    const requested = server.requests.map((r) => r.path);
    expect(requested).not.toContain("/eng/report.pdf");
    expect(requested).not.toContain("/eng/private/secret.htm");
    // Each page file is the body as served.
    const first = manifest.pages[0]!;
    expect(readFileSync(join(out, first.file), "utf8")).toBe(readFileSync(join(root, "eng", "index.htm"), "utf8"));
    expect(first.links.some((l) => l.endsWith("/eng/about/index.htm"))).toBe(true);
  });

  it("stops at the page and depth limits", async () => {
    server = await startStaticServer(root);
    const few = await crawlSite([server.url("/eng/index.htm")], { out: outDir(), maxPages: 7, fetch: { delayMs: 0 } });
    expect(few.pages).toBe(7);
    expect(few).toMatchObject({ pageLimitReached: true, stopReason: "page limit reached (7 pages)" });
    const shallowOut = outDir();
    await crawlSite([server.url("/eng/index.htm")], { out: shallowOut, maxDepth: 1, fetch: { delayMs: 0 } });
    const depths = readCrawlManifest(shallowOut).pages.map((p) => p.depth);
    expect(Math.max(...depths)).toBe(1);
    expect(depths.filter((d) => d === 0)).toHaveLength(1);
  });

  it("leaves a loadable crawl when interrupted", async () => {
    server = await startStaticServer(root);
    const controller = new AbortController();
    const out = outDir();
    const summary = await crawlSite([server.url("/eng/index.htm")], {
      out,
      fetch: { delayMs: 20 },
      signal: controller.signal,
      onProgress: (p) => {
        if (p.kept >= 5) controller.abort();
      },
    });
    expect(summary.interrupted).toBe(true);
    expect(summary.pages).toBeGreaterThanOrEqual(5);
    expect(summary.pages).toBeLessThan(54);
    expect(readCrawlManifest(out).finishedAt).toBeNull();
    expect(loadSite(out).pages.length).toBe(summary.pages);
  });

  it("refuses to overwrite a folder that is not an earlier crawl, and an earlier crawl without force", async () => {
    server = await startStaticServer(root);
    const start = [server.url("/eng/index.htm")];
    await expect(crawlSite(start, { out: root })).rejects.toThrow(UserError);
    await expect(crawlSite(start, { out: root })).rejects.toThrow(/not empty and holds no crawl/);
    const out = outDir();
    await crawlSite(start, { out, maxPages: 2, fetch: { delayMs: 0 } });
    const taken = await crawlSite(start, { out, maxPages: 2 }).catch((err: unknown) => err);
    expect(taken).toMatchObject({ kind: "crawl-folder-taken", message: `${out}: holds an earlier crawl` });
    expect((await describeFailure(taken)).message).toMatch(/add --force to replace it$/);
    const again = await crawlSite(start, { out, maxPages: 3, force: true, fetch: { delayMs: 0 } });
    expect(readCrawlManifest(out).pages).toHaveLength(again.pages);
    await expect(crawlSite(["ftp://example.org/"], { out: outDir() })).rejects.toThrow(/only http and https/);
  });
});
