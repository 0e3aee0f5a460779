import { nowIso, type Store } from "./db.js";

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

export function loadEngineHealth(store: Store, engine: string): StoredHealth | null {
  const row = store.sql.prepare("SELECT engine, profile, pages, updated_at FROM engine_health WHERE engine = ?").get(engine) as
    | { engine: string; profile: string; pages: number; updated_at: string }
    | undefined;
  return row ? { engine: row.engine, profile: JSON.parse(row.profile), pages: Number(row.pages), updatedAt: row.updated_at } : null;
}

export function saveEngineHealth(store: Store, engine: string, profile: unknown, pages: number): void {
  store.sql
    .prepare(
      `INSERT INTO engine_health (engine, profile, pages, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (engine) DO UPDATE SET profile = excluded.profile, pages = excluded.pages, updated_at = excluded.updated_at`,
    )
    .run(engine, JSON.stringify(profile), pages, nowIso());
}

export function recordDriftEvent(store: Store, e: DriftEventInput): number {
  const row = store.sql
    .prepare("INSERT INTO drift_events (run_id, fetch_id, engine, detected_at, metrics, action) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
    .get(e.runId, e.fetchId, e.engine, nowIso(), JSON.stringify(e.metrics), e.action) as { id: number };
  return Number(row.id);
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
export function listDriftEvents(store: Store, filter: { runId?: number } = {}): DriftEvent[] {
  const rows = (
    filter.runId === undefined
      ? store.sql.prepare("SELECT * FROM drift_events ORDER BY id").all()
      : store.sql.prepare("SELECT * FROM drift_events WHERE run_id = ? ORDER BY id").all(filter.runId)
  ) as DriftRow[];
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
export function countDriftEventsByRun(store: Store): Map<number, number> {
  const rows = store.sql.prepare("SELECT run_id, count(*) AS n FROM drift_events WHERE run_id IS NOT NULL GROUP BY run_id").all() as Array<{
    run_id: number;
    n: number;
  }>;
  return new Map(rows.map((r) => [Number(r.run_id), Number(r.n)]));
}
