/**
 * fetch-pages downloads a page once: a record whose link redirects and a record linking straight to where the
 * redirect leads share one download (issue 11: one download per page).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchBilingualPages } from "../../src/extract/index.js";
import { createFetcher } from "../../src/net/index.js";
import { getPage, listRecords, openStore, type Store, setClassification } from "../../src/store/index.js";
import { storeHarvestedRecords } from "../helpers/record-store.js";
import { type LocalServer, startServer } from "../net/local-server.js";
import { fixture } from "./helpers.js";

describe("fetch-pages and redirects", async () => {
  let server: LocalServer;
  let store: Store;
  const dir = mkdtempSync(join(tmpdir(), "bitext-redirect-"));

  beforeAll(async () => {
    server = await startServer({
      "/robots.txt": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n"),
      "/link": (_req, res) => res.writeHead(301, { location: "/office.html" }).end(),
      "/office.html": (_req, res) =>
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(fixture("feng2011-figure3.html")),
    });
    store = await openStore(join(dir, "bitext.db"));
    await storeHarvestedRecords(
      store,
      "sim",
      // The engine's redirect link first, then a record that links straight to the page it leads to.
      ["/link", "/office.html"].map((u, i) => ({ url: server.url(u), title: `t${i}`, snippet: "s", rank: i + 1 })),
    );
    for (const r of await listRecords(store)) await setClassification(store, r.id, { label: "bilingual", probability: 0.9, model: "test" });
  });

  afterAll(async () => {
    await store?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("downloads the page a redirect led to once, and reuses it for the record linking to it directly", async () => {
    const summary = await fetchBilingualPages(store, { fetcher: createFetcher({ delayMs: 0 }), concurrency: 1 });
    expect(summary.urls).toBe(2);
    expect(summary.fetched).toBe(1);
    expect(summary.alreadyStored).toBe(1);
    expect(server.requests.filter((r) => r.path === "/office.html")).toHaveLength(1);
    expect((await getPage(store, server.url("/link")))!.finalUrl).toBe(server.url("/office.html"));
    expect(summary.pages.every((p) => p.pairs > 0)).toBe(true);
  });
});
