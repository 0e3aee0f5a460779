/**
 * fetch-pages runs on the shared scheduler, a lane per host: several hosts at once (up to `concurrency`),
 * but one page of a host at a time, in the order of the records.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchBilingualPages } from "../../src/extract/index.js";
import { DEFAULT_FETCHER_OPTIONS, type FetchedPage, type Fetcher } from "../../src/net/index.js";
import { listRecords, openStore, type Store, setClassification } from "../../src/store/index.js";
import { storeHarvestedRecords } from "../helpers/record-store.js";

const HOSTS = ["a.example", "b.example", "c.example"];
const URLS = HOSTS.flatMap((h) => [1, 2, 3].map((i) => `https://${h}/p${i}.html`));

/** A fetcher that answers after a few ms and records what was in flight at each start. */
function recordingFetcher() {
  const inflight = new Map<string, number>();
  const seen = { maxTotal: 0, maxPerHost: 0, order: [] as string[] };
  const fetcher: Fetcher = {
    options: DEFAULT_FETCHER_OPTIONS,
    allowed: async () => true,
    sitemaps: async () => [],
    async fetch(url: string): Promise<FetchedPage> {
      const host = new URL(url).host;
      inflight.set(host, (inflight.get(host) ?? 0) + 1);
      seen.order.push(url);
      seen.maxPerHost = Math.max(seen.maxPerHost, inflight.get(host)!);
      seen.maxTotal = Math.max(
        seen.maxTotal,
        [...inflight.values()].reduce((a, b) => a + b, 0),
      );
      await new Promise((r) => setTimeout(r, 15));
      inflight.set(host, inflight.get(host)! - 1);
      const html = "<html><body><p>Good morning.</p><p>早上好。</p></body></html>";
      return {
        url,
        finalUrl: url,
        status: 200,
        contentType: "text/html",
        bytes: new TextEncoder().encode(html),
        decoded: null,
      } as unknown as FetchedPage;
    },
  };
  return { fetcher, seen };
}

describe("fetch-pages on the shared scheduler", async () => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-fetch-hosts-"));
  let store: Store;

  beforeAll(async () => {
    store = await openStore(join(dir, "bitext.db"));
    await storeHarvestedRecords(
      store,
      "sim",
      URLS.map((url, i) => ({ url, title: `t${i}`, snippet: "s", rank: i + 1 })),
    );
    for (const r of await listRecords(store)) await setClassification(store, r.id, { label: "bilingual", probability: 0.9, model: "test" });
  });

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fetches hosts side by side, one page of a host at a time, each host's pages in order", async () => {
    const { fetcher, seen } = recordingFetcher();
    const summary = await fetchBilingualPages(store, { fetcher, concurrency: 4, refetch: true });
    expect(summary.fetched).toBe(URLS.length);
    expect(seen.maxPerHost).toBe(1);
    expect(seen.maxTotal).toBe(HOSTS.length);
    for (const h of HOSTS) expect(seen.order.filter((u) => u.includes(h))).toEqual([1, 2, 3].map((i) => `https://${h}/p${i}.html`));
  });

  it("holds to the concurrency across hosts", async () => {
    const { fetcher, seen } = recordingFetcher();
    await fetchBilingualPages(store, { fetcher, concurrency: 2, refetch: true });
    expect(seen.maxTotal).toBe(2);
    expect(seen.order).toHaveLength(URLS.length);
  });

  it("starts no page once stopped (Ctrl-C), stores the pages in flight, and leaves the rest to the next run", async () => {
    const fresh = await openStore(join(dir, "stopped.db"));
    try {
      await storeHarvestedRecords(
        fresh,
        "sim",
        URLS.map((url, i) => ({ url, title: `t${i}`, snippet: "s", rank: i + 1 })),
      );
      for (const r of await listRecords(fresh))
        await setClassification(fresh, r.id, { label: "bilingual", probability: 0.9, model: "test" });
      const stop = new AbortController();
      const first = await fetchBilingualPages(fresh, {
        fetcher: recordingFetcher().fetcher,
        concurrency: 2,
        signal: stop.signal,
        onPage: () => stop.abort(),
      });
      expect(first.interrupted).toBe(true);
      // The two pages in flight when the first finished are stored; nothing else started.
      expect(first.fetched).toBe(2);
      const second = await fetchBilingualPages(fresh, { fetcher: recordingFetcher().fetcher, concurrency: 2 });
      expect(second).toMatchObject({ interrupted: false, fetched: URLS.length - 2, alreadyStored: 2 });
    } finally {
      await fresh.close();
    }
  });
});
