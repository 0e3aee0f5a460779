import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { listFetches, listRecords, openStore, pageTaskKey, recordFetch, schemaVersion } from "../../src/store/index.js";
import { MIGRATIONS, migrationSql } from "../../src/store/migrations.js";
import { parallelText } from "../../src/language-pair.js";

/**
 * A store written before page tasks had a key (schema 5: the shipped migrations are never edited, so running the
 * first five is the old schema), holding what the paused-worker defect left behind: one page stored completed
 * twice. Opening it with this bitext migrates it without losing a row, and from then on the key holds.
 */
const dir = mkdtempSync(join(tmpdir(), "bitext-old-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function oldStore(path: string): void {
  const db = new Database(path);
  for (const m of MIGRATIONS.slice(0, 5)) db.exec(migrationSql(m, "sqlite"));
  db.pragma("user_version = 5");
  db.prepare("INSERT INTO runs (id, started_at, status) VALUES (1, '2026-11-20T10:00:00Z', 'completed')").run();
  const fetch = db.prepare(
    `INSERT INTO fetches (id, run_id, engine, query_en, query_zh, page, url, status, started_at, duration_ms, record_count)
     VALUES (?, 1, 'sim-list', 'I see.', '我明白了。', 1, 'http://127.0.0.1/s?q=x', 'ok', ?, 500, 1)`,
  );
  fetch.run(1, "2026-11-20T10:00:01Z");
  fetch.run(2, "2026-11-20T10:00:21Z");
  db.prepare(
    `INSERT INTO records (engine, query_en, query_zh, url, title, snippet, rank, page, first_seen, last_seen, first_fetch_id,
       last_fetch_id, seen_count) VALUES ('sim-list', 'I see.', '我明白了。', 'http://a.example/', 'A', 'a', 1, 1, ?, ?, 1, 2, 2)`,
  ).run("2026-11-20T10:00:01Z", "2026-11-20T10:00:21Z");
  db.close();
}

describe("a store written by an earlier bitext", () => {
  it("migrates to the latest schema keeping every row, then stores a page task completed once", async () => {
    const path = join(dir, "old.db");
    oldStore(path);
    const store = await openStore(path);
    try {
      expect(await schemaVersion(store)).toBe(MIGRATIONS.length);
      expect((await listFetches(store)).map((f) => f.id)).toEqual([1, 2]);
      expect(await listRecords(store)).toHaveLength(1);
      const key = pageTaskKey("demo@2026-11-26", "sim-list", parallelText("I see.", "我明白了。"), 1);
      const fetch = {
        runId: 1,
        engine: "sim-list",
        query: parallelText("I see.", "我明白了。"),
        page: 1,
        url: "http://127.0.0.1/s?q=x",
        status: "ok" as const,
        startedAt: "2026-11-26T10:00:00Z",
        durationMs: 400,
        taskKey: key,
      };
      const records = [{ url: "http://a.example/", title: "A", snippet: "a", rank: 1 }];
      expect(await recordFetch(store, fetch, records)).toMatchObject({ duplicate: false, seenAgain: 1 });
      expect(await recordFetch(store, fetch, records)).toMatchObject({ duplicate: true, seenAgain: 0 });
      expect((await listRecords(store))[0]!.seenCount).toBe(3);
    } finally {
      await store.close();
    }
  });
});
