import { LEGACY_COLUMNS } from "../language-pair.js";
import type { Store } from "./db.js";
import type { QueryPair } from "./records.js";
import { raw, sql } from "./sql.js";

/**
 * Where a stored page came from: the result records that led fetch-pages to it (page_records, migration 6),
 * each with its engine, query, rank and the fetch that returned it.
 */
export interface RecordSource {
  recordId: number;
  engine: string;
  /** The query's two sides (the pair's source and target language). */
  query: { id: number | null; source: string; target: string; file: string | null; line: number | null; note: string | null };
  rank: number;
  recordUrl: string;
  /** When the result page that first returned the record was fetched. */
  fetchedAt: string;
  fetchId: number;
}

export interface PageSource {
  pageId: number;
  /** The page as fetched: its URL, and where redirects led. */
  url: string;
  finalUrl: string | null;
  fetchedAt: string;
  records: RecordSource[];
}

/** Link a fetched page to the records that led to it (kept when the page is fetched again). */
export async function linkPageRecords(store: Store, pageId: number, recordIds: readonly number[]): Promise<void> {
  await store.sql.transaction(async () => {
    for (const r of recordIds) {
      await store.sql.run(sql`INSERT INTO page_records (page_id, record_id) VALUES (${pageId}, ${r}) ON CONFLICT DO NOTHING`);
    }
  });
}

const Q = LEGACY_COLUMNS.query;

/** The sources of the given pages, by page id (records by engine, then rank). */
export async function pageSources(store: Store, pageIds: readonly number[]): Promise<Map<number, PageSource>> {
  const out = new Map<number, PageSource>();
  const records = (
    id: number,
  ) => sql`SELECT r.id AS record_id, r.engine AS engine, r.rank AS rank, r.url AS url, r.first_fetch_id AS fetch_id, f.started_at AS fetched_at,
            q.id AS query_id, coalesce(q.src_text, r.${raw(Q.source)}) AS query_source, coalesce(q.tgt_text, r.${raw(Q.target)}) AS query_target,
            q.source_file AS query_file, q.source_line AS query_line, q.note AS query_note
     FROM page_records pr JOIN records r ON r.id = pr.record_id
     JOIN fetches f ON f.id = r.first_fetch_id
     LEFT JOIN queries q ON q.id = r.query_id
     WHERE pr.page_id = ${id} ORDER BY r.engine, r.rank, r.id`;
  for (const id of new Set(pageIds)) {
    const p = await store.sql.get<{ id: number; url: string; final_url: string | null; fetched_at: string }>(
      sql`SELECT id, url, final_url, fetched_at FROM pages WHERE id = ${id}`,
    );
    if (!p) continue;
    const rows = await store.sql.all<{
      record_id: number;
      engine: string;
      rank: number;
      url: string;
      fetch_id: number;
      fetched_at: string;
      query_id: number | null;
      query_source: string;
      query_target: string;
      query_file: string | null;
      query_line: number | null;
      query_note: string | null;
    }>(records(id));
    out.set(id, {
      pageId: id,
      url: p.url,
      finalUrl: p.final_url,
      fetchedAt: p.fetched_at,
      records: rows.map((r) => ({
        recordId: r.record_id,
        engine: r.engine,
        query: {
          id: r.query_id,
          source: r.query_source,
          target: r.query_target,
          file: r.query_file,
          line: r.query_line,
          note: r.query_note,
        },
        rank: r.rank,
        recordUrl: r.url,
        fetchedAt: r.fetched_at,
        fetchId: r.fetch_id,
      })),
    });
  }
  return out;
}

/**
 * A fetch's query as a `queries` row (made on first use, with where the query was read), linked from the fetch and
 * from the records it stored or saw first (`query_id`). Called inside the fetch's transaction.
 */
export async function linkFetchQuery(store: Store, fetchId: number, query: QueryPair): Promise<void> {
  const { source, target } = query;
  const db = store.sql;
  await db.run(
    sql`INSERT INTO queries (src_lang, tgt_lang, src_text, tgt_text) VALUES (${source.lang}, ${target.lang}, ${source.text}, ${target.text})
        ON CONFLICT DO NOTHING`,
  );
  await noteQueryOrigin(store, query);
  const row = (await db.get<{ id: number }>(
    sql`SELECT id FROM queries WHERE src_lang = ${source.lang} AND tgt_lang = ${target.lang} AND src_text = ${source.text} AND tgt_text = ${target.text}`,
  ))!;
  await db.run(sql`UPDATE fetches SET query_id = ${row.id} WHERE id = ${fetchId}`);
  await db.run(sql`UPDATE records SET query_id = ${row.id} WHERE last_fetch_id = ${fetchId} AND query_id IS NULL`);
}

/**
 * Where a query was read (its list, line and note), on its `queries` row when the row has none yet: the first list
 * a query is harvested from stays its origin, and a row made before origins were kept (migration 9) gains one at the
 * next harvest of its query. Nothing when the query says nowhere (or has no row yet).
 */
export async function noteQueryOrigin(store: Store, query: QueryPair): Promise<void> {
  if (query.file === undefined) return;
  const { source, target } = query;
  await store.sql.run(
    sql`UPDATE queries SET source_file = ${query.file}, source_line = ${query.line ?? null}, note = ${query.note ?? null}
        WHERE src_lang = ${source.lang} AND tgt_lang = ${target.lang} AND src_text = ${source.text} AND tgt_text = ${target.text}
          AND source_file IS NULL`,
  );
}
