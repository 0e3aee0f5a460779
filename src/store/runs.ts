import { hostname } from "node:os";
import { nowIso, type Store } from "./db.js";

export type RunStatus = "running" | "completed" | "interrupted" | "failed" | "crashed";

export interface Run {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  options: unknown;
  summary: unknown;
  pid: number | null;
}

interface RunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  options: string;
  summary: string | null;
  pid: number | null;
}

/** Record the start of a harvest run; returns its id. */
export function startRun(store: Store, options: unknown): number {
  const info = store.db
    .prepare("INSERT INTO runs (started_at, status, options, pid, hostname) VALUES (?, 'running', ?, ?, ?)")
    .run(nowIso(), JSON.stringify(options ?? {}), process.pid, hostname());
  return Number(info.lastInsertRowid);
}

export function finishRun(store: Store, id: number, status: Exclude<RunStatus, "running">, summary: unknown): void {
  store.db
    .prepare("UPDATE runs SET finished_at = ?, status = ?, summary = ? WHERE id = ?")
    .run(nowIso(), status, JSON.stringify(summary ?? null), id);
}

/**
 * Runs still marked `running` whose process on this host is gone were killed (kill -9, power loss):
 * mark them `crashed` so run listings tell the truth. Their fetches are all kept; a rerun resumes.
 * Returns how many runs were marked.
 */
export function markCrashedRuns(store: Store): number {
  const rows = store.db
    .prepare("SELECT id, pid FROM runs WHERE status = 'running' AND hostname = ?")
    .all(hostname()) as Array<{ id: number; pid: number | null }>;
  let marked = 0;
  for (const row of rows) {
    if (row.pid !== null && row.pid !== process.pid && isAlive(row.pid)) continue;
    if (row.pid === process.pid) continue;
    store.db.prepare("UPDATE runs SET status = 'crashed', finished_at = ? WHERE id = ?").run(nowIso(), row.id);
    marked++;
  }
  return marked;
}

/** Is a harvest run in progress in a live process (for `bitext daemon`, which never overlaps runs)? */
export function activeRuns(store: Store): Run[] {
  markCrashedRuns(store);
  const rows = store.db.prepare("SELECT * FROM runs WHERE status = 'running' ORDER BY id").all() as RunRow[];
  return rows.map(toRun);
}

export function getRun(store: Store, id: number): Run | null {
  const row = store.db.prepare("SELECT * FROM runs WHERE id = ?").get(id) as RunRow | undefined;
  return row ? toRun(row) : null;
}

export function listRuns(store: Store, limit = 20): Run[] {
  const rows = store.db.prepare("SELECT * FROM runs ORDER BY id DESC LIMIT ?").all(limit) as RunRow[];
  return rows.map(toRun);
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
