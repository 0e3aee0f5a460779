import { ddlToPostgres } from "./dialect.js";

/**
 * The store's schema, as an ordered list of migrations, written in SQLite's dialect and translated for
 * PostgreSQL (`migrationSql`). `PRAGMA user_version` (PostgreSQL: the table `bitext_schema`) records how
 * many have been applied; `openStore` applies the rest in one transaction, so a store is always at a
 * known version. Never edit a shipped migration: append a new one.
 *
 * Table names and the columns listed in the store contract (docs/guide/harvest.md) are relied on by the
 * classify and extract modules; add columns freely, never rename or drop them.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: harvest runs, fetches, records; linked pages and the sentence pairs extracted from them.
  `
  CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted', 'failed', 'crashed')),
    options     TEXT NOT NULL DEFAULT '{}',
    summary     TEXT,
    pid         INTEGER,
    hostname    TEXT
  );

  CREATE TABLE fetches (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER REFERENCES runs(id),
    engine             TEXT NOT NULL,
    query_en           TEXT NOT NULL,
    query_zh           TEXT NOT NULL,
    page               INTEGER NOT NULL,
    url                TEXT NOT NULL,
    final_url          TEXT,
    status             TEXT NOT NULL CHECK (status IN ('ok', 'empty', 'blocked', 'error')),
    http_status        INTEGER,
    detail             TEXT,
    started_at         TEXT NOT NULL,
    duration_ms        INTEGER NOT NULL,
    content_sha256     TEXT,
    html               BLOB,
    record_count       INTEGER NOT NULL DEFAULT 0,
    wrapper_learned_at TEXT
  );
  CREATE INDEX fetches_task ON fetches (engine, query_en, query_zh, page, started_at);
  CREATE INDEX fetches_run ON fetches (run_id);

  CREATE TABLE records (
    id             INTEGER PRIMARY KEY,
    engine         TEXT NOT NULL,
    query_en       TEXT NOT NULL,
    query_zh       TEXT NOT NULL,
    url            TEXT NOT NULL,
    title          TEXT NOT NULL,
    snippet        TEXT NOT NULL,
    rank           INTEGER NOT NULL,
    page           INTEGER NOT NULL,
    first_seen     TEXT NOT NULL,
    last_seen      TEXT NOT NULL,
    first_fetch_id INTEGER NOT NULL REFERENCES fetches(id),
    last_fetch_id  INTEGER NOT NULL REFERENCES fetches(id),
    seen_count     INTEGER NOT NULL DEFAULT 1,
    label          TEXT CHECK (label IN ('bilingual', 'monolingual')),
    probability    REAL,
    model          TEXT,
    classified_at  TEXT,
    annotation     TEXT CHECK (annotation IN ('bilingual', 'monolingual')),
    annotated_at   TEXT,
    UNIQUE (engine, query_en, query_zh, url)
  );
  CREATE INDEX records_label ON records (label, probability);
  CREATE INDEX records_url ON records (url);
  CREATE INDEX records_last_fetch ON records (last_fetch_id);

  -- Every sighting of a record: which fetch returned it, at which rank (rank history, per-run listings).
  CREATE TABLE record_fetches (
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    fetch_id  INTEGER NOT NULL REFERENCES fetches(id) ON DELETE CASCADE,
    rank      INTEGER NOT NULL,
    PRIMARY KEY (record_id, fetch_id)
  ) WITHOUT ROWID;
  CREATE INDEX record_fetches_fetch ON record_fetches (fetch_id);

  CREATE TABLE pages (
    id           INTEGER PRIMARY KEY,
    url          TEXT NOT NULL UNIQUE,
    final_url    TEXT,
    fetched_at   TEXT NOT NULL,
    http_status  INTEGER,
    content_type TEXT,
    charset      TEXT,
    html         BLOB,
    error        TEXT
  );

  CREATE TABLE sentence_pairs (
    id      INTEGER PRIMARY KEY,
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    en      TEXT NOT NULL,
    zh      TEXT NOT NULL,
    score   REAL,
    method  TEXT,
    en_norm TEXT NOT NULL,
    zh_norm TEXT NOT NULL
  );
  CREATE INDEX sentence_pairs_page ON sentence_pairs (page_id);
  CREATE INDEX sentence_pairs_norm ON sentence_pairs (en_norm, zh_norm);
  `,
  // 2: robustness — a heartbeat per run (a run whose heartbeat stopped is dead, whatever its host), and
  // the reason a stored page or kept result page cannot be processed (later runs skip it).
  `
  ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;
  ALTER TABLE pages ADD COLUMN unprocessable TEXT;
  ALTER TABLE fetches ADD COLUMN unprocessable TEXT;
  `,
  // 3: how each result page was fetched: the proxy that served it, and the path (browser or plain HTTP).
  `
  ALTER TABLE fetches ADD COLUMN proxy TEXT;
  ALTER TABLE fetches ADD COLUMN fetched_with TEXT CHECK (fetched_with IN ('browser', 'http'));
  `,
  // 4: pages looked up by where their redirects led (fetch-pages reuses such a download).
  `
  CREATE INDEX pages_final_url ON pages (final_url);
  `,
  // 5: wrappers shared by the workers of a distributed harvest: every (re-)learned wrapper of an engine is a
  // new version; the primary key lets exactly one of two workers re-learning at once store its version.
  `
  CREATE TABLE wrappers (
    engine     TEXT NOT NULL,
    version    INTEGER NOT NULL,
    json       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (engine, version)
  );
  `,
  // 6: a page task is completed once. `task_key` names the (harvest, engine, query, page) a fetch is for (a
  // distributed run's page job id; a local run's own key). The partial unique index lets exactly one of two
  // workers that both fetched the page (one paused past its job lock, then resumed) store a completed fetch:
  // the other's insert does nothing. Failed attempts (blocked, error) repeat freely; older fetches keep a NULL
  // key, which never conflicts.
  `
  ALTER TABLE fetches ADD COLUMN task_key TEXT;
  CREATE UNIQUE INDEX fetches_task_done ON fetches (task_key) WHERE status IN ('ok', 'empty');
  `,
  // 7: wrapper health (issue 30) — each engine's health profile (the figures of its last pages read well, JSON),
  // and every page found outside it (drift), with what was done: re-learned, left drifting, or the engine stopped.
  `
  CREATE TABLE engine_health (
    engine     TEXT PRIMARY KEY,
    profile    TEXT NOT NULL,
    pages      INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  );

  CREATE TABLE drift_events (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER REFERENCES runs(id),
    fetch_id    INTEGER REFERENCES fetches(id) ON DELETE CASCADE,
    engine      TEXT NOT NULL,
    detected_at TEXT NOT NULL,
    metrics     TEXT NOT NULL,
    action      TEXT NOT NULL CHECK (action IN ('relearned', 'drift', 'stopped'))
  );
  CREATE INDEX drift_events_run ON drift_events (run_id);
  CREATE INDEX drift_events_engine ON drift_events (engine, detected_at);
  `,
  // 8: engines fetched in `auto` mode whose pages came only through the browser: later runs go to the browser
  // at once instead of downloading every page twice.
  `
  CREATE TABLE engine_needs_browser (
    engine    TEXT PRIMARY KEY,
    reason    TEXT NOT NULL,
    noted_at  TEXT NOT NULL
  );
  `,
  // 9: corpus provenance and quality (issue 24). The queries as rows of their own (each side's text and language;
  // the file, line and note they came from), linked from fetches and records; which result records led to each
  // fetched page; each sentence pair's languages, the pair scorer's probability and the rules against it
  // (reasons: a JSON array, '[]' when kept, NULL when not scored yet). Stores before it held en–zh only.
  `
  CREATE TABLE queries (
    id          INTEGER PRIMARY KEY,
    src_lang    TEXT NOT NULL,
    tgt_lang    TEXT NOT NULL,
    src_text    TEXT NOT NULL,
    tgt_text    TEXT NOT NULL,
    source_file TEXT,
    source_line INTEGER,
    note        TEXT,
    UNIQUE (src_lang, tgt_lang, src_text, tgt_text)
  );
  INSERT INTO queries (src_lang, tgt_lang, src_text, tgt_text)
    SELECT 'en', 'zh', query_en, query_zh FROM fetches
    UNION SELECT 'en', 'zh', query_en, query_zh FROM records;
  ALTER TABLE fetches ADD COLUMN query_id INTEGER REFERENCES queries(id);
  ALTER TABLE records ADD COLUMN query_id INTEGER REFERENCES queries(id);
  UPDATE fetches SET query_id = (SELECT q.id FROM queries q
    WHERE q.src_lang = 'en' AND q.tgt_lang = 'zh' AND q.src_text = fetches.query_en AND q.tgt_text = fetches.query_zh);
  UPDATE records SET query_id = (SELECT q.id FROM queries q
    WHERE q.src_lang = 'en' AND q.tgt_lang = 'zh' AND q.src_text = records.query_en AND q.tgt_text = records.query_zh);
  CREATE INDEX fetches_query ON fetches (query_id);
  CREATE INDEX records_query ON records (query_id);

  CREATE TABLE page_records (
    page_id   INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    PRIMARY KEY (page_id, record_id)
  ) WITHOUT ROWID;
  CREATE INDEX page_records_record ON page_records (record_id);
  INSERT INTO page_records (page_id, record_id) SELECT p.id, r.id FROM pages p JOIN records r ON r.url = p.url;

  ALTER TABLE sentence_pairs ADD COLUMN src_lang TEXT;
  ALTER TABLE sentence_pairs ADD COLUMN tgt_lang TEXT;
  ALTER TABLE sentence_pairs ADD COLUMN quality REAL;
  ALTER TABLE sentence_pairs ADD COLUMN reasons TEXT;
  UPDATE sentence_pairs SET src_lang = 'en', tgt_lang = 'zh';
  `,
];

/** A migration in the dialect of the store's backend. */
export function migrationSql(sql: string, backend: "sqlite" | "postgres"): string {
  return backend === "postgres" ? ddlToPostgres(sql) : sql;
}
