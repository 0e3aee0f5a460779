import { createHash } from "node:crypto";
import { EN_ZH, parallelText, parallelTextKey } from "../language-pair.js";
import { linkFetchQuery } from "./provenance.js";
import { compressHtml, decompressHtml } from "./blob.js";
import { nowIso, type Store } from "./db.js";
import { join, raw, type SqlQuery, sql } from "./sql.js";
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

export async function recordFetch(store: Store, fetch: NewFetch, records: readonly NewRecord[] = []): Promise<FetchOutcome> {
  if (fetch.status !== "ok" && records.length > 0) {
    throw new Error(`recordFetch: a ${fetch.status} fetch carries no records`);
  }
  const db = store.sql;
  return db.transaction(async (): Promise<FetchOutcome> => {
    const inserted = await db.get<{ id: number }>(
      sql`INSERT INTO fetches (run_id, engine, query_en, query_zh, page, url, final_url, status, http_status, detail,
         started_at, duration_ms, content_sha256, html, record_count, wrapper_learned_at, task_key)
       VALUES (${fetch.runId}, ${fetch.engine}, ${fetch.query.source.text}, ${fetch.query.target.text}, ${fetch.page}, ${fetch.url},
         ${fetch.finalUrl ?? null}, ${fetch.status}, ${fetch.httpStatus ?? null}, ${fetch.detail ?? null}, ${fetch.startedAt},
         ${Math.round(fetch.durationMs)}, ${fetch.contentSha256 ?? null}, ${fetch.html == null ? null : compressHtml(fetch.html)},
         ${records.length}, ${fetch.wrapperLearnedAt ?? null}, ${fetch.taskKey ?? null})
       ON CONFLICT DO NOTHING
       RETURNING id`,
    );
    if (inserted === undefined) {
      // The unique key of completed tasks refused a second completion: someone else stored this page.
      const first = await db.get<{ id: number }>(
        sql`SELECT id FROM fetches WHERE task_key = ${fetch.taskKey ?? null} AND status IN ('ok', 'empty') ORDER BY id LIMIT 1`,
      );
      if (first === undefined) throw new Error(`recordFetch: fetch of task ${fetch.taskKey} was neither inserted nor found`);
      return { fetchId: first.id, duplicate: true, newRecords: 0, seenAgain: 0 };
    }
    const fetchId = inserted.id;
    let newRecords = 0;
    let seenAgain = 0;
    for (const r of records) {
      const find = sql`SELECT id, last_fetch_id FROM records
        WHERE engine = ${fetch.engine} AND query_en = ${fetch.query.source.text} AND query_zh = ${fetch.query.target.text} AND url = ${r.url}`;
      const found = await db.get<SeenRecord>(find);
      const inserted =
        found !== undefined
          ? undefined
          : await db.get<{ id: number }>(
              sql`INSERT INTO records (engine, query_en, query_zh, url, title, snippet, rank, page, first_seen, last_seen,
                   first_fetch_id, last_fetch_id, seen_count)
                 VALUES (${fetch.engine}, ${fetch.query.source.text}, ${fetch.query.target.text}, ${r.url}, ${r.title}, ${r.snippet},
                   ${r.rank}, ${fetch.page}, ${fetch.startedAt}, ${fetch.startedAt}, ${fetchId}, ${fetchId}, 1)
                 ON CONFLICT (engine, query_en, query_zh, url) DO NOTHING
                 RETURNING id`,
            );
      // Another worker stored the record after our look-up (PostgreSQL, many writers): the uniqueness
      // constraint made our insert do nothing, and the record is one seen again.
      const existing = found ?? (inserted === undefined ? await db.get<SeenRecord>(find) : undefined);
      let id: number;
      if (inserted !== undefined) {
        id = inserted.id;
        newRecords++;
      } else {
        if (existing === undefined) throw new Error(`recordFetch: record ${r.url} was neither inserted nor found`);
        id = existing.id;
        // The same URL twice on one page (sitelinks, duplicates): keep the first, best-ranked sighting.
        if (existing.last_fetch_id === fetchId) continue;
        await db.run(
          sql`UPDATE records SET title = ${r.title}, snippet = ${r.snippet}, rank = ${r.rank}, page = ${fetch.page},
             last_seen = ${fetch.startedAt}, last_fetch_id = ${fetchId}, seen_count = seen_count + 1 WHERE id = ${id}`,
        );
        seenAgain++;
      }
      await db.run(
        sql`INSERT INTO record_fetches (record_id, fetch_id, rank) VALUES (${id}, ${fetchId}, ${r.rank}) ON CONFLICT DO NOTHING`,
      );
      const c = r.classification;
      if (c) {
        await db.run(
          sql`UPDATE records SET label = ${c.label}, probability = ${c.probability}, model = ${c.model}, classified_at = ${nowIso()}
             WHERE id = ${id} AND (model IS NULL OR model <> ${c.model})`,
        );
      }
    }
    await linkFetchQuery(store, fetchId, fetch.query);
    return { fetchId, duplicate: false, newRecords, seenAgain };
  });
}

/**
 * The latest successful (ok or genuinely empty) fetch of one engine/query/page started at or after
 * `since`, if any: what a resumed or repeated run skips. Blocked and failed fetches never count.
 */
export async function lastCompletedFetch(
  store: Store,
  task: { engine: string; query: QueryPair; page: number },
  since: string,
): Promise<StoredFetch | null> {
  const row = await store.sql.get<FetchRow>(
    sql`SELECT ${FETCH_COLUMNS} FROM fetches
       WHERE engine = ${task.engine} AND query_en = ${task.query.source.text} AND query_zh = ${task.query.target.text}
         AND page = ${task.page} AND status IN ('ok', 'empty') AND started_at >= ${since}
       ORDER BY started_at DESC LIMIT 1`,
  );
  return row ? toFetch(row) : null;
}

/**
 * Every (engine, query, page) completed (ok or empty) by a fetch started at or after `since`, with the record count
 * of its latest such fetch, keyed by `taskKeyOf`: `lastCompletedFetch` for a whole run at once, read before it starts.
 */
export async function completedSince(store: Store, since: string): Promise<Map<string, number>> {
  const rows = await store.sql.all<{ engine: string; query_en: string; query_zh: string; page: number; record_count: number }>(
    sql`SELECT engine, query_en, query_zh, page, record_count FROM fetches
       WHERE status IN ('ok', 'empty') AND started_at >= ${since} ORDER BY started_at`,
  );
  const out = new Map<string, number>();
  for (const r of rows) out.set(taskKeyOf({ engine: r.engine, query: parallelText(r.query_en, r.query_zh), page: r.page }), r.record_count);
  return out;
}

/** The key of a page task in `completedSince`'s map. */
export function taskKeyOf(task: { engine: string; query: QueryPair; page: number }): string {
  return JSON.stringify([task.engine, task.query.source.text, task.query.target.text, task.page]);
}

export async function getFetch(store: Store, id: number): Promise<StoredFetch | null> {
  const row = await store.sql.get<FetchRow>(sql`SELECT ${FETCH_COLUMNS} FROM fetches WHERE id = ${id}`);
  return row ? toFetch(row) : null;
}

/** The stored HTML of a fetch (decompressed), or null when it was not kept. */
export async function getFetchHtml(store: Store, id: number): Promise<Buffer | null> {
  const row = await store.sql.get<{ html: Buffer | null }>(sql`SELECT html FROM fetches WHERE id = ${id}`);
  return row?.html ? decompressHtml(row.html) : null;
}

/**
 * Mark a kept result page as one that cannot be processed, with the reason: `harvest --reextract`
 * skips it from then on instead of failing on it again.
 */
export async function markFetchUnprocessable(store: Store, id: number, reason: string): Promise<void> {
  await store.sql.run(sql`UPDATE fetches SET unprocessable = ${reason} WHERE id = ${id}`);
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

/**
 * The latest kept page of each (query, page) of an engine, skipping pages marked unprocessable, in fetch order; its
 * query in the languages of the fetch's `queries` row (en–zh for a fetch without one).
 */
export async function keptResultPages(store: Store, engine: string): Promise<KeptResultPage[]> {
  const rows = await store.sql.all<{
    id: number;
    query_en: string;
    query_zh: string;
    src_lang: string | null;
    tgt_lang: string | null;
    page: number;
    url: string;
    final_url: string | null;
    http_status: number | null;
    started_at: string;
    content_sha256: string | null;
  }>(
    sql`SELECT f.id, f.query_en, f.query_zh, q.src_lang, q.tgt_lang, f.page, f.url, f.final_url, f.http_status, f.started_at, f.content_sha256
       FROM fetches f LEFT JOIN queries q ON q.id = f.query_id
       WHERE f.engine = ${engine} AND f.html IS NOT NULL AND f.unprocessable IS NULL AND f.id = (
         SELECT max(g.id) FROM fetches g WHERE g.engine = f.engine AND g.query_en = f.query_en
           AND g.query_zh = f.query_zh AND g.page = f.page AND g.html IS NOT NULL)
       ORDER BY f.id`,
  );
  return rows.map((r) => ({
    fetchId: r.id,
    query: parallelText(r.query_en, r.query_zh, r.src_lang && r.tgt_lang ? { a: r.src_lang, b: r.tgt_lang } : EN_ZH),
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

export async function listFetches(store: Store, filter: FetchFilter = {}): Promise<StoredFetch[]> {
  const where: SqlQuery[] = [];
  if (filter.runId !== undefined) where.push(sql`run_id = ${filter.runId}`);
  if (filter.engine !== undefined) where.push(sql`engine = ${filter.engine}`);
  if (filter.status !== undefined) where.push(sql`status = ${filter.status}`);
  const limit = filter.limit !== undefined ? raw(` LIMIT ${Math.floor(filter.limit)}`) : raw("");
  const rows = await store.sql.all<FetchRow>(
    sql`SELECT ${FETCH_COLUMNS} FROM fetches${where.length ? sql` WHERE ${join(where, " AND ")}` : raw("")} ORDER BY id${limit}`,
  );
  return rows.map(toFetch);
}

/** Fetch counts by status (optionally for one run): the numbers a run summary reports. */
export async function countFetchesByStatus(store: Store, runId?: number): Promise<Record<FetchStatus, number>> {
  const rows = await store.sql.all<{ status: FetchStatus; n: number }>(
    runId === undefined
      ? sql`SELECT status, count(*) AS n FROM fetches GROUP BY status`
      : sql`SELECT status, count(*) AS n FROM fetches WHERE run_id = ${runId} GROUP BY status`,
  );
  const out: Record<FetchStatus, number> = { ok: 0, empty: 0, blocked: 0, error: 0 };
  for (const r of rows) out[r.status] = r.n;
  return out;
}

const FETCH_COLUMNS = raw(
  "id, run_id, engine, query_en, query_zh, page, url, final_url, status, http_status, detail, started_at, duration_ms, content_sha256, record_count, wrapper_learned_at, html IS NOT NULL AS has_html",
);

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
