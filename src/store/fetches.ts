import { createHash } from "node:crypto";
import { parallelText, parallelTextKey } from "../language-pair.js";
import { linkFetchQuery } from "./provenance.js";
import { compressHtml, decompressHtml } from "./blob.js";
import { nowIso, type Store } from "./db.js";
import type { Classification, QueryPair } from "./records.js";

export type FetchStatus = "ok" | "empty" | "blocked" | "error";

/** One attempt to load one result page of one engine for one query. */
export interface NewFetch {
  runId: number | null;
  engine: string;
  query: QueryPair;
  /** 1-based result page. */
  page: number;
  url: string;
  finalUrl?: string | null;
  status: FetchStatus;
  httpStatus?: number | null;
  /** Why a page is blocked / errored / empty, or what the wrapper did ("re-learned", …). */
  detail?: string | null;
  startedAt: string;
  durationMs: number;
  contentSha256?: string | null;
  /** The page's HTML, kept (compressed) only when the user asked for it. */
  html?: string | Uint8Array | null;
  /** Set when this page's wrapper was (re-)learned from it. */
  wrapperLearnedAt?: string | null;
  /**
   * The page task this fetch is for (`pageTaskKey`): a task is completed (ok or empty) by one fetch only, which
   * the schema enforces. Null for fetches that complete no task of a harvest (re-extraction).
   */
  taskKey?: string | null;
}

/**
 * The key of one page task of a harvest: (harvest, engine, query, page), hashed where free text would make it
 * long. `harvest` names what the task belongs to (a distributed run's name, or a local run). The same key is a
 * distributed page job's BullMQ id, which may contain neither ":" nor be an integer.
 */
export function pageTaskKey(harvest: string, engine: string, query: QueryPair, page: number): string {
  const q = createHash("sha256").update(parallelTextKey(query)).digest("hex").slice(0, 20);
  const r = createHash("sha256").update(harvest).digest("hex").slice(0, 12);
  return `r${r}-${engine}-q${q}-p${page}`;
}

/** A record extracted from a fetched page, ready to store. */
export interface NewRecord {
  url: string;
  title: string;
  snippet: string;
  /** Rank on the whole result list (see StoredRecord.rank). */
  rank: number;
  /** The classifier's decision, when a model is loaded; applied only where the record has none from this model. */
  classification?: Classification;
}

export interface StoredFetch {
  id: number;
  runId: number | null;
  engine: string;
  query: QueryPair;
  page: number;
  url: string;
  finalUrl: string | null;
  status: FetchStatus;
  httpStatus: number | null;
  detail: string | null;
  startedAt: string;
  durationMs: number;
  contentSha256: string | null;
  recordCount: number;
  wrapperLearnedAt: string | null;
  hasHtml: boolean;
}

export interface FetchOutcome {
  fetchId: number;
  /**
   * The task was already completed by another fetch (another worker stored the same page first): nothing was
   * stored, and `fetchId` is that fetch's.
   */
  duplicate: boolean;
  /** Records seen for the first time (for this engine and query). */
  newRecords: number;
  /** Records already stored, now seen again. */
  seenAgain: number;
}

/**
 * Store one fetch and its records in a single transaction: after a crash either both are in the
 * store or neither is, so a rerun that skips completed fetches can neither lose nor duplicate records.
 * Records are unique per (engine, query, url); seeing one again updates its last sighting.
 */
interface SeenRecord {
  id: number;
  last_fetch_id: number;
}

export function recordFetch(store: Store, fetch: NewFetch, records: readonly NewRecord[] = []): FetchOutcome {
  const s = statements(store);
  if (fetch.status !== "ok" && records.length > 0) {
    throw new Error(`recordFetch: a ${fetch.status} fetch carries no records`);
  }
  return store.sql.transaction((): FetchOutcome => {
    const inserted = s.insertFetch.get({
      run_id: fetch.runId,
      engine: fetch.engine,
      query_en: fetch.query.source.text,
      query_zh: fetch.query.target.text,
      page: fetch.page,
      url: fetch.url,
      final_url: fetch.finalUrl ?? null,
      status: fetch.status,
      http_status: fetch.httpStatus ?? null,
      detail: fetch.detail ?? null,
      started_at: fetch.startedAt,
      duration_ms: Math.round(fetch.durationMs),
      content_sha256: fetch.contentSha256 ?? null,
      html: fetch.html == null ? null : compressHtml(fetch.html),
      record_count: records.length,
      wrapper_learned_at: fetch.wrapperLearnedAt ?? null,
      task_key: fetch.taskKey ?? null,
    }) as { id: number } | undefined;
    if (inserted === undefined) {
      // The unique key of completed tasks refused a second completion: someone else stored this page.
      const first = s.completedTask.get(fetch.taskKey) as { id: number } | undefined;
      if (first === undefined) throw new Error(`recordFetch: fetch of task ${fetch.taskKey} was neither inserted nor found`);
      return { fetchId: first.id, duplicate: true, newRecords: 0, seenAgain: 0 };
    }
    const fetchId = inserted.id;
    let newRecords = 0;
    let seenAgain = 0;
    for (const r of records) {
      const key = [fetch.engine, fetch.query.source.text, fetch.query.target.text, r.url] as const;
      // What this sighting says of the record, for its first insert or its update.
      const seen = { title: r.title, snippet: r.snippet, rank: r.rank, page: fetch.page, seen: fetch.startedAt, fetch_id: fetchId };
      const found = s.findRecord.get(...key) as SeenRecord | undefined;
      const inserted =
        found !== undefined
          ? undefined
          : (s.insertRecord.get({
              engine: fetch.engine,
              query_en: fetch.query.source.text,
              query_zh: fetch.query.target.text,
              url: r.url,
              ...seen,
            }) as { id: number } | undefined);
      // Another worker stored the record after our look-up (PostgreSQL, many writers): the uniqueness
      // constraint made our insert do nothing, and the record is one seen again.
      const existing = found ?? (inserted === undefined ? (s.findRecord.get(...key) as SeenRecord | undefined) : undefined);
      let id: number;
      if (inserted !== undefined) {
        id = inserted.id;
        newRecords++;
      } else {
        if (existing === undefined) throw new Error(`recordFetch: record ${r.url} was neither inserted nor found`);
        id = existing.id;
        // The same URL twice on one page (sitelinks, duplicates): keep the first, best-ranked sighting.
        if (existing.last_fetch_id === fetchId) continue;
        s.updateRecord.run({ id, ...seen });
        seenAgain++;
      }
      s.insertSighting.run(id, fetchId, r.rank);
      if (r.classification) {
        s.classify.run(r.classification.label, r.classification.probability, r.classification.model, nowIso(), id, r.classification.model);
      }
    }
    linkFetchQuery(store, fetchId, fetch.query);
    return { fetchId, duplicate: false, newRecords, seenAgain };
  });
}

/**
 * The latest successful (ok or genuinely empty) fetch of one engine/query/page started at or after
 * `since`, if any: what a resumed or repeated run skips. Blocked and failed fetches never count.
 */
export function lastCompletedFetch(
  store: Store,
  task: { engine: string; query: QueryPair; page: number },
  since: string,
): StoredFetch | null {
  const row = statements(store).lastCompleted.get(task.engine, task.query.source.text, task.query.target.text, task.page, since) as
    | FetchRow
    | undefined;
  return row ? toFetch(row) : null;
}

export function getFetch(store: Store, id: number): StoredFetch | null {
  const row = store.sql.prepare(`SELECT ${FETCH_COLUMNS} FROM fetches WHERE id = ?`).get(id) as FetchRow | undefined;
  return row ? toFetch(row) : null;
}

/** The stored HTML of a fetch (decompressed), or null when it was not kept. */
export function getFetchHtml(store: Store, id: number): Buffer | null {
  const row = store.sql.prepare("SELECT html FROM fetches WHERE id = ?").get(id) as { html: Buffer | null } | undefined;
  return row?.html ? decompressHtml(row.html) : null;
}

/**
 * Mark a kept result page as one that cannot be processed, with the reason: `harvest --reextract`
 * skips it from then on instead of failing on it again.
 */
export function markFetchUnprocessable(store: Store, id: number, reason: string): void {
  store.sql.prepare("UPDATE fetches SET unprocessable = ? WHERE id = ?").run(reason, id);
}

/** A result page kept in the store (`harvest --keep-html`), as `harvest --reextract` reads it again. */
export interface KeptResultPage {
  fetchId: number;
  query: QueryPair;
  page: number;
  url: string;
  finalUrl: string | null;
  httpStatus: number | null;
  startedAt: string;
  contentSha256: string | null;
}

/** The latest kept page of each (query, page) of an engine, skipping pages marked unprocessable, in fetch order. */
export function keptResultPages(store: Store, engine: string): KeptResultPage[] {
  const rows = store.sql
    .prepare(
      `SELECT f.id, f.query_en, f.query_zh, f.page, f.url, f.final_url, f.http_status, f.started_at, f.content_sha256
       FROM fetches f
       WHERE f.engine = ? AND f.html IS NOT NULL AND f.unprocessable IS NULL AND f.id = (
         SELECT max(g.id) FROM fetches g WHERE g.engine = f.engine AND g.query_en = f.query_en
           AND g.query_zh = f.query_zh AND g.page = f.page AND g.html IS NOT NULL)
       ORDER BY f.id`,
    )
    .all(engine) as Array<{
    id: number;
    query_en: string;
    query_zh: string;
    page: number;
    url: string;
    final_url: string | null;
    http_status: number | null;
    started_at: string;
    content_sha256: string | null;
  }>;
  return rows.map((r) => ({
    fetchId: r.id,
    query: parallelText(r.query_en, r.query_zh),
    page: r.page,
    url: r.url,
    finalUrl: r.final_url,
    httpStatus: r.http_status,
    startedAt: r.started_at,
    contentSha256: r.content_sha256,
  }));
}

export interface FetchFilter {
  runId?: number;
  engine?: string;
  status?: FetchStatus;
  limit?: number;
}

export function listFetches(store: Store, filter: FetchFilter = {}): StoredFetch[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.runId !== undefined) {
    where.push("run_id = ?");
    params.push(filter.runId);
  }
  if (filter.engine !== undefined) {
    where.push("engine = ?");
    params.push(filter.engine);
  }
  if (filter.status !== undefined) {
    where.push("status = ?");
    params.push(filter.status);
  }
  const sql =
    `SELECT ${FETCH_COLUMNS} FROM fetches${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY id` +
    (filter.limit !== undefined ? ` LIMIT ${Math.floor(filter.limit)}` : "");
  return (store.sql.prepare(sql).all(...params) as FetchRow[]).map(toFetch);
}

/** Fetch counts by status (optionally for one run): the numbers a run summary reports. */
export function countFetchesByStatus(store: Store, runId?: number): Record<FetchStatus, number> {
  const rows = (
    runId === undefined
      ? store.sql.prepare("SELECT status, count(*) AS n FROM fetches GROUP BY status").all()
      : store.sql.prepare("SELECT status, count(*) AS n FROM fetches WHERE run_id = ? GROUP BY status").all(runId)
  ) as Array<{ status: FetchStatus; n: number }>;
  const out: Record<FetchStatus, number> = { ok: 0, empty: 0, blocked: 0, error: 0 };
  for (const r of rows) out[r.status] = r.n;
  return out;
}

const FETCH_COLUMNS =
  "id, run_id, engine, query_en, query_zh, page, url, final_url, status, http_status, detail, started_at, duration_ms, content_sha256, record_count, wrapper_learned_at, html IS NOT NULL AS has_html";

interface FetchRow {
  id: number;
  run_id: number | null;
  engine: string;
  query_en: string;
  query_zh: string;
  page: number;
  url: string;
  final_url: string | null;
  status: FetchStatus;
  http_status: number | null;
  detail: string | null;
  started_at: string;
  duration_ms: number;
  content_sha256: string | null;
  record_count: number;
  wrapper_learned_at: string | null;
  /** 1 or 0 (SQLite), true or false (PostgreSQL). */
  has_html: number | boolean;
}

function toFetch(row: FetchRow): StoredFetch {
  return {
    id: row.id,
    runId: row.run_id,
    engine: row.engine,
    query: parallelText(row.query_en, row.query_zh),
    page: row.page,
    url: row.url,
    finalUrl: row.final_url,
    status: row.status,
    httpStatus: row.http_status,
    detail: row.detail,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    contentSha256: row.content_sha256,
    recordCount: row.record_count,
    wrapperLearnedAt: row.wrapper_learned_at,
    hasHtml: Boolean(row.has_html),
  };
}

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<object, Statements>();

function statements(store: Store): Statements {
  let s = cache.get(store.sql);
  if (!s) {
    s = prepare(store);
    cache.set(store.sql, s);
  }
  return s;
}

function prepare(store: Store) {
  const db = store.sql;
  return {
    insertFetch: db.prepare(
      `INSERT INTO fetches (run_id, engine, query_en, query_zh, page, url, final_url, status, http_status, detail,
         started_at, duration_ms, content_sha256, html, record_count, wrapper_learned_at, task_key)
       VALUES (@run_id, @engine, @query_en, @query_zh, @page, @url, @final_url, @status, @http_status, @detail,
         @started_at, @duration_ms, @content_sha256, @html, @record_count, @wrapper_learned_at, @task_key)
       ON CONFLICT DO NOTHING
       RETURNING id`,
    ),
    completedTask: db.prepare("SELECT id FROM fetches WHERE task_key = ? AND status IN ('ok', 'empty') ORDER BY id LIMIT 1"),
    findRecord: db.prepare("SELECT id, last_fetch_id FROM records WHERE engine = ? AND query_en = ? AND query_zh = ? AND url = ?"),
    insertRecord: db.prepare(
      `INSERT INTO records (engine, query_en, query_zh, url, title, snippet, rank, page, first_seen, last_seen,
         first_fetch_id, last_fetch_id, seen_count)
       VALUES (@engine, @query_en, @query_zh, @url, @title, @snippet, @rank, @page, @seen, @seen, @fetch_id, @fetch_id, 1)
       ON CONFLICT (engine, query_en, query_zh, url) DO NOTHING
       RETURNING id`,
    ),
    updateRecord: db.prepare(
      `UPDATE records SET title = @title, snippet = @snippet, rank = @rank, page = @page, last_seen = @seen,
         last_fetch_id = @fetch_id, seen_count = seen_count + 1 WHERE id = @id`,
    ),
    insertSighting: db.prepare("INSERT OR IGNORE INTO record_fetches (record_id, fetch_id, rank) VALUES (?, ?, ?)"),
    classify: db.prepare(
      `UPDATE records SET label = ?, probability = ?, model = ?, classified_at = ?
       WHERE id = ? AND (model IS NULL OR model <> ?)`,
    ),
    lastCompleted: db.prepare(
      `SELECT ${FETCH_COLUMNS} FROM fetches
       WHERE engine = ? AND query_en = ? AND query_zh = ? AND page = ? AND status IN ('ok', 'empty') AND started_at >= ?
       ORDER BY started_at DESC LIMIT 1`,
    ),
  };
}
