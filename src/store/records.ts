import { type ParallelText, parallelText } from "../language-pair.js";
import { nowIso, type Store } from "./db.js";

export type RecordLabel = "bilingual" | "monolingual";

/** A query as submitted: the parallel sentence pair (seed §4.1). Its columns are query_en (source) and query_zh (target). */
export type QueryPair = ParallelText;

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
export function listRecords(store: Store, filter: RecordFilter = {}): StoredRecord[] {
  return [...iterateRecords(store, filter)];
}

/** Like `listRecords`, one record at a time: for exports of any size. */
export function* iterateRecords(store: Store, filter: RecordFilter = {}): Generator<StoredRecord> {
  const { sql, params } = selectSql("SELECT r.*", filter);
  const ordered = `${sql} ORDER BY r.engine, r.query_en, r.query_zh, r.rank, r.id${limitSql(filter)}`;
  for (const row of store.sql.prepare(ordered).iterate(...params) as IterableIterator<RecordRow>) yield toRecord(row);
}

export function countRecords(store: Store, filter: RecordFilter = {}): number {
  const { sql, params } = selectSql("SELECT count(*) AS n", filter);
  return (store.sql.prepare(sql).get(...params) as { n: number }).n;
}

export function getRecord(store: Store, id: number): StoredRecord | null {
  const row = store.sql.prepare("SELECT * FROM records WHERE id = ?").get(id) as RecordRow | undefined;
  return row ? toRecord(row) : null;
}

/** Store the classifier's decision for one record. */
export function setClassification(store: Store, id: number, c: Classification): void {
  const info = store.sql
    .prepare("UPDATE records SET label = ?, probability = ?, model = ?, classified_at = ? WHERE id = ?")
    .run(c.label, c.probability, c.model, nowIso(), id);
  if (info.changes === 0) throw new Error(`setClassification: no record ${id}`);
}

/** Store many decisions in one transaction (much faster than one call per record). */
export function setClassifications(store: Store, decisions: ReadonlyArray<{ id: number } & Classification>): void {
  const stmt = store.sql.prepare("UPDATE records SET label = ?, probability = ?, model = ?, classified_at = ? WHERE id = ?");
  const at = nowIso();
  store.sql.transaction(() => {
    for (const d of decisions) stmt.run(d.label, d.probability, d.model, at, d.id);
  });
}

/** Store a person's label for a record (null clears it). */
export function setAnnotation(store: Store, id: number, label: RecordLabel | null): void {
  const info = store.sql
    .prepare("UPDATE records SET annotation = ?, annotated_at = ? WHERE id = ?")
    .run(label, label === null ? null : nowIso(), id);
  if (info.changes === 0) throw new Error(`setAnnotation: no record ${id}`);
}

function selectSql(select: string, f: RecordFilter): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.engines && f.engines.length > 0) {
    where.push(`r.engine IN (${f.engines.map(() => "?").join(", ")})`);
    params.push(...f.engines);
  }
  if (f.query) {
    where.push("r.query_en = ? AND r.query_zh = ?");
    params.push(f.query.source.text, f.query.target.text);
  }
  if (f.label === "unclassified") where.push("r.label IS NULL");
  else if (f.label) {
    where.push("r.label = ?");
    params.push(f.label);
  }
  if (f.minProbability !== undefined) {
    where.push("r.probability >= ?");
    params.push(f.minProbability);
  }
  if (f.notClassifiedBy !== undefined) {
    where.push("(r.model IS NULL OR r.model <> ?)");
    params.push(f.notClassifiedBy);
  }
  if (f.annotated !== undefined) where.push(f.annotated ? "r.annotation IS NOT NULL" : "r.annotation IS NULL");
  if (f.seenSince !== undefined) {
    where.push("r.last_seen >= ?");
    params.push(f.seenSince);
  }
  if (f.runId !== undefined) {
    where.push("r.id IN (SELECT rf.record_id FROM record_fetches rf JOIN fetches x ON x.id = rf.fetch_id WHERE x.run_id = ?)");
    params.push(f.runId);
  }
  if (f.urlContains !== undefined) {
    where.push("instr(r.url, ?) > 0");
    params.push(f.urlContains);
  }
  const sql = `${select} FROM records r${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""}`;
  return { sql, params };
}

function limitSql(f: RecordFilter): string {
  if (f.limit === undefined && f.offset === undefined) return "";
  // LIMIT -1: no limit (SQLite's spelling; PostgreSQL's LIMIT ALL, see dialect.ts).
  const limit = f.limit === undefined ? -1 : Math.max(0, Math.floor(f.limit));
  return ` LIMIT ${limit} OFFSET ${Math.max(0, Math.floor(f.offset ?? 0))}`;
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
