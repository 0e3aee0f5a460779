import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCorpus } from "../../src/export/index.js";
import { parallelText } from "../../src/language-pair.js";
import { fetchBilingualPages } from "../../src/extract/index.js";
import { createFetcher } from "../../src/net/index.js";
import { listRecords, openStore, raw, type Store, setClassification, sql } from "../../src/store/index.js";
import { fixture } from "../extract/helpers.js";
import { storeHarvestedRecords } from "../helpers/record-store.js";
import { type LocalServer, startServer } from "../net/local-server.js";

/*
 * A small harvest offline: result records of two engines pointing at real bilingual pages on a local server,
 * fetch-pages, then the corpus: every pair scored, the rejected ones with their reasons, and every JSONL line
 * naming the query, engine, record and page it came from, as the store holds them.
 */
const html = (name: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(fixture(name));
};

describe("a corpus you can trust: scored, filtered and traceable", async () => {
  let server: LocalServer;
  let store: Store;
  const dir = mkdtempSync(join(tmpdir(), "bitext-quality-"));

  beforeAll(async () => {
    server = await startServer({
      "/office.html": html("feng2011-figure3.html"),
      "/news.html": html("bilingual-news.html"),
      "/daily.html": html("learning-daily-sentences.html"),
    });
    store = await openStore(join(dir, "bitext.db"));
    const urls = ["/office.html", "/news.html", "/daily.html"];
    // The query as a harvest read it from a list; baidu's harvest read it from another list, later.
    const query = (file: string, line: number, note: string | null) => ({ ...parallelText("Good morning", "早上好"), file, line, note });
    await storeHarvestedRecords(
      store,
      "bing",
      urls.map((u, i) => ({ url: server.url(u), title: `t${i}`, snippet: "s", rank: i + 1 })),
      query("/lists/greetings.tsv", 3, "tatoeba #1"),
    );
    await storeHarvestedRecords(
      store,
      "baidu",
      [{ url: server.url("/news.html"), title: "n", snippet: "s", rank: 4 }],
      query("/lists/other.tsv", 9, null),
    );
    for (const r of await listRecords(store)) await setClassification(store, r.id, { label: "bilingual", probability: 0.9, model: "test" });
    await fetchBilingualPages(store, { fetcher: createFetcher({ delayMs: 0 }) });
  });

  afterAll(async () => {
    await store?.close();
    await server?.close();
  });

  it("stores the query once, in its languages, with the first list it was read from, linked from every fetch and record", async () => {
    expect(await store.sql.all(sql`SELECT src_lang, tgt_lang, src_text, tgt_text, source_file, source_line, note FROM queries`)).toEqual([
      {
        src_lang: "en",
        tgt_lang: "zh",
        src_text: "Good morning",
        tgt_text: "早上好",
        source_file: "/lists/greetings.tsv",
        source_line: 3,
        note: "tatoeba #1",
      },
    ]);
    const unlinked = async (t: string) =>
      (await store.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${raw(t)} WHERE query_id IS NULL`))!.n;
    expect([await unlinked("fetches"), await unlinked("records")]).toEqual([0, 0]);
  });

  it("scores every stored pair when it is extracted", async () => {
    const rows = await store.sql.all<{
      quality: number | null;
      reasons: string | null;
      src_lang: string;
      tgt_lang: string;
    }>(sql`SELECT quality, reasons, src_lang, tgt_lang FROM sentence_pairs`);
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      expect(r.quality).toBeGreaterThanOrEqual(0);
      expect(r.quality).toBeLessThanOrEqual(1);
      expect(Array.isArray(JSON.parse(r.reasons!))).toBe(true);
      expect([r.src_lang, r.tgt_lang]).toEqual(["en", "zh"]);
    }
  });

  it("keeps no pair a rule is against, and writes the rejected pairs with their reasons", async () => {
    const rejectedFile = join(dir, "rejected.jsonl");
    const r = await exportCorpus(store, { format: "jsonl", out: null, rejected: rejectedFile });
    const rejected = readFileSync(rejectedFile, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { en: string; reasons: string[] });
    expect(rejected.length).toBe(r.rejected);
    expect(rejected.every((x) => x.reasons.length > 0)).toBe(true);
    const kept = r.files[0]!.content.trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { en: string; quality: number });
    expect(kept.length).toBe(r.pairs);
    expect(kept.length).toBeGreaterThan(0);
    const keptEn = new Set(kept.map((k) => k.en));
    for (const x of rejected) expect(keptEn.has(x.en)).toBe(false);
    const total = (await store.sql.get<{ n: number }>(sql`SELECT count(DISTINCT en_norm || '	' || zh_norm) AS n FROM sentence_pairs`))!.n;
    expect(r.pairs + r.rejected).toBe(total);
    expect(Object.values(r.rejectedByReason).reduce((s, n) => s + n, 0)).toBeGreaterThanOrEqual(r.rejected);
  });

  it("names on every JSONL line the query, engine, fetch time, rank, record URL and page URL the store holds", async () => {
    const r = await exportCorpus(store, { format: "jsonl", out: null });
    const lines = r.files[0]!.content.trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const records = (pageUrl: string) =>
      store.sql.all(
        sql`SELECT r.engine, r.url, r.rank, r.query_en, r.query_zh, f.started_at, q.source_file, q.source_line, q.note
         FROM page_records pr JOIN records r ON r.id = pr.record_id JOIN queries q ON q.id = r.query_id
         JOIN fetches f ON f.id = r.first_fetch_id JOIN pages p ON p.id = pr.page_id WHERE coalesce(p.final_url, p.url) = ${pageUrl}`,
      );
    for (const line of lines) {
      const pageUrl = line["page_url"] as string;
      const rows = (await records(pageUrl)) as Array<{
        engine: string;
        url: string;
        rank: number;
        query_en: string;
        query_zh: string;
        started_at: string;
        source_file: string;
        source_line: number;
        note: string | null;
      }>;
      expect(rows.length).toBeGreaterThan(0);
      const match = rows.find((x) => x.engine === line["engine"] && x.url === line["record_url"]);
      expect(match).toBeDefined();
      expect(line["query"]).toEqual({ en: match!.query_en, zh: match!.query_zh });
      expect([line["query_file"], line["query_line"], line["query_note"]]).toEqual([match!.source_file, match!.source_line, match!.note]);
      expect(line["rank"]).toBe(match!.rank);
      expect(line["fetched_at"]).toBe(match!.started_at);
      expect(line["method"]).toEqual(expect.any(String));
      expect(line["quality"]).toEqual(expect.any(Number));
    }
    // The news page was found by both engines: its pairs name both records.
    const news = lines.find((l) => l["page_url"] === server.url("/news.html"))!;
    const engines = (news["sources"] as Array<{ records: Array<{ engine: string }> }>).flatMap((s) => s.records.map((x) => x.engine));
    expect(engines.sort()).toEqual(["baidu", "bing"]);
  });

  it("TSV gets the columns asked for, provenance included", async () => {
    const columns = ["en", "zh", "quality", "query_en", "engine", "record_url", "page_url", "query_file", "query_line", "query_note"];
    const rows = (await exportCorpus(store, { format: "tsv", out: null, columns })).files[0]!.content.trimEnd().split("\n");
    expect(rows[0]).toBe(columns.join("\t"));
    const news = rows
      .slice(1)
      .map((r) => r.split("\t"))
      .filter((r) => r[6] === server.url("/news.html"));
    expect(news.length).toBeGreaterThan(0);
    for (const r of news) {
      expect(r[3]).toBe("Good morning");
      expect(["bing", "baidu"]).toContain(r[4]);
      expect(r[5]).toBe(server.url("/news.html"));
      expect(Number(r[2])).toBeGreaterThan(0);
      expect(r.slice(7)).toEqual(["/lists/greetings.tsv", "3", "tatoeba #1"]);
    }
  });

  it("TMX carries the provenance as <prop>s and Moses gets a .meta.jsonl sidecar line for line", async () => {
    const tmx = (await exportCorpus(store, { format: "tmx", out: null })).files[0]!.content;
    expect(tmx).toContain('<prop type="x-engine">bing</prop>');
    expect(tmx).toContain(`<prop type="x-page-url">${server.url("/news.html")}</prop>`);
    expect(tmx).toContain('<prop type="x-quality">');
    expect(tmx).toContain('<prop type="x-query-file">/lists/greetings.tsv</prop>');
    expect(tmx).toContain('<prop type="x-query-line">3</prop>');
    expect(tmx).toContain('<prop type="x-query-note">tatoeba #1</prop>');
    const moses = (await exportCorpus(store, { format: "moses", out: null })).files;
    expect(moses.map((f) => f.suffix)).toEqual([".en", ".zh", ".meta.jsonl"]);
    const n = (s: string) => s.trimEnd().split("\n").length;
    expect(n(moses[2]!.content)).toBe(n(moses[0]!.content));
  });
});
