import { compressHtml, decompressHtml } from "./blob.js";
import { nowIso, type Store } from "./db.js";

/** A linked page as downloaded by `bitext fetch-pages` (one row per URL; a new download replaces the old). */
export interface PageInput {
  url: string;
  /** Where redirects ended, if elsewhere. */
  finalUrl?: string | null;
  /** ISO time; defaults to now. */
  fetchedAt?: string;
  httpStatus?: number | null;
  contentType?: string | null;
  /** The charset the bytes were decoded with (see src/html/charset.ts), if known. */
  charset?: string | null;
  /** The page as received (raw bytes) or decoded text; stored gzip-compressed. Null when the download failed. */
  html?: string | Uint8Array | null;
  /** Why the download failed (null on success). */
  error?: string | null;
}

export interface PageSummary {
  id: number;
  url: string;
  finalUrl: string | null;
  fetchedAt: string;
  httpStatus: number | null;
  contentType: string | null;
  charset: string | null;
  error: string | null;
  hasHtml: boolean;
  /** Why the stored page cannot be processed (see `markPageUnprocessable`); null when it can. */
  unprocessable: string | null;
}

export interface StoredPage extends PageSummary {
  /** The stored bytes, decompressed (exactly what was passed to `upsertPage`, UTF-8 if it was a string). */
  html: Buffer | null;
}

export interface PageFilter {
  /** Only pages with stored HTML (true) or only failed downloads (false). */
  withHtml?: boolean;
  /** Pages fetched at or after this ISO time. */
  fetchedSince?: string;
  limit?: number;
}

/** Insert or replace the page stored for `page.url`; returns its id (stable across replacements). */
export function upsertPage(store: Store, page: PageInput): number {
  const row = store.sql
    .prepare(
      `INSERT INTO pages (url, final_url, fetched_at, http_status, content_type, charset, html, error)
       VALUES (@url, @final_url, @fetched_at, @http_status, @content_type, @charset, @html, @error)
       ON CONFLICT (url) DO UPDATE SET final_url = excluded.final_url, fetched_at = excluded.fetched_at,
         http_status = excluded.http_status, content_type = excluded.content_type, charset = excluded.charset,
         html = excluded.html, error = excluded.error, unprocessable = NULL
       RETURNING id`,
    )
    .get({
      url: page.url,
      final_url: page.finalUrl ?? null,
      fetched_at: page.fetchedAt ?? nowIso(),
      http_status: page.httpStatus ?? null,
      content_type: page.contentType ?? null,
      charset: page.charset ?? null,
      html: page.html == null ? null : compressHtml(page.html),
      error: page.error ?? null,
    }) as { id: number };
  return row.id;
}

/**
 * Mark a stored page as one that cannot be processed (past the page caps, or its processing failed),
 * with the reason: later runs skip it instead of failing on it again. Downloading it anew clears the mark.
 */
export function markPageUnprocessable(store: Store, pageId: number, reason: string): void {
  store.sql.prepare("UPDATE pages SET unprocessable = ? WHERE id = ?").run(reason, pageId);
}

/** The stored page with this id or URL, with its HTML; null if there is none. */
export function getPage(store: Store, idOrUrl: number | string): StoredPage | null {
  const row = (
    typeof idOrUrl === "number"
      ? store.sql.prepare(`SELECT ${PAGE_COLUMNS}, html FROM pages WHERE id = ?`).get(idOrUrl)
      : store.sql.prepare(`SELECT ${PAGE_COLUMNS}, html FROM pages WHERE url = ?`).get(idOrUrl)
  ) as (PageRow & { html: Buffer | null }) | undefined;
  if (!row) return null;
  return { ...toSummary(row), html: row.html ? decompressHtml(row.html) : null };
}

/**
 * The stored page for a URL: the page stored under it, else a page whose download a redirect led to it (so a
 * record linking straight to where another record's link redirected reuses that download). Null if none.
 */
export function pageReachedAt(store: Store, url: string): StoredPage | null {
  const direct = getPage(store, url);
  if (direct) return direct;
  const row = store.sql.prepare("SELECT id FROM pages WHERE final_url = ? AND html IS NOT NULL ORDER BY id LIMIT 1").get(url) as
    | { id: number }
    | undefined;
  return row ? getPage(store, row.id) : null;
}

/** Stored pages without their HTML (load one with `getPage`), in id order. */
export function listPages(store: Store, filter: PageFilter = {}): PageSummary[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.withHtml !== undefined) where.push(filter.withHtml ? "html IS NOT NULL" : "html IS NULL");
  if (filter.fetchedSince !== undefined) {
    where.push("fetched_at >= ?");
    params.push(filter.fetchedSince);
  }
  const sql =
    `SELECT ${PAGE_COLUMNS} FROM pages${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY id` +
    (filter.limit !== undefined ? ` LIMIT ${Math.floor(filter.limit)}` : "");
  return (store.sql.prepare(sql).all(...params) as PageRow[]).map(toSummary);
}

const PAGE_COLUMNS =
  "id, url, final_url, fetched_at, http_status, content_type, charset, error, html IS NOT NULL AS has_html, unprocessable";

interface PageRow {
  id: number;
  url: string;
  final_url: string | null;
  fetched_at: string;
  http_status: number | null;
  content_type: string | null;
  charset: string | null;
  error: string | null;
  /** 1 or 0 (SQLite), true or false (PostgreSQL). */
  has_html: number | boolean;
  unprocessable: string | null;
}

function toSummary(row: PageRow): PageSummary {
  return {
    id: row.id,
    url: row.url,
    finalUrl: row.final_url,
    fetchedAt: row.fetched_at,
    httpStatus: row.http_status,
    contentType: row.content_type,
    charset: row.charset,
    error: row.error,
    hasHtml: Boolean(row.has_html),
    unprocessable: row.unprocessable,
  };
}
