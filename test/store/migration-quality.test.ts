import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { exportCorpus } from "../../src/export/index.js";
import { loadScorer } from "../../src/quality/index.js";
import { listCorpusPairs, openStore, pageSources, schemaVersion, raw, type Store, sql } from "../../src/store/index.js";
import { MIGRATIONS, migrationSql } from "../../src/store/migrations.js";
import { adminQuery, storeBackends } from "../helpers/postgres.js";

/*
 * Migration "corpus provenance and quality" (issue 24) on a store written by bitext at bb80c07 (schema 5):
 * test/fixtures/store/bb80c07-v5.db, made with that commit's migrations and three fetches, three records, two
 * pages and three sentence pairs. Nothing is lost, and what the new columns need is backfilled.
 */
let dir: string | undefined;
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function migrated(): Promise<Store> {
  dir = mkdtempSync(join(tmpdir(), "bitext-migrate-"));
  const path = join(dir, "bitext.db");
  copyFileSync(new URL("../fixtures/store/bb80c07-v5.db", import.meta.url), path);
  store = await openStore(path);
  return store;
}

describe("a store made before corpus quality and provenance", () => {
  it("migrates to the latest version without losing a row", async () => {
    const s = await migrated();
    expect(await schemaVersion(s)).toBe(MIGRATIONS.length);
    const count = async (t: string) => ((await s.sql.get(sql`SELECT count(*) AS n FROM ${raw(t)}`)) as { n: number }).n;
    expect([await count("fetches"), await count("records"), await count("pages"), await count("sentence_pairs")]).toEqual([3, 3, 2, 3]);
  });

  it("makes a queries row per distinct query, linked from its fetches and records", async () => {
    const s = await migrated();
    const queries = (await s.sql.all(sql`SELECT id, src_lang, tgt_lang, src_text, tgt_text FROM queries ORDER BY src_text`)) as Array<{
      id: number;
      src_lang: string;
      tgt_lang: string;
      src_text: string;
      tgt_text: string;
    }>;
    expect(queries.map((q) => [q.src_lang, q.tgt_lang, q.src_text, q.tgt_text])).toEqual([
      ["en", "zh", "Good morning", "早上好"],
      ["en", "zh", "I see.", "我明白了。"],
    ]);
    const unlinked = await s.sql.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM fetches f LEFT JOIN queries q ON q.id = f.query_id WHERE q.src_text IS NOT f.query_en`,
    );
    expect(unlinked!.n).toBe(0);
    const records = await s.sql.all(sql`SELECT r.engine, q.tgt_text FROM records r JOIN queries q ON q.id = r.query_id ORDER BY r.id`);
    expect(records).toEqual([
      { engine: "bing", tgt_text: "早上好" },
      { engine: "baidu", tgt_text: "早上好" },
      { engine: "bing", tgt_text: "我明白了。" },
    ]);
  });

  it("links each stored page to the records that point at it, and names the pairs' languages, unscored", async () => {
    const s = await migrated();
    const sources = await pageSources(s, [1, 2]);
    expect(sources.get(1)!.records.map((r) => [r.engine, r.rank, r.query.source])).toEqual([
      ["baidu", 3, "Good morning"],
      ["bing", 1, "Good morning"],
    ]);
    expect(sources.get(2)!.records.map((r) => r.fetchedAt)).toEqual(["2026-11-20T10:02:00.000Z"]);
    const pairs = await s.sql.all(sql`SELECT DISTINCT src_lang, tgt_lang, quality, reasons FROM sentence_pairs`);
    expect(pairs).toEqual([{ src_lang: "en", tgt_lang: "zh", quality: null, reasons: null }]);
    expect((await listCorpusPairs(s)).every((p) => p.quality === null && p.reasons === null)).toBe(true);
  });

  it("exports the old pairs scored on demand: the navigation pair is rejected by its rule", async () => {
    const s = await migrated();
    const r = await exportCorpus(s, { format: "jsonl", out: null, scorer: loadScorer({ a: "en", b: "zh" }) });
    expect(r.rejectedByReason["boilerplate"]).toBe(1);
    const lines = r.files[0]!.content.trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { en: string; engine: string });
    expect(lines.map((l) => l.en)).not.toContain("Home");
  });
});

/** The migration that adds provenance and quality, found by what it creates (its number changes as others are added). */
const QUALITY_MIGRATION = MIGRATIONS.findIndex((m) => migrationSql(m, "sqlite").includes("CREATE TABLE queries"));
const pg = storeBackends({ beforeAll, afterAll })[1]!;

describe.skipIf(pg.skip !== null)("a PostgreSQL store made before corpus quality and provenance", () => {
  it("migrates with the same backfill: queries, their links, page_records, the pairs' languages", async () => {
    const url = await pg.location();
    for (const m of MIGRATIONS.slice(0, QUALITY_MIGRATION)) await adminQuery(url, migrationSql(m, "postgres"));
    await adminQuery(url, "CREATE TABLE bitext_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
    await adminQuery(url, `INSERT INTO bitext_schema SELECT v, 'then' FROM generate_series(1, ${QUALITY_MIGRATION}) v`);
    const now = "2026-11-20T10:00:00.000Z";
    await adminQuery(url, `INSERT INTO runs (id, started_at, status) VALUES (1, '${now}', 'completed')`);
    await adminQuery(
      url,
      `INSERT INTO fetches (id, run_id, engine, query_en, query_zh, page, url, status, started_at, duration_ms) VALUES
       (1, 1, 'bing', 'Good morning', '早上好', 1, 'https://bing.example/1', 'ok', '${now}', 100),
       (2, 1, 'baidu', 'Good morning', '早上好', 1, 'https://baidu.example/1', 'ok', '${now}', 100)`,
    );
    await adminQuery(
      url,
      `INSERT INTO records (id, engine, query_en, query_zh, url, title, snippet, rank, page, first_seen, last_seen, first_fetch_id, last_fetch_id) VALUES
       (1, 'bing', 'Good morning', '早上好', 'https://site.example/a.html', 't', 's', 1, 1, '${now}', '${now}', 1, 1),
       (2, 'baidu', 'Good morning', '早上好', 'https://site.example/a.html', 't', 's', 3, 1, '${now}', '${now}', 2, 2)`,
    );
    await adminQuery(url, `INSERT INTO pages (id, url, fetched_at) VALUES (1, 'https://site.example/a.html', '${now}')`);
    await adminQuery(
      url,
      "INSERT INTO sentence_pairs (page_id, en, zh, en_norm, zh_norm) VALUES (1, 'Good morning!', '早上好！', 'goodmorning', '早上好')",
    );
    store = await openStore(url);
    const s = store;
    expect(await schemaVersion(s)).toBe(MIGRATIONS.length);
    expect(await s.sql.all(sql`SELECT src_lang, tgt_lang, src_text, tgt_text FROM queries`)).toEqual([
      { src_lang: "en", tgt_lang: "zh", src_text: "Good morning", tgt_text: "早上好" },
    ]);
    expect(await s.sql.get(sql`SELECT count(*) AS n FROM records WHERE query_id IS NULL`)).toEqual({ n: 0 });
    expect((await pageSources(s, [1])).get(1)!.records.map((r) => r.engine)).toEqual(["baidu", "bing"]);
    expect(await listCorpusPairs(s)).toEqual([expect.objectContaining({ en: "Good morning!", pageIds: [1], quality: null })]);
    expect(await s.sql.all(sql`SELECT src_lang, tgt_lang FROM sentence_pairs`)).toEqual([{ src_lang: "en", tgt_lang: "zh" }]);
  });
});
