import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exportCorpus } from "../../src/extract/corpus.js";
import { loadScorer } from "../../src/quality/index.js";
import { listCorpusPairs, openStore, pageSources, schemaVersion, type Store } from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations.js";

/*
 * Migration "corpus provenance and quality" (issue 24) on a store written by bitext at bb80c07 (schema 5):
 * test/fixtures/store/bb80c07-v5.db, made with that commit's migrations and three fetches, three records, two
 * pages and three sentence pairs. Nothing is lost, and what the new columns need is backfilled.
 */
let dir: string | undefined;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function migrated(): Store {
  dir = mkdtempSync(join(tmpdir(), "bitext-migrate-"));
  const path = join(dir, "bitext.db");
  copyFileSync(new URL("../fixtures/store/bb80c07-v5.db", import.meta.url), path);
  store = openStore(path);
  return store;
}

describe("a store made before corpus quality and provenance", () => {
  it("migrates to the latest version without losing a row", () => {
    const s = migrated();
    expect(schemaVersion(s)).toBe(MIGRATIONS.length);
    const count = (t: string) => (s.sql.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    expect([count("fetches"), count("records"), count("pages"), count("sentence_pairs")]).toEqual([3, 3, 2, 3]);
  });

  it("makes a queries row per distinct query, linked from its fetches and records", () => {
    const s = migrated();
    const queries = s.sql.prepare("SELECT id, src_lang, tgt_lang, src_text, tgt_text FROM queries ORDER BY src_text").all() as Array<{
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
    const unlinked = s.sql.prepare(
      "SELECT count(*) AS n FROM fetches f LEFT JOIN queries q ON q.id = f.query_id WHERE q.src_text IS NOT f.query_en",
    );
    expect((unlinked.get() as { n: number }).n).toBe(0);
    const records = s.sql.prepare("SELECT r.engine, q.tgt_text FROM records r JOIN queries q ON q.id = r.query_id ORDER BY r.id").all();
    expect(records).toEqual([
      { engine: "bing", tgt_text: "早上好" },
      { engine: "baidu", tgt_text: "早上好" },
      { engine: "bing", tgt_text: "我明白了。" },
    ]);
  });

  it("links each stored page to the records that point at it, and names the pairs' languages, unscored", () => {
    const s = migrated();
    const sources = pageSources(s, [1, 2]);
    expect(sources.get(1)!.records.map((r) => [r.engine, r.rank, r.query.source])).toEqual([
      ["baidu", 3, "Good morning"],
      ["bing", 1, "Good morning"],
    ]);
    expect(sources.get(2)!.records.map((r) => r.fetchedAt)).toEqual(["2026-11-20T10:02:00.000Z"]);
    const pairs = s.sql.prepare("SELECT DISTINCT src_lang, tgt_lang, quality, reasons FROM sentence_pairs").all();
    expect(pairs).toEqual([{ src_lang: "en", tgt_lang: "zh", quality: null, reasons: null }]);
    expect(listCorpusPairs(s).every((p) => p.quality === null && p.reasons === null)).toBe(true);
  });

  it("exports the old pairs scored on demand: the navigation pair is rejected by its rule", () => {
    const s = migrated();
    const r = exportCorpus(s, { format: "jsonl", out: null, scorer: loadScorer({ a: "en", b: "zh" }) });
    expect(r.rejectedByReason["boilerplate"]).toBe(1);
    const lines = r.files[0]!.content.trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { en: string; engine: string });
    expect(lines.map((l) => l.en)).not.toContain("Home");
  });
});
