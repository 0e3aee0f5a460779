import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  countDriftEventsByRun,
  countRecords,
  listDriftEvents,
  listFetches,
  listRuns,
  loadEngineHealth,
  openStore,
  recordDriftEvent,
  saveEngineHealth,
  type Store,
  schemaVersion,
} from "../../src/store/index.js";
import { MIGRATIONS, migrationSql } from "../../src/store/migrations.js";
import { adminQuery, storeBackends } from "../helpers/postgres.js";

/**
 * The wrapper-health tables (issue 30): a store written by the code before them (bb80c07, 5 migrations) opens,
 * migrates to the latest schema with its data kept, and then keeps engines' health profiles and drift events;
 * on SQLite from a file that code wrote, on PostgreSQL from a database built with that code's migrations.
 */

/** Migrations of the store format before this one (bb80c07): what a store written by today's bitext has. */
const BEFORE = 5;

const backends = storeBackends({ beforeAll, afterAll });
const work = mkdtempSync(join(tmpdir(), "bitext-health-store-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A store as bb80c07 left it: 150 records in 2 fetches and one completed run. */
async function oldStore(backend: (typeof backends)[number]): Promise<string> {
  if (backend.name === "SQLite") {
    const path = join(work, `old-${Date.now()}-${Math.random()}.db`);
    copyFileSync(join(import.meta.dirname, "../fixtures/store/bb80c07.db"), path);
    return path;
  }
  const url = await backend.location();
  for (const sql of MIGRATIONS.slice(0, BEFORE)) await adminQuery(url, migrationSql(sql, "postgres"));
  await adminQuery(url, "CREATE TABLE bitext_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  for (let v = 1; v <= BEFORE; v++) await adminQuery(url, "INSERT INTO bitext_schema VALUES ($1, $2)", [v, new Date().toISOString()]);
  await adminQuery(url, "INSERT INTO runs (started_at, status) VALUES ('2026-01-01T00:00:00Z', 'completed')");
  await adminQuery(
    url,
    "INSERT INTO fetches (run_id, engine, query_en, query_zh, page, url, status, started_at, duration_ms) VALUES (1, 'sim-list', 'a', '甲', 1, 'http://127.0.0.1/', 'ok', '2026-01-01T00:00:00Z', 5)",
  );
  return url;
}

describe.each(backends)("wrapper health in the store ($name)", (backend) => {
  let store: Store | null = null;
  beforeEach(async (ctx) => {
    if (backend.skip) ctx.skip();
    store ??= await openStore(await oldStore(backend));
  });
  afterAll(() => store?.close());

  it("migrates a store written before the health tables, keeping its runs, fetches and records", async () => {
    expect(await schemaVersion(store!)).toBe(MIGRATIONS.length);
    expect(await listRuns(store!)).toHaveLength(1);
    expect((await listFetches(store!)).length).toBeGreaterThan(0);
    if (backend.name === "SQLite") expect(await countRecords(store!, {})).toBe(150);
  });

  it("keeps an engine's health profile, replacing it as pages are read", async () => {
    expect(await loadEngineHealth(store!, "sim-list")).toBeNull();
    await saveEngineHealth(store!, "sim-list", { pages: 1, metrics: { records: { values: [6.4] } } }, 1);
    await saveEngineHealth(store!, "sim-list", { pages: 2, metrics: { records: { values: [6.4, 6.1] } } }, 2);
    const h = await loadEngineHealth(store!, "sim-list");
    expect(h?.pages).toBe(2);
    expect(h?.profile).toEqual({ pages: 2, metrics: { records: { values: [6.4, 6.1] } } });
    expect(await loadEngineHealth(store!, "sim-div")).toBeNull();
  });

  it("records drift events with their figures and action, listed per run and counted for `bitext runs`", async () => {
    const run = (await listRuns(store!))[0]!.id;
    const fetch = (await listFetches(store!))[0]!.id;
    await recordDriftEvent(store!, {
      runId: run,
      fetchId: fetch,
      engine: "sim-list",
      metrics: { worst: { metric: "records", bad: 5.2 } },
      action: "drift",
    });
    await recordDriftEvent(store!, { runId: run, fetchId: null, engine: "sim-list", metrics: {}, action: "stopped" });
    await recordDriftEvent(store!, { runId: null, fetchId: null, engine: "sim-div", metrics: {}, action: "relearned" });
    const events = await listDriftEvents(store!, { runId: run });
    expect(events.map((e) => [e.engine, e.action, e.fetchId])).toEqual([
      ["sim-list", "drift", fetch],
      ["sim-list", "stopped", null],
    ]);
    expect(events[0]!.metrics).toEqual({ worst: { metric: "records", bad: 5.2 } });
    expect(await listDriftEvents(store!)).toHaveLength(3);
    expect((await countDriftEventsByRun(store!)).get(run)).toBe(2);
  });

  it("refuses an action it does not know", async () => {
    await expect(
      recordDriftEvent(store!, { runId: null, fetchId: null, engine: "x", metrics: {}, action: "ignored" as "drift" }),
    ).rejects.toThrow();
  });
});
