import { type ParallelText, parallelText } from "../language-pair.js";
import { nowIso, type Store } from "./db.js";
import { type Backend, join, raw, type SqlQuery, sql } from "./sql.js";

export type RecordLabel = "bilingual" | "monolingual";

/**
 * A query as submitted: the parallel sentence pair (seed §4.1). Its columns are query_en (source) and query_zh (target).
 * A query read from a list also says where (`QueryOrigin`): its `queries` row keeps it, for the corpus's provenance.
 */
export interface QueryPair extends ParallelText, Partial<QueryOrigin> {}

/** Where a query was read: the list (an absolute path), its 1-based line, and the line's note column (null: none). */
export interface QueryOrigin {
  file: string;
  line: number;
  note: string | null;
}

/** A search-engine result record as kept in the store (one row per engine + query + url). */
export interface StoredRecord {
  id: number;
  engine: string;
  query: QueryPair;
  url: string;
  title: string;
  snippet: string;
  /** Position in the engine's whole result list: (page − 1) × results per page + rank on the page. */
  rank: number;
  page: number;
  firstSeen: string;
  lastSeen: string;
  firstFetchId: number;
  lastFetchId: number;
  /** How many fetches have returned this record. */
  seenCount: number;
  /** The classifier's decision (null until classified). */
  label: RecordLabel | null;
  /** Probability that the linked page is bilingual. */
  probability: number | null;
  model: string | null;
  classifiedAt: string | null;
  /** A person's label, from annotation. */
  annotation: RecordLabel | null;
  annotatedAt: string | null;
}

/** Which records to list; every field narrows the selection, none selects everything. */
export interface RecordFilter {
  engines?: readonly string[];
  query?: QueryPair;
  /** "unclassified": records the classifier has not labelled yet. */
  label?: RecordLabel | "unclassified";
  /** Records whose probability of being bilingual is at least this. */
  minProbability?: number;
  /** Records not yet classified by this model (unlabelled or labelled by another model). */
  notClassifiedBy?: string;
  annotated?: boolean;
  /** Records seen at or after this ISO time. */
  seenSince?: string;
  /** Records returned by some fetch of this run. */
  runId?: number;
  /** Substring of the record's URL (e.g. a host). */
  urlContains?: string;
  limit?: number;
  offset?: number;
}

export interface Classification {
  label: RecordLabel;
  probability: number;
  model: string;
}

interface RecordRow {
  id: number;
  engine: string;
  query_en: string;
  query_zh: string;
  url: string;
  title: string;
  snippet: string;
  rank: number;
  page: number;
  first_seen: string;
  last_seen: string;
  first_fetch_id: number;
  last_fetch_id: number;
  seen_count: number;
  label: RecordLabel | null;
  probability: number | null;
  model: string | null;
  classified_at: string | null;
  annotation: RecordLabel | null;
  annotated_at: string | null;
}

/** Records matching `filter`, in a stable order (engine, query, rank). */
export async function listRecords(store: Store, filter: RecordFilter = {}): Promise<StoredRecord[]> {
  return (await store.sql.all<RecordRow>(orderedSql(store, filter))).map(toRecord);
}

/** Like `listRecords`, one record at a time: for exports of any size. */
export async function* iterateRecords(store: Store, filter: RecordFilter = {}): AsyncGenerator<StoredRecord> {
  for await (const row of store.sql.iterate<RecordRow>(orderedSql(store, filter))) yield toRecord(row);
}

function orderedSql(store: Store, filter: RecordFilter): SqlQuery {
  return sql`${selectSql(store.sql.backend, raw("SELECT r.*"), filter)} ORDER BY r.engine, r.query_en, r.query_zh, r.rank, r.id${limitSql(store, filter)}`;
}

export async function countRecords(store: Store, filter: RecordFilter = {}): Promise<number> {
  return (await store.sql.get<{ n: number }>(selectSql(store.sql.backend, raw("SELECT count(*) AS n"), filter)))!.n;
}

export async function getRecord(store: Store, id: number): Promise<StoredRecord | null> {
  const row = await store.sql.get<RecordRow>(sql`SELECT * FROM records WHERE id = ${id}`);
  return row ? toRecord(row) : null;
}

/** Store the classifier's decision for one record. */
export async function setClassification(store: Store, id: number, c: Classification): Promise<void> {
  const info = await store.sql.run(
    sql`UPDATE records SET label = ${c.label}, probability = ${c.probability}, model = ${c.model}, classified_at = ${nowIso()} WHERE id = ${id}`,
  );
  if (info.changes === 0) throw new Error(`setClassification: no record ${id}`);
}

/** Store many decisions in one transaction (much faster than one call per record). */
export async function setClassifications(store: Store, decisions: ReadonlyArray<{ id: number } & Classification>): Promise<void> {
  const at = nowIso();
  await store.sql.transaction(async () => {
    for (const d of decisions) {
      await store.sql.run(
        sql`UPDATE records SET label = ${d.label}, probability = ${d.probability}, model = ${d.model}, classified_at = ${at} WHERE id = ${d.id}`,
      );
    }
  });
}

/** Store a person's label for a record (null clears it). */
export async function setAnnotation(store: Store, id: number, label: RecordLabel | null): Promise<void> {
  const info = await store.sql.run(
    sql`UPDATE records SET annotation = ${label}, annotated_at = ${label === null ? null : nowIso()} WHERE id = ${id}`,
  );
  if (info.changes === 0) throw new Error(`setAnnotation: no record ${id}`);
}

function selectSql(backend: Backend, select: SqlQuery, f: RecordFilter): SqlQuery {
  const where: SqlQuery[] = [];
  if (f.engines && f.engines.length > 0) {
    where.push(
      sql`r.engine IN (${join(
        f.engines.map((e) => sql`${e}`),
        ", ",
      )})`,
    );
  }
  if (f.query) where.push(sql`r.query_en = ${f.query.source.text} AND r.query_zh = ${f.query.target.text}`);
  if (f.label === "unclassified") where.push(sql`r.label IS NULL`);
  else if (f.label) where.push(sql`r.label = ${f.label}`);
  if (f.minProbability !== undefined) where.push(sql`r.probability >= ${f.minProbability}`);
  if (f.notClassifiedBy !== undefined) where.push(sql`(r.model IS NULL OR r.model <> ${f.notClassifiedBy})`);
  if (f.annotated !== undefined) where.push(f.annotated ? sql`r.annotation IS NOT NULL` : sql`r.annotation IS NULL`);
  if (f.seenSince !== undefined) where.push(sql`r.last_seen >= ${f.seenSince}`);
  if (f.runId !== undefined) {
    where.push(sql`r.id IN (SELECT rf.record_id FROM record_fetches rf JOIN fetches x ON x.id = rf.fetch_id WHERE x.run_id = ${f.runId})`);
  }
  if (f.urlContains !== undefined) {
    // The same function, spelt per backend.
    const position = backend === "sqlite" ? raw("instr") : raw("strpos");
    where.push(sql`${position}(r.url, ${f.urlContains}) > 0`);
  }
  return sql`${select} FROM records r${where.length > 0 ? sql` WHERE ${join(where, " AND ")}` : raw("")}`;
}

function limitSql(store: Store, f: RecordFilter): SqlQuery {
  if (f.limit === undefined && f.offset === undefined) return raw("");
  // No limit, only an offset: SQLite spells it LIMIT -1, PostgreSQL LIMIT ALL.
  const none = store.sql.backend === "sqlite" ? "-1" : "ALL";
  const limit = f.limit === undefined ? none : String(Math.max(0, Math.floor(f.limit)));
  return raw(` LIMIT ${limit} OFFSET ${Math.max(0, Math.floor(f.offset ?? 0))}`);
}

function toRecord(row: RecordRow): StoredRecord {
  return {
    id: row.id,
    engine: row.engine,
    query: parallelText(row.query_en, row.query_zh),
    url: row.url,
    title: row.title,
    snippet: row.snippet,
    rank: row.rank,
    page: row.page,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    firstFetchId: row.first_fetch_id,
    lastFetchId: row.last_fetch_id,
    seenCount: row.seen_count,
    label: row.label,
    probability: row.probability,
    model: row.model,
    classifiedAt: row.classified_at,
    annotation: row.annotation,
    annotatedAt: row.annotated_at,
  };
}
