import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import {
  countRecords,
  getFetchHtml,
  getPage,
  lastCompletedFetch,
  listCorpusPairs,
  listFetches,
  listPages,
  listRecords,
  markCrashedRuns,
  type NewFetch,
  type NewRecord,
  openStore,
  recordFetch,
  replacePairs,
  type Store,
  schemaVersion,
  setAnnotation,
  setClassification,
  startRun,
  upsertPage,
} from "../../src/store/index.js";

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
const QUERY = { en: "I see.", zh: "我明白了。" };

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

let dir: string | undefined;
let store: Store | undefined;
function tempStore(): Store {
  dir = mkdtempSync(join(tmpdir(), "bitext-store-"));
  store = openStore(join(dir, "sub", "bitext.db"));
  return store;
}
afterEach(() => {
  store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("opening a store", () => {
  it("creates the file and its folder, in WAL mode, at the latest schema version", () => {
    const s = tempStore();
    expect(s.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(schemaVersion(s)).toBeGreaterThanOrEqual(1);
    const tables = (s.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    expect(tables).toEqual(expect.arrayContaining(["runs", "fetches", "records", "pages", "sentence_pairs"]));
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
    const stored = s.db.prepare("SELECT length(html) AS n FROM fetches WHERE id = ?").get(fetchId) as { n: number };
    expect(stored.n).toBeLessThan(html.length / 2);
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
    s.db.prepare("UPDATE runs SET pid = 2147483646 WHERE id = ?").run(id);
    const live = startRun(s, {});
    expect(markCrashedRuns(s)).toBe(1);
    const statuses = s.db.prepare("SELECT id, status FROM runs ORDER BY id").all();
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
    replacePairs(s, a, [{ ...pair, score: 0.6 }, { en: "Thanks.", zh: "谢谢！", enNorm: "thanks", zhNorm: "谢谢", score: 0.9 }]);
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
