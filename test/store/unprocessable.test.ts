import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchBilingualPages } from "../../src/extract/index.js";
import { MAX_ELEMENTS } from "../../src/html/index.js";
import { createFetcher } from "../../src/net/index.js";
import { getPage, listRecords, openStore, type Store, setClassification } from "../../src/store/index.js";
import { fixture } from "../extract/helpers.js";
import { storeHarvestedRecords } from "../helpers/record-store.js";
import { type LocalServer, startServer } from "../net/local-server.js";

/** A stored page that cannot be processed is marked with its reason, and later runs skip it. */
describe("stored pages that cannot be processed", async () => {
  let server: LocalServer;
  let store: Store;
  const dir = mkdtempSync(join(tmpdir(), "bitext-unprocessable-"));
  const hostile = `<html><body>${"<div>".repeat(MAX_ELEMENTS + 5)}x`;

  beforeAll(async () => {
    const serve = (body: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(body);
    };
    server = await startServer({ "/deep.html": serve(hostile), "/office.html": serve(fixture("feng2011-figure3.html")) });
    store = await openStore(join(dir, "bitext.db"));
    await storeHarvestedRecords(
      store,
      "bing",
      ["/deep.html", "/office.html"].map((u, i) => ({ url: server.url(u), title: `t${i}`, snippet: "s", rank: i + 1 })),
    );
    for (const r of await listRecords(store)) await setClassification(store, r.id, { label: "bilingual", probability: 0.9, model: "test" });
  });

  afterAll(async () => {
    await store?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fetch-pages keeps going past a hostile page, marks it, and never processes it again", async () => {
    const fetcher = createFetcher({ delayMs: 0, userAgent: "bitext-test", robots: false });
    const first = await fetchBilingualPages(store, { fetcher });
    // Both are downloaded and stored; the hostile one is marked and skipped rather than crashing the run.
    expect(first).toMatchObject({ fetched: 1, skipped: 1, failed: 0 });
    expect(first.pages.find((p) => p.url.endsWith("/deep.html"))).toMatchObject({ status: "skipped", pairs: 0 });
    expect(first.pairs).toBeGreaterThan(0);
    const marked = await getPage(store, server.url("/deep.html"));
    expect(marked?.unprocessable).toBe(`too-many-elements: more than ${MAX_ELEMENTS.toLocaleString("en")} elements`);
    expect((await getPage(store, server.url("/office.html")))?.unprocessable).toBeNull();

    const second = await fetchBilingualPages(store, { fetcher });
    expect(second).toMatchObject({ alreadyStored: 1, skipped: 1, failed: 0 });
    expect(second.pages.find((p) => p.url.endsWith("/deep.html"))).toEqual({
      url: server.url("/deep.html"),
      status: "skipped",
      error: `too-many-elements: more than ${MAX_ELEMENTS.toLocaleString("en")} elements`,
      pairs: 0,
    });

    // Downloading it again (--refetch) clears the mark until it is judged again.
    const again = await fetchBilingualPages(store, { fetcher, refetch: true });
    expect(again).toMatchObject({ fetched: 1, skipped: 1 });
    expect((await getPage(store, server.url("/deep.html")))?.unprocessable).toBe(
      `too-many-elements: more than ${MAX_ELEMENTS.toLocaleString("en")} elements`,
    );
  });
});
