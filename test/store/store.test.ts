import { parallelText } from "../../src/language-pair.js";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import {
  countRecords,
  environmentError,
  getFetchHtml,
  getPage,
  iterateRecords,
  lastCompletedFetch,
  listCorpusPairs,
  listFetches,
  listPages,
  listRecords,
  markCrashedRuns,
  type NewFetch,
  type NewRecord,
  openStore,
  pageTaskKey,
  recordFetch,
  replacePairs,
  type Store,
  schemaVersion,
  setAnnotation,
  setClassification,
  startRun,
  upsertPage,
} from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { adminQuery, storeBackends } from "../helpers/postgres.js";
import { runCli } from "../helpers/cli.js";
import { buildRecordStore } from "../helpers/record-store.js";

/** Real result records: Bing's page for "kumolife" (archive-query-log), and one of Baidu's. */
function realRecords(file: string): NewRecord[] {
  const data = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/serp", file), "utf8")) as {
    results: Array<{ rank: number; title: string; url: string; snippet: string }>;
  };
  return data.results.map((r, i) => ({
    url: r.url,
    title: r.title.replace(/<\/?em>/g, ""),
    snippet: r.snippet.replace(/<\/?em>/g, ""),
    rank: i + 1,
  }));
}
const BING = realRecords("bing-kumolife-1388896361.expected.json");
const BAIDU = realRecords("baidu-mao-ning-kui-mao-dan-dan-mang-long-lou-mang-lu-shikato-1537858258.expected.json");
const QUERY = parallelText("I see.", "我明白了。");

function fetchOf(over: Partial<NewFetch> = {}): NewFetch {
  return {
    runId: null,
    engine: "bing",
    query: QUERY,
    page: 1,
    url: "https://www.bing.com/search?q=I%20see.%20我明白了。",
    status: "ok",
    httpStatus: 200,
    startedAt: new Date().toISOString(),
    durationMs: 812,
    ...over,
  };
}

const backends = storeBackends({ beforeAll, afterAll });

let dir: string | undefined;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("a SQLite store", () => {
  it("creates the file and its folder, in WAL mode, at the latest schema version", () => {
    dir = mkdtempSync(join(tmpdir(), "bitext-store-"));
    store = openStore(join(dir, "sub", "bitext.db"));
    const s = store;
    expect(s.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(schemaVersion(s)).toBe(MIGRATIONS.length);
    const tables = (s.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(["runs", "fetches", "records", "pages", "sentence_pairs", "wrappers"]));
  });

  it("refuses a store written by a newer bitext, naming the file", () => {
    dir = mkdtempSync(join(tmpdir(), "bitext-store-"));
    const path = join(dir, "future.db");
    const raw = new Database(path);
    raw.pragma("user_version = 999");
    raw.close();
    expect(() => openStore(path)).toThrow(UserError);
    expect(() => openStore(path)).toThrow(/future\.db: .*schema version 999/);
  });
});

describe.each(backends)("a store on $name", (backend) => {
  beforeEach((ctx) => {
    if (backend.skip) ctx.skip();
  });

  function tempStore(): Store {
    store = openStore(backend.location());
    return store;
  }

  describe("opening a store", () => {
    it("creates the schema at the latest version, recording the migrations applied", () => {
      const s = tempStore();
      expect(schemaVersion(s)).toBe(MIGRATIONS.length);
      for (const table of ["runs", "fetches", "records", "record_fetches", "pages", "sentence_pairs", "wrappers"]) {
        expect((s.sql.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, table).toBe(0);
      }
    });

    it("reopens an existing store without migrating it again and keeps its data", () => {
      const s = tempStore();
      recordFetch(s, fetchOf(), BING);
      const path = s.path;
      s.close();
      store = openStore(path);
      expect(countRecords(store)).toBe(BING.length);
    });
  });

  describe("storing fetches and records", () => {
    it("stores each record once per engine and query, and counts sightings on later fetches", () => {
      const s = tempStore();
      const first = recordFetch(s, fetchOf(), BING);
      expect(first).toMatchObject({ newRecords: BING.length, seenAgain: 0 });
      const later = new Date(Date.now() + 1000).toISOString();
      const second = recordFetch(s, fetchOf({ startedAt: later }), BING.slice(0, 5));
      expect(second).toMatchObject({ newRecords: 0, seenAgain: 5 });
      expect(countRecords(s)).toBe(BING.length);
      const top = listRecords(s, { engines: ["bing"] })[0]!;
      expect(top).toMatchObject({ url: BING[0]!.url, seenCount: 2, firstFetchId: first.fetchId, lastFetchId: second.fetchId });
      expect(top.lastSeen).toBe(later);
      // Another engine's identical URL is another record.
      recordFetch(s, fetchOf({ engine: "baidu" }), [{ ...BING[0]! }]);
      expect(countRecords(s)).toBe(BING.length + 1);
    });

    it("stores a page task completed once: a second worker's fetch of the same page adds nothing", () => {
      const s = tempStore();
      const key = pageTaskKey("demo@2026-11-26", "bing", QUERY, 1);
      // A worker paused past its job lock: the retried job's fetch is stored first, then the resumed worker's.
      const first = recordFetch(s, fetchOf({ taskKey: key }), BING);
      const resumed = recordFetch(s, fetchOf({ taskKey: key, startedAt: new Date(Date.now() + 1000).toISOString() }), BING);
      expect(first).toMatchObject({ duplicate: false, newRecords: BING.length });
      expect(resumed).toEqual({ fetchId: first.fetchId, duplicate: true, newRecords: 0, seenAgain: 0 });
      expect(listFetches(s)).toHaveLength(1);
      expect(listRecords(s, { engines: ["bing"] }).every((r) => r.seenCount === 1)).toBe(true);
      const sightings = s.sql.prepare("SELECT count(*) AS n FROM record_fetches").get() as { n: number | string };
      expect(Number(sightings.n)).toBe(BING.length);
      // Failed attempts of the task repeat freely; another page, run or engine is another task.
      recordFetch(s, fetchOf({ taskKey: key, status: "blocked" }));
      recordFetch(s, fetchOf({ taskKey: key, status: "error" }));
      recordFetch(s, fetchOf({ taskKey: pageTaskKey("demo@2026-11-26", "bing", QUERY, 2), page: 2 }), BING.slice(0, 2));
      recordFetch(s, fetchOf({ taskKey: pageTaskKey("demo@2026-11-27", "bing", QUERY, 1) }), BING.slice(0, 2));
      expect(listFetches(s)).toHaveLength(5);
      // The schema itself refuses a second completion, whatever the code does.
      expect(() =>
        s.sql
          .prepare(
            "INSERT INTO fetches (engine, query_en, query_zh, page, url, status, started_at, duration_ms, task_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .run("bing", "I see.", "我明白了。", 1, "u", "empty", new Date().toISOString(), 1, key),
      ).toThrow(/unique|UNIQUE/);
    });

    it("keeps the best-ranked sighting when a page lists the same URL twice", () => {
      const s = tempStore();
      const dup = [...BAIDU, { ...BAIDU[0]!, rank: 11 }];
      const out = recordFetch(s, fetchOf({ engine: "baidu" }), dup);
      expect(out.newRecords).toBe(BAIDU.length);
      expect(listRecords(s, { urlContains: BAIDU[0]!.url })[0]!.rank).toBe(1);
    });

    it("writes a fetch and its records atomically: a failure half-way leaves neither", () => {
      const s = tempStore();
      const bad = [...BING.slice(0, 3), { url: "x", title: null as unknown as string, snippet: "", rank: 4 }];
      expect(() => recordFetch(s, fetchOf(), bad)).toThrow();
      expect(listFetches(s)).toHaveLength(0);
      expect(countRecords(s)).toBe(0);
    });

    it("never attaches records to a blocked fetch", () => {
      const s = tempStore();
      expect(() => recordFetch(s, fetchOf({ status: "blocked" }), BING)).toThrow(/blocked fetch carries no records/);
    });

    it("skips only fetches that completed (ok or empty) within the max age", () => {
      const s = tempStore();
      const task = { engine: "bing", query: QUERY, page: 1 };
      const hourAgo = new Date(Date.now() - 3600_000).toISOString();
      recordFetch(s, fetchOf({ status: "blocked", httpStatus: 429 }));
      recordFetch(s, fetchOf({ status: "error", detail: "net::ERR_CONNECTION_RESET" }));
      expect(lastCompletedFetch(s, task, hourAgo)).toBeNull();
      recordFetch(s, fetchOf({ status: "empty", startedAt: new Date(Date.now() - 7200_000).toISOString() }));
      expect(lastCompletedFetch(s, task, hourAgo)).toBeNull();
      const ok = recordFetch(s, fetchOf(), BING);
      expect(lastCompletedFetch(s, task, hourAgo)?.id).toBe(ok.fetchId);
      expect(lastCompletedFetch(s, { ...task, page: 2 }, hourAgo)).toBeNull();
    });

    it("keeps the page HTML compressed when asked and gives it back byte for byte", () => {
      const s = tempStore();
      const html = readFileSync(new URL("../fixtures/extract/animal-farm-bilingual.html", import.meta.url));
      const { fetchId } = recordFetch(s, fetchOf({ html }), BING);
      expect(getFetchHtml(s, fetchId)!.equals(html)).toBe(true);
      const stored = s.sql.prepare("SELECT length(html) AS n FROM fetches WHERE id = ?").get(fetchId) as { n: number };
      expect(stored.n).toBeLessThan(html.length / 2);
    });
  });

  describe("reading records back", () => {
    it("streams them one at a time past a cursor's batch, in listing order, and stops early without harm", () => {
      const location = backend.location();
      buildRecordStore(location, 1234);
      store = openStore(location);
      const s = store;
      const listed = listRecords(s);
      expect(listed).toHaveLength(1234);
      expect([...iterateRecords(s)].map((r) => r.id)).toEqual(listed.map((r) => r.id));
      for (const r of iterateRecords(s, { urlContains: "/p/1" })) {
        expect(r.url).toContain("/p/1");
        break;
      }
      recordFetch(s, fetchOf(), BING); // the connection is free again after the early stop
      expect(countRecords(s)).toBe(1234 + BING.length);
      expect(listRecords(s, { engines: ["sim-list"], offset: 1230 })).toHaveLength(4);
      expect(listRecords(s, { engines: ["sim-list"], limit: 3, offset: 2 }).map((r) => r.id)).toEqual(listed.slice(2, 5).map((r) => r.id));
    });
  });

  describe("classification and annotation columns", () => {
    it("lists unclassified records, stores decisions and filters on them", () => {
      const s = tempStore();
      recordFetch(s, fetchOf(), BING);
      const todo = listRecords(s, { label: "unclassified" });
      expect(todo).toHaveLength(BING.length);
      setClassification(s, todo[0]!.id, { label: "bilingual", probability: 0.91, model: "svm-1" });
      setClassification(s, todo[1]!.id, { label: "monolingual", probability: 0.2, model: "svm-1" });
      expect(listRecords(s, { label: "bilingual" }).map((r) => r.url)).toEqual([todo[0]!.url]);
      expect(countRecords(s, { label: "unclassified" })).toBe(BING.length - 2);
      expect(countRecords(s, { minProbability: 0.5 })).toBe(1);
      expect(countRecords(s, { notClassifiedBy: "svm-1" })).toBe(BING.length - 2);
      expect(() => setClassification(s, 424242, { label: "bilingual", probability: 1, model: "m" })).toThrow(/no record/);
      setAnnotation(s, todo[2]!.id, "monolingual");
      expect(listRecords(s, { annotated: true })[0]).toMatchObject({ id: todo[2]!.id, annotation: "monolingual" });
    });

    it("applies a classification carried with a record only when this model has not labelled it yet", () => {
      const s = tempStore();
      const withLabel = BING.map((r) => ({ ...r, classification: { label: "bilingual" as const, probability: 0.7, model: "m1" } }));
      recordFetch(s, fetchOf(), withLabel);
      const id = listRecords(s)[0]!.id;
      setClassification(s, id, { label: "monolingual", probability: 0.1, model: "m1" });
      recordFetch(s, fetchOf({ startedAt: new Date(Date.now() + 5).toISOString() }), withLabel);
      expect(listRecords(s).find((r) => r.id === id)).toMatchObject({ label: "monolingual", model: "m1" });
    });

    it("lists the records a run saw", () => {
      const s = tempStore();
      const run1 = startRun(s, {});
      recordFetch(s, fetchOf({ runId: run1 }), BING.slice(0, 4));
      const run2 = startRun(s, {});
      recordFetch(s, fetchOf({ runId: run2, engine: "baidu" }), BAIDU.slice(0, 3));
      recordFetch(s, fetchOf({ runId: run2, startedAt: new Date(Date.now() + 9).toISOString() }), BING.slice(0, 1));
      expect(countRecords(s, { runId: run1 })).toBe(4);
      expect(countRecords(s, { runId: run2 })).toBe(4);
    });
  });

  describe("runs", () => {
    it("marks runs left 'running' by a dead process as crashed", () => {
      const s = tempStore();
      const id = startRun(s, { engines: ["bing"] });
      s.sql.prepare("UPDATE runs SET pid = 2147483646 WHERE id = ?").run(id);
      const live = startRun(s, {});
      expect(markCrashedRuns(s)).toBe(1);
      const statuses = s.sql.prepare("SELECT id, status FROM runs ORDER BY id").all();
      expect(statuses).toEqual([
        { id, status: "crashed" },
        { id: live, status: "running" },
      ]);
    });
  });

  describe("pages and sentence pairs (for the extract step)", () => {
    it("upserts a page per URL, keeping its id, and returns the stored bytes", () => {
      const s = tempStore();
      const html = readFileSync(new URL("../fixtures/extract/animal-farm-bilingual.html", import.meta.url));
      const id = upsertPage(s, { url: "http://example.org/a", httpStatus: 500, error: "HTTP 500" });
      const again = upsertPage(s, { url: "http://example.org/a", httpStatus: 200, contentType: "text/html", charset: "utf-8", html });
      expect(again).toBe(id);
      const page = getPage(s, "http://example.org/a")!;
      expect(page).toMatchObject({ id, httpStatus: 200, error: null, hasHtml: true, charset: "utf-8" });
      expect(page.html!.equals(html)).toBe(true);
      expect(getPage(s, id)!.url).toBe("http://example.org/a");
      expect(getPage(s, "http://nowhere/")).toBeNull();
      upsertPage(s, { url: "http://example.org/b", error: "timeout" });
      expect(listPages(s, { withHtml: false }).map((p) => p.url)).toEqual(["http://example.org/b"]);
    });

    it("replaces a page's pairs and deduplicates the corpus keeping every source URL", () => {
      const s = tempStore();
      const a = upsertPage(s, { url: "http://a.example/", html: "<p>x</p>" });
      const b = upsertPage(s, { url: "http://b.example/", html: "<p>y</p>" });
      const pair = { en: "I see.", zh: "我明白了。", enNorm: "i see", zhNorm: "我明白了", method: "seed" };
      replacePairs(s, a, [
        { ...pair, score: 0.6 },
        { en: "Thanks.", zh: "谢谢！", enNorm: "thanks", zhNorm: "谢谢", score: 0.9 },
      ]);
      replacePairs(s, a, [{ ...pair, score: 0.6 }]); // re-extraction replaces, never duplicates
      replacePairs(s, b, [{ ...pair, en: "I see!", score: 0.8, method: "rwr" }]);
      const corpus = listCorpusPairs(s);
      expect(corpus).toHaveLength(1);
      expect(corpus[0]).toMatchObject({ en: "I see!", zh: "我明白了。", score: 0.8, occurrences: 2 });
      expect(corpus[0]!.urls).toEqual(["http://a.example/", "http://b.example/"]);
      expect(corpus[0]!.methods.sort()).toEqual(["rwr", "seed"]);
      expect(listCorpusPairs(s, { minScore: 0.85 })).toHaveLength(0);
    });
  });
});

describe("a PostgreSQL store without pg-native", () => {
  it("is a one-line error saying what to install, naming the URL without its password", () => {
    // A process of its own: pg-native is hidden by a module hook loaded at start-up (NODE_OPTIONS).
    const r = runCli(["export", "records", "--db", "postgres://bitext:secret@127.0.0.1:1/bitext"], {
      env: { NODE_OPTIONS: `--require ${join(import.meta.dirname, "workers", "without-pg-native.cjs")}` },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "bitext: postgres://bitext:***@127.0.0.1:1/bitext: a PostgreSQL store needs the optional package pg-native, which is not installed: " +
        "install it with npm install pg-native (building it needs libpq-dev), or use a SQLite store file\n",
    );
  });
});

describe("a PostgreSQL store", () => {
  const pg = backends[1]!;
  beforeEach((ctx) => {
    if (pg.skip) ctx.skip();
  });

  it("refuses a database migrated by a newer bitext, naming it without its password", () => {
    const url = pg.location();
    openStore(url).close();
    adminQuery(url, "INSERT INTO bitext_schema (version, applied_at) VALUES (999, 'later')");
    const withPassword = url.replace("postgres@", "postgres:secret@");
    expect(() => openStore(withPassword)).toThrow(UserError);
    expect(() => openStore(withPassword)).toThrow(/^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/t\d+: .*schema version 999/);
  });

  it("fails the operation under way when the connection drops, and reconnects for the next one", () => {
    const url = pg.location();
    store = openStore(url);
    const s = store;
    recordFetch(s, fetchOf(), BING);
    adminQuery(
      url,
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    let failure: unknown;
    try {
      recordFetch(s, fetchOf({ startedAt: new Date(Date.now() + 1000).toISOString() }), BING);
    } catch (err) {
      failure = err;
    }
    expect(environmentError(failure, s.path)?.message).toMatch(/: lost the connection to the PostgreSQL store \(/);
    expect(listFetches(s)).toHaveLength(1); // nothing half-written; the page is simply stored again
    expect(recordFetch(s, fetchOf({ startedAt: new Date(Date.now() + 2000).toISOString() }), BING)).toMatchObject({
      seenAgain: BING.length,
    });
  });

  it("says in one line that the server cannot be reached", () => {
    const url = pg.location().replace(/:\d+\//, ":1/");
    expect(() => openStore(url)).toThrow(UserError);
    expect(() => openStore(url)).toThrow(/^postgres:\/\/postgres@127\.0\.0\.1:1\/t\d+: cannot connect to the PostgreSQL store \([^\n]+\)$/);
  });
});
