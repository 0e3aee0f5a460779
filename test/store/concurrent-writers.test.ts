import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countRecords, latestWrapper, listRecords, openStore, saveWrapper } from "../../src/store/index.js";
import { adminQuery, storeBackends } from "../helpers/postgres.js";

/**
 * Several processes writing one store at once, as the workers of a distributed harvest do: records stay
 * unique (the uniqueness constraint, not a lock taken here, decides who stores a record first), every
 * sighting is counted, and of workers re-learning one wrapper at once exactly one wins each version.
 */
const backends = storeBackends({ beforeAll, afterAll });

/** Real records: Bing's result page for "kumolife" (archive-query-log). */
const RECORDS = (
  JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/serp/bing-kumolife-1388896361.expected.json"), "utf8")) as {
    results: Array<{ title: string; url: string; snippet: string }>;
  }
).results.map((r) => ({ url: r.url, title: r.title.replace(/<\/?em>/g, ""), snippet: r.snippet.replace(/<\/?em>/g, "") }));

/** A raw PostgreSQL connection (node-postgres, one client), playing another worker. */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

interface WriterReport {
  pid: number;
  outcomes: Array<{ newRecords: number; seenAgain: number }>;
  won: number[];
  lost: number;
}

/** Start a writer; `ready` resolves once it has opened the store, `done` with its report. */
function writer(location: string, recordsFile: string, go: string): { ready: Promise<void>; done: Promise<WriterReport> } {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "workers", "concurrent-writer.ts"), location, recordsFile, go],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  let onReady: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => {
    stderr += d;
    if (stderr.startsWith("ready\n")) onReady();
  });
  const done = new Promise<WriterReport>((resolve, reject) =>
    child.on("exit", (code) => {
      onReady();
      if (code === 0) resolve(JSON.parse(stdout) as WriterReport);
      else reject(new Error(`writer exited ${code}: ${stderr}`));
    }),
  );
  return { ready, done };
}

describe.each(backends)("several processes writing one store on $name", (backend) => {
  beforeEach((ctx) => {
    if (backend.skip) ctx.skip();
  });

  it("keeps records unique, counts every sighting, and gives each wrapper version one winner", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-writers-"));
    try {
      const location = await backend.location();
      // Not opened before: the writers' first opens race to create the schema (one migrates, under a lock).
      const recordsFile = join(dir, "records.json");
      writeFileSync(recordsFile, JSON.stringify(RECORDS));
      const go = join(dir, "go");
      const writers = [1, 2, 3].map(() => writer(location, recordsFile, go));
      await Promise.all(writers.map((w) => w.ready));
      writeFileSync(go, "");
      const reports = await Promise.all(writers.map((w) => w.done));
      process.stderr.write(`${backend.name}: wrapper saves lost to another writer: ${reports.map((r) => r.lost).join(", ")}\n`);

      const store = await openStore(location);
      try {
        // 4 queries × the page's distinct URLs, each stored once whoever stored it first.
        const distinct = new Set(RECORDS.map((r) => r.url)).size;
        expect(await countRecords(store)).toBe(4 * distinct);
        const outcomes = reports.flatMap((r) => r.outcomes);
        expect(outcomes.reduce((n, o) => n + o.newRecords, 0)).toBe(4 * distinct);
        for (const o of outcomes) expect(o.newRecords + o.seenAgain).toBe(distinct);
        // 12 pages per process, 3 per query: every record was seen 3 × 3 times.
        expect(new Set((await listRecords(store)).map((r) => r.seenCount))).toEqual(new Set([9]));

        const won = reports.flatMap((r) => r.won).sort((a, b) => a - b);
        const latest = (await latestWrapper(store, "bing"))!;
        expect(won).toEqual(Array.from({ length: latest.version }, (_, i) => i + 1));
        expect(won.length).toBeGreaterThanOrEqual(40);
        const winner = reports.find((r) => r.won.includes(latest.version))!;
        expect(JSON.parse(latest.json).by).toBe(winner.pid);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("lets a stale re-learn lose and hands back the wrapper that won", async () => {
    const store = await openStore(await backend.location());
    try {
      expect(await latestWrapper(store, "bing")).toBeNull();
      expect(await saveWrapper(store, "bing", '{"v":"a"}', 0)).toEqual({ won: true, version: 1 });
      expect(await saveWrapper(store, "bing", '{"v":"b"}', 1)).toEqual({ won: true, version: 2 });
      const lost = await saveWrapper(store, "bing", '{"v":"c"}', 1);
      expect(lost).toMatchObject({ won: false, latest: { engine: "bing", version: 2, json: '{"v":"b"}' } });
      // A caller ahead of the store (a version it never read) loses too, leaving no gap.
      expect(await saveWrapper(store, "bing", '{"v":"d"}', 5)).toMatchObject({ won: false, latest: { version: 2 } });
      expect(await saveWrapper(store, "baidu", "{}", 0)).toEqual({ won: true, version: 1 });
    } finally {
      await store.close();
    }
  });
});

describe("a record another worker stores while ours waits (PostgreSQL)", () => {
  const pg = backends[1]!;
  beforeEach((ctx) => {
    if (pg.skip) ctx.skip();
  });

  it("is counted as seen again once the other commits, not as an error or a duplicate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-writers-"));
    const location = await pg.location();
    await (await openStore(location)).close();
    const recordsFile = join(dir, "records.json");
    writeFileSync(recordsFile, JSON.stringify(RECORDS));
    // The other worker: a transaction that has stored the page's first record and not committed yet.
    const other = await connect(location);
    try {
      await other.query("BEGIN");
      const fetchId = (
        await other.query<{ id: number }>(
          "INSERT INTO fetches (engine, query_en, query_zh, page, url, status, started_at, duration_ms, record_count) VALUES ('bing', 'kumolife', '酷模生活', 1, 'u', 'ok', $1, 1, 1) RETURNING id",
          [new Date().toISOString()],
        )
      ).rows[0]!.id;
      const first = RECORDS[0]!;
      await other.query(
        "INSERT INTO records (engine, query_en, query_zh, url, title, snippet, rank, page, first_seen, last_seen, first_fetch_id, last_fetch_id) VALUES ('bing', 'kumolife', '酷模生活', $1, $2, $3, 1, 1, $4, $4, $5, $5)",
        [first.url, first.title, first.snippet, new Date().toISOString(), fetchId],
      );
      const child = spawn(
        process.execPath,
        ["--import", "tsx", join(import.meta.dirname, "workers", "store-one-page.ts"), location, recordsFile],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      // Ours looked the record up (not there yet), inserted it, and now waits on the uniqueness constraint.
      for (let waited = 0; ; waited += 50) {
        const n = (await adminQuery(location, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))[0]!.n;
        if (n === 1) break;
        if (waited > 60_000) throw new Error(`the worker never waited on the other's record: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await other.query("COMMIT");
      expect(await exited, stderr).toBe(0);
      const distinct = new Set(RECORDS.map((r) => r.url)).size;
      expect(JSON.parse(stdout)).toMatchObject({ newRecords: distinct - 1, seenAgain: 1 });
      const store = await openStore(location);
      try {
        expect(await countRecords(store)).toBe(distinct);
        expect((await listRecords(store, { urlContains: first.url }))[0]).toMatchObject({ seenCount: 2, firstFetchId: Number(fetchId) });
      } finally {
        await store.close();
      }
    } finally {
      await other.end();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
