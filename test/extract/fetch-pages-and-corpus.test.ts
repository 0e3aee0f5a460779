import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCorpus } from "../../src/export/index.js";
import { fetchBilingualPages } from "../../src/extract/index.js";
import { loadPageInput } from "../../src/extract/index.js";
import { createFetcher, FetchError } from "../../src/net/index.js";
import { getPage, listCorpusPairs, listPagePairs, listRecords, openStore, type Store, setClassification } from "../../src/store/index.js";
import { storeHarvestedRecords } from "../helpers/record-store.js";
import { type LocalServer, startServer } from "../net/local-server.js";
import { fixture } from "./helpers.js";

const html = (name: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(fixture(name));
};

describe("bitext fetch-pages and export corpus", async () => {
  let server: LocalServer;
  let store: Store;
  const dir = mkdtempSync(join(tmpdir(), "bitext-extract-"));

  beforeAll(async () => {
    server = await startServer({
      "/robots.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("User-agent: *\nDisallow: /private/\n");
      },
      "/office.html": html("feng2011-figure3.html"),
      "/mirror/office.html": html("feng2011-figure3.html"),
      "/news.html": html("bilingual-news.html"),
      "/private/secret.html": html("bilingual-news.html"),
      "/gone.html": (_req, res) => {
        res.writeHead(404);
        res.end();
      },
      "/monolingual.html": html("glossary-table.html"),
    });
    store = await openStore(join(dir, "bitext.db"));
    const urls = ["/office.html", "/mirror/office.html", "/news.html", "/private/secret.html", "/gone.html", "/monolingual.html"];
    await storeHarvestedRecords(
      store,
      "bing",
      urls.map((u, i) => ({ url: server.url(u), title: `t${i}`, snippet: "s", rank: i + 1 })),
    );
    for (const r of await listRecords(store)) {
      const bilingual = !r.url.endsWith("/monolingual.html");
      await setClassification(store, r.id, {
        label: bilingual ? "bilingual" : "monolingual",
        probability: bilingual ? 0.9 : 0.1,
        model: "test",
      });
    }
  });

  afterAll(async () => {
    await store?.close();
    await server?.close();
  });

  it("fetches the bilingual records' pages politely, stores them and their pairs", async () => {
    const pages: string[] = [];
    const summary = await fetchBilingualPages(store, {
      fetcher: createFetcher({ delayMs: 0, userAgent: "bitext-test" }),
      onPage: (o) => pages.push(o.url),
    });
    expect(summary.urls).toBe(5); // the monolingual record's page is not fetched
    expect(summary.fetched).toBe(3);
    expect(summary.failed).toBe(2); // robots.txt disallows one, one is gone
    expect(server.requests.some((r) => r.path === "/private/secret.html")).toBe(false);
    expect(server.requests.some((r) => r.path === "/monolingual.html")).toBe(false);
    const office = (await getPage(store, server.url("/office.html")))!;
    expect(office.httpStatus).toBe(200);
    expect((await listPagePairs(store, office.id)).map((p) => p.en)).toContain("Can't complain!");
    expect((await getPage(store, server.url("/gone.html")))!.error).toMatch(/status/);
    expect(pages).toHaveLength(5);
  });

  it("does not download stored pages again, but re-extracts them (no duplicate pairs)", async () => {
    const before = server.requests.length;
    const pairsBefore = (await listCorpusPairs(store)).reduce((n, p) => n + p.occurrences, 0);
    const summary = await fetchBilingualPages(store, { fetcher: createFetcher({ delayMs: 0 }) });
    expect(summary.alreadyStored).toBe(3);
    expect(
      server.requests.slice(before).filter((r) => r.path.endsWith(".html") && !r.path.includes("gone") && !r.path.includes("private")),
    ).toEqual([]);
    expect((await listCorpusPairs(store)).reduce((n, p) => n + p.occurrences, 0)).toBe(pairsBefore);
  });

  it("bitext extract URL: loads a page through the polite fetcher, and refuses what robots.txt forbids", async () => {
    const fetcher = createFetcher({ delayMs: 0 });
    const page = await loadPageInput(server.url("/news.html"), () => fetcher);
    expect(page.source).toBe(server.url("/news.html"));
    expect(page.html).toContain("Beijing opens its longest subway line");
    await expect(loadPageInput(server.url("/private/secret.html"), () => fetcher)).rejects.toBeInstanceOf(FetchError);
  });

  it("exports the corpus deduplicated, keeping both URLs of a page found twice", async () => {
    const out = join(dir, "corpus");
    // Every pair the hard rules let through (this test is about deduplication, not the scorer's threshold).
    const result = await exportCorpus(store, { format: "tsv", out, minQuality: 0 });
    const lines = readFileSync(`${out}.tsv`, "utf8").trimEnd().split("\n");
    expect(lines[0]).toBe("source_url\ten\tzh\tscore\tmethod");
    expect(lines.length - 1).toBe(result.pairs);
    const complain = lines.find((l) => l.includes("Can't complain!"))!;
    expect(complain.split("\t")[0]).toBe(`${server.url("/office.html")} ${server.url("/mirror/office.html")}`);
    expect(lines.filter((l) => l.includes("Can't complain!"))).toHaveLength(1);
    expect(result.multiSource).toBeGreaterThanOrEqual(7); // the office page's seven sentence pairs (its menu is navigation)
  });

  it("splits paragraph pairs into sentence pairs with sentences: true", async () => {
    const paragraphs = await exportCorpus(store, { format: "jsonl", out: null });
    const sentences = await exportCorpus(store, { format: "jsonl", out: null, sentences: true });
    expect(sentences.pairs).toBeGreaterThan(paragraphs.pairs);
    const objs = sentences.files[0]!.content.trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objs).toContainEqual(
      expect.objectContaining({
        en: "Trains will run every three minutes during rush hours, and the fare will be calculated by distance.",
      }),
    );
    expect(objs).toContainEqual(expect.objectContaining({ en: "Many residents welcomed the opening." }));
  });

  it("writes Moses files with equal line counts", async () => {
    const out = join(dir, "moses");
    await exportCorpus(store, { format: "moses", out, minQuality: 0 });
    const en = readFileSync(`${out}.en`, "utf8").split("\n");
    const zh = readFileSync(`${out}.zh`, "utf8").split("\n");
    expect(en.length).toBe(zh.length);
    expect(en.length).toBeGreaterThan(10);
  });
});
