import { hostname } from "node:os";
import { UserError } from "../errors.js";
import { nowIso, type Store } from "./db.js";
import { sql } from "./sql.js";

export type RunStatus = "running" | "completed" | "interrupted" | "failed" | "crashed";

export interface Run {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  options: unknown;
  summary: unknown;
  pid: number | null;
  hostname: string | null;
  /** Last sign of life of a running run (ISO time); null for runs from before heartbeats. */
  heartbeatAt: string | null;
}

interface RunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  options: string;
  summary: string | null;
  pid: number | null;
  hostname: string | null;
  heartbeat_at: string | null;
}

/** A running run beats this often; one whose last beat is older than `STALE_AFTER_MS` is dead, on any host. */
export const HEARTBEAT_MS = 15_000;
export const STALE_AFTER_MS = 120_000;

/** Heartbeat timers of the runs this process started, by store and run id. */
const heartbeats = new Map<string, NodeJS.Timeout>();

/**
 * Record the start of a run; returns its id. While the run is open, its row's `heartbeat_at` is
 * refreshed every `HEARTBEAT_MS` (a timer that never keeps the process alive), so other processes
 * on any host can tell a live run from one whose process died.
 */
export async function startRun(store: Store, options: unknown): Promise<number> {
  const now = nowIso();
  const info = (await store.sql.get<{ id: number }>(
    sql`INSERT INTO runs (started_at, status, options, pid, hostname, heartbeat_at)
        VALUES (${now}, 'running', ${JSON.stringify(options ?? {})}, ${process.pid}, ${hostname()}, ${now}) RETURNING id`,
  ))!;
  const id = info.id;
  startHeartbeat(store, id);
  return id;
}

/**
 * Start a harvest run unless another live run is in progress on this store: two harvests on one
 * store would each fetch the same pages and each apply the engines' politeness limits to itself only.
 * Runs whose process is gone (heartbeat older than `STALE_AFTER_MS`, or a dead pid on this host) are
 * marked `crashed` first and never block. Otherwise throws a `UserError` (kind `run-in-progress`) naming the running one.
 * Check and insert are one IMMEDIATE transaction: of two harvests started at once, exactly one runs.
 */
export async function startExclusiveRun(store: Store, options: unknown): Promise<number> {
  return store.sql.transaction(
    async () => {
      await markCrashedRuns(store);
      const live = await runningRows(store);
      const other = live.find((r) => !(r.pid === process.pid && r.hostname === hostname()));
      if (other) {
        throw new UserError(
          `${store.path}: harvest run ${other.id} is already running on this store (host ${other.hostname ?? "?"}, pid ${other.pid ?? "?"}, ` +
            `started ${other.started_at}, last heartbeat ${ageText(other)} ago): wait for it to finish or stop it; ` +
            `a run whose process died stops blocking ${STALE_AFTER_MS / 1000} s after its last heartbeat`,
          { kind: "run-in-progress" },
        );
      }
      return startRun(store, options);
    },
    { exclusiveKey: "bitext harvest run" },
  );
}

export async function finishRun(store: Store, id: number, status: Exclude<RunStatus, "running">, summary: unknown): Promise<void> {
  stopHeartbeat(store, id);
  await store.sql.run(
    sql`UPDATE runs SET finished_at = ${nowIso()}, status = ${status}, summary = ${JSON.stringify(summary ?? null)} WHERE id = ${id}`,
  );
}

function startHeartbeat(store: Store, id: number): void {
  const key = `${store.path}#${id}`;
  const timer = setInterval(() => {
    if (!store.sql.open) {
      stopHeartbeat(store, id);
      return;
    }
    store.sql.run(sql`UPDATE runs SET heartbeat_at = ${nowIso()} WHERE id = ${id} AND status = 'running'`).catch(() => {
      // A busy store skips one beat; the age limit allows several.
    });
  }, HEARTBEAT_MS);
  timer.unref();
  heartbeats.set(key, timer);
}

function stopHeartbeat(store: Store, id: number): void {
  const key = `${store.path}#${id}`;
  clearInterval(heartbeats.get(key));
  heartbeats.delete(key);
}

/**
 * Runs still marked `running` whose process is gone — killed (kill -9, power loss), on this host or
 * another: mark them `crashed` so run listings tell the truth and no one waits behind them. Their
 * fetches are all kept; a rerun resumes. Returns how many runs were marked.
 */
export async function markCrashedRuns(store: Store): Promise<number> {
  const stale = await staleRuns(store);
  for (const run of stale) {
    await store.sql.run(sql`UPDATE runs SET status = 'crashed', finished_at = ${nowIso()} WHERE id = ${run.id} AND status = 'running'`);
  }
  return stale.length;
}

/**
 * Runs marked `running` whose process is gone: the last heartbeat (for runs from before heartbeats,
 * the start) is older than `STALE_AFTER_MS` — whatever the host, so neither another host nor a reused
 * pid keeps a dead run alive — or the run is from this host and its pid no longer exists.
 */
export async function staleRuns(store: Store, now: number = Date.now()): Promise<Run[]> {
  const host = hostname();
  return (await runningRows(store))
    .filter((row) => {
      if (row.pid === process.pid && row.hostname === host) return false;
      if (now - lastBeat(row) > STALE_AFTER_MS) return true;
      return row.hostname === host && row.pid !== null && !isAlive(row.pid);
    })
    .map(toRun);
}

/** Harvest runs in progress in live processes (for `bitext daemon`, which never overlaps runs). */
export async function activeRuns(store: Store): Promise<Run[]> {
  if (!store.sql.readonly) await markCrashedRuns(store);
  const stale = new Set((await staleRuns(store)).map((r) => r.id));
  return (await runningRows(store)).filter((r) => !stale.has(r.id)).map(toRun);
}

export async function getRun(store: Store, id: number): Promise<Run | null> {
  const row = await store.sql.get<RunRow>(sql`SELECT * FROM runs WHERE id = ${id}`);
  return row ? toRun(row) : null;
}

export async function listRuns(store: Store, limit = 20): Promise<Run[]> {
  const rows = await store.sql.all<RunRow>(sql`SELECT * FROM runs ORDER BY id DESC LIMIT ${limit}`);
  return rows.map(toRun);
}

function runningRows(store: Store): Promise<RunRow[]> {
  return store.sql.all<RunRow>(sql`SELECT * FROM runs WHERE status = 'running' ORDER BY id`);
}

function lastBeat(row: RunRow): number {
  return Date.parse(row.heartbeat_at ?? row.started_at);
}

function ageText(row: RunRow): string {
  return `${Math.max(0, Math.round((Date.now() - lastBeat(row)) / 1000))} s`;
}

function toRun(row: RunRow): Run {
  return {
    id: row.id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    options: JSON.parse(row.options),
    summary: row.summary === null ? null : JSON.parse(row.summary),
    pid: row.pid,
    hostname: row.hostname,
    heartbeatAt: row.heartbeat_at,
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
