import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { describeFailure } from "../../src/cli/errors.js";
import { UserError } from "../../src/errors.js";
import { MAX_ELEMENTS } from "../../src/html/index.js";
import { crawlSite, loadSite, readCrawlManifest } from "../../src/site/index.js";
import { spawnCli } from "../helpers/cli.js";
import { type Handler, type LocalServer, startServer, startStaticServer } from "../net/local-server.js";
import { generateSite, readSentencePairs, SCHEMES, writeSite } from "./site-generator.js";

const sentences = readSentencePairs(new URL("../fixtures/sites/tatoeba-sample.tsv", import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), "bitext-crawl-robust-"));
const root = join(tmp, "www");
let server: LocalServer | undefined;
let n = 0;
const outDir = () => join(tmp, `out-${++n}`);

beforeAll(() => {
  writeSite(generateSite({ seed: 3, scheme: SCHEMES["eng:chi"]!, pairs: 20, onlyEn: 2, sentences }), root);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const html =
  (body: string): Handler =>
  (_req, res) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
const article = (i: number) =>
  `<p>${sentences
    .slice(i * 4, i * 4 + 4)
    .map((s) => s.en)
    .join(" ")}</p>`;

/** A process of its own: the test kills it with kill -9. */
function bitext(args: string[]): ChildProcess {
  return spawnCli(args, { stdio: "ignore" });
}

describe("a crawl keeps what it has", () => {
  it("an interrupted crawl is resumed by crawling again into its folder: every page once, none fetched twice", async () => {
    server = await startStaticServer(root);
    const start = [server.url("/eng/index.htm")];
    const controller = new AbortController();
    const out = outDir();
    const first = await crawlSite(start, {
      out,
      fetch: { delayMs: 10 },
      signal: controller.signal,
      onProgress: (p) => {
        if (p.kept >= 8) controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    const kept = readCrawlManifest(out).pages.map((p) => new URL(p.url).pathname);
    const before = server.requests.length;
    const second = await crawlSite(start, { out, fetch: { delayMs: 0 } });
    expect(second.resumed).toBe(kept.length);
    expect(second.pages).toBe(54); // as an uninterrupted crawl of this site
    expect(readCrawlManifest(out).finishedAt).not.toBeNull();
    const again = server.requests.slice(before).map((r) => r.path);
    expect(again.filter((p) => kept.includes(p))).toEqual([]);
    expect(loadSite(out).pages).toHaveLength(54);
    // A finished crawl is not resumed: it is replaced only with --force.
    await expect(crawlSite(start, { out })).rejects.toMatchObject({ kind: "crawl-folder-taken" });
  });

  it("a crawl killed with kill -9 leaves a loadable folder that the next crawl resumes", async () => {
    server = await startStaticServer(root);
    const out = outDir();
    const child = bitext(["site", "crawl", server.url("/eng/index.htm"), "--out", out, "--delay", "150ms", "--json"]);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    while (server.requests.filter((r) => r.path.endsWith(".htm")).length < 6) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGKILL");
    await exited;
    expect(existsSync(join(out, "site.json"))).toBe(true);
    const saved = readCrawlManifest(out);
    expect(saved.finishedAt).toBeNull();
    expect(saved.pages.length).toBeGreaterThan(0);
    expect(loadSite(out).pages).toHaveLength(saved.pages.length);
    const resumed = await crawlSite([server.url("/eng/index.htm")], { out, fetch: { delayMs: 0 } });
    expect(resumed.resumed).toBe(saved.pages.length);
    expect(resumed.pages).toBe(54);
  }, 60_000);
});

describe("a crawl bounds its work", () => {
  it("leaves a calendar-like trap (an endless next chain of near-empty pages) after a few pages, and says why", async () => {
    const calendar: Handler = (req, res) => {
      const day = Number(new URL(req.url ?? "/", "http://x").searchParams.get("day") ?? "0");
      html(`<html><body><h1>Events</h1><p>Day ${day}: no events.</p><a href="/calendar?day=${day + 1}">next day</a></body></html>`)(
        req,
        res,
      );
    };
    const home = `<html><body><h1>News</h1>${article(0)}<a href="/a.html">A</a> <a href="/calendar?day=0">Calendar</a></body></html>`;
    server = await startServer({ "/": html(home), "/a.html": html(`<html><body><h1>A</h1>${article(1)}</body></html>`) }, calendar);
    const summary = await crawlSite([server.url("/")], { out: outDir(), fetch: { delayMs: 0, robots: false }, sitemaps: false });
    const calendarRequests = server.requests.filter((r) => r.path.startsWith("/calendar")).length;
    expect(calendarRequests).toBeGreaterThanOrEqual(3);
    expect(calendarRequests).toBeLessThanOrEqual(6);
    expect(summary.barren).toBe(1);
    expect(summary.stopReason).toMatch(/^no pages left to visit; 1 barren page/);
    expect(summary.pages).toBe(2);
  });

  it("skips a page past the caps with its reason and keeps crawling", async () => {
    const hostile = `<html><body>${"<div>".repeat(MAX_ELEMENTS + 10)}deep</body></html>`;
    const home = `<html><body><h1>News</h1>${article(0)}<a href="/deep.html">deep</a> <a href="/a.html">A</a></body></html>`;
    server = await startServer({
      "/": html(home),
      "/deep.html": html(hostile),
      "/a.html": html(`<html><body><h1>A</h1>${article(1)}</body></html>`),
    });
    const out = outDir();
    const summary = await crawlSite([server.url("/")], { out, fetch: { delayMs: 0, robots: false }, sitemaps: false });
    expect(summary.pages).toBe(2);
    const reasons = Object.fromEntries(readCrawlManifest(out).skipped.map((s) => [new URL(s.url).pathname, s.reason]));
    expect(reasons["/deep.html"]).toBe(`cannot be processed: too-many-elements: more than ${MAX_ELEMENTS.toLocaleString("en")} elements`);
  });

  it("gives a redirect's robots skip reason whole, naming where the redirect led", async () => {
    const home = `<html><body><h1>News</h1>${article(0)}<a href="/r">short</a></body></html>`;
    server = await startServer({
      "/robots.txt": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private/\n"),
      "/": html(home),
      "/r": (_req, res) => res.writeHead(302, { location: "/private/a-much-longer-target-path.html" }).end(),
    });
    const out = outDir();
    await crawlSite([server.url("/")], { out, fetch: { delayMs: 0 }, sitemaps: false });
    const skip = readCrawlManifest(out).skipped.find((s) => s.url === server!.url("/r"));
    expect(skip?.reason).toBe(`robots: disallowed by robots.txt (at ${server.url("/private/a-much-longer-target-path.html")})`);
  });

  it("an unreachable start URL is a clear error, not an empty crawl", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const start = `http://127.0.0.1:${port}/`;
    const err = await crawlSite([start], { out: outDir(), fetch: { delayMs: 0, robots: false }, sitemaps: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).kind).toBe("start-unreachable");
    expect((await describeFailure(err)).exitCode).toBe(69); // the CLI's table: EX_UNAVAILABLE
    expect((err as UserError).message).toMatch(
      new RegExp(`^${start}: cannot crawl: the start page is unreachable \\(network: network error`),
    );
  });
});
