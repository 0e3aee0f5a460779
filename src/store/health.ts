import { nowIso, type Store } from "./db.js";
import { sql } from "./sql.js";

/**
 * Wrapper health in the store: each engine's health profile (kept as the health module's JSON, updated as pages
 * are read, so the next run starts from it) and the drift events — pages found outside their engine's profile,
 * with the figures that put them there and what was done.
 */

export interface StoredHealth {
  engine: string;
  /** The profile, parsed from its JSON (the health module's `HealthProfile`). */
  profile: unknown;
  pages: number;
  updatedAt: string;
}

export type DriftAction = "relearned" | "drift" | "stopped";

export interface DriftEventInput {
  runId: number | null;
  fetchId: number | null;
  engine: string;
  /** The page's figures and their distances to the profile (JSON-able). */
  metrics: unknown;
  action: DriftAction;
}

export interface DriftEvent extends DriftEventInput {
  id: number;
  detectedAt: string;
}

export async function loadEngineHealth(store: Store, engine: string): Promise<StoredHealth | null> {
  const row = await store.sql.get<{ engine: string; profile: string; pages: number; updated_at: string }>(
    sql`SELECT engine, profile, pages, updated_at FROM engine_health WHERE engine = ${engine}`,
  );
  return row ? { engine: row.engine, profile: JSON.parse(row.profile), pages: Number(row.pages), updatedAt: row.updated_at } : null;
}

export async function saveEngineHealth(store: Store, engine: string, profile: unknown, pages: number): Promise<void> {
  await store.sql.run(
    sql`INSERT INTO engine_health (engine, profile, pages, updated_at) VALUES (${engine}, ${JSON.stringify(profile)}, ${pages}, ${nowIso()})
       ON CONFLICT (engine) DO UPDATE SET profile = excluded.profile, pages = excluded.pages, updated_at = excluded.updated_at`,
  );
}

export async function recordDriftEvent(store: Store, e: DriftEventInput): Promise<number> {
  const row = await store.sql.get<{ id: number }>(
    sql`INSERT INTO drift_events (run_id, fetch_id, engine, detected_at, metrics, action)
        VALUES (${e.runId}, ${e.fetchId}, ${e.engine}, ${nowIso()}, ${JSON.stringify(e.metrics)}, ${e.action}) RETURNING id`,
  );
  return Number(row!.id);
}

interface DriftRow {
  id: number;
  run_id: number | null;
  fetch_id: number | null;
  engine: string;
  detected_at: string;
  metrics: string;
  action: DriftAction;
}

/** Drift events, oldest first (of one run, when given). */
export async function listDriftEvents(store: Store, filter: { runId?: number } = {}): Promise<DriftEvent[]> {
  const rows = await store.sql.all<DriftRow>(
    filter.runId === undefined
      ? sql`SELECT * FROM drift_events ORDER BY id`
      : sql`SELECT * FROM drift_events WHERE run_id = ${filter.runId} ORDER BY id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    runId: r.run_id === null ? null : Number(r.run_id),
    fetchId: r.fetch_id === null ? null : Number(r.fetch_id),
    engine: r.engine,
    detectedAt: r.detected_at,
    metrics: JSON.parse(r.metrics),
    action: r.action,
  }));
}

/** Drift events per run id (runs without any are absent). */
export async function countDriftEventsByRun(store: Store): Promise<Map<number, number>> {
  const rows = await store.sql.all<{ run_id: number; n: number }>(
    sql`SELECT run_id, count(*) AS n FROM drift_events WHERE run_id IS NOT NULL GROUP BY run_id`,
  );
  return new Map(rows.map((r) => [Number(r.run_id), Number(r.n)]));
}
