import { compressHtml, decompressHtml } from "./blob.js";
import { nowIso, type Store } from "./db.js";
import { join, raw, type SqlQuery, sql } from "./sql.js";

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
export async function upsertPage(store: Store, page: PageInput): Promise<number> {
  const html = page.html == null ? null : compressHtml(page.html);
  const row = await store.sql.get<{ id: number }>(
    sql`INSERT INTO pages (url, final_url, fetched_at, http_status, content_type, charset, html, error)
       VALUES (${page.url}, ${page.finalUrl ?? null}, ${page.fetchedAt ?? nowIso()}, ${page.httpStatus ?? null},
         ${page.contentType ?? null}, ${page.charset ?? null}, ${html}, ${page.error ?? null})
       ON CONFLICT (url) DO UPDATE SET final_url = excluded.final_url, fetched_at = excluded.fetched_at,
         http_status = excluded.http_status, content_type = excluded.content_type, charset = excluded.charset,
         html = excluded.html, error = excluded.error, unprocessable = NULL
       RETURNING id`,
  );
  return row!.id;
}

/**
 * Mark a stored page as one that cannot be processed (past the page caps, or its processing failed),
 * with the reason: later runs skip it instead of failing on it again. Downloading it anew clears the mark.
 */
export async function markPageUnprocessable(store: Store, pageId: number, reason: string): Promise<void> {
  await store.sql.run(sql`UPDATE pages SET unprocessable = ${reason} WHERE id = ${pageId}`);
}

/** The stored page with this id or URL, with its HTML; null if there is none. */
export async function getPage(store: Store, idOrUrl: number | string): Promise<StoredPage | null> {
  const row = await store.sql.get<PageRow & { html: Buffer | null }>(
    typeof idOrUrl === "number"
      ? sql`SELECT ${PAGE_COLUMNS}, html FROM pages WHERE id = ${idOrUrl}`
      : sql`SELECT ${PAGE_COLUMNS}, html FROM pages WHERE url = ${idOrUrl}`,
  );
  if (!row) return null;
  return { ...toSummary(row), html: row.html ? decompressHtml(row.html) : null };
}

/**
 * The stored page for a URL: the page stored under it, else a page whose download a redirect led to it (so a
 * record linking straight to where another record's link redirected reuses that download). Null if none.
 */
export async function pageReachedAt(store: Store, url: string): Promise<StoredPage | null> {
  const direct = await getPage(store, url);
  if (direct) return direct;
  const row = await store.sql.get<{ id: number }>(
    sql`SELECT id FROM pages WHERE final_url = ${url} AND html IS NOT NULL ORDER BY id LIMIT 1`,
  );
  return row ? getPage(store, row.id) : null;
}

/** Stored pages without their HTML (load one with `getPage`), in id order. */
export async function listPages(store: Store, filter: PageFilter = {}): Promise<PageSummary[]> {
  const where: SqlQuery[] = [];
  if (filter.withHtml !== undefined) where.push(filter.withHtml ? sql`html IS NOT NULL` : sql`html IS NULL`);
  if (filter.fetchedSince !== undefined) where.push(sql`fetched_at >= ${filter.fetchedSince}`);
  const limit = filter.limit !== undefined ? raw(` LIMIT ${Math.floor(filter.limit)}`) : raw("");
  const rows = await store.sql.all<PageRow>(
    sql`SELECT ${PAGE_COLUMNS} FROM pages${where.length ? sql` WHERE ${join(where, " AND ")}` : raw("")} ORDER BY id${limit}`,
  );
  return rows.map(toSummary);
}

const PAGE_COLUMNS = raw(
  "id, url, final_url, fetched_at, http_status, content_type, charset, error, html IS NOT NULL AS has_html, unprocessable",
);

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
