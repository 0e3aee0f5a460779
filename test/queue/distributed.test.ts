import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LazyBrowser } from "../../src/queue/index.js";
import { DEFAULT_INTERPRET, HttpLoader, harvest, readQueryFile } from "../../src/serp/index.js";
import { openStore } from "../../src/store/index.js";
import { runCommand } from "../helpers/cli.js";
import {
  backends,
  enqueue,
  fetchRows,
  queryFile,
  queuedRun,
  RATES,
  recordRows,
  requestsPerPage,
  setups,
  useServers,
  worker,
} from "../helpers/distributed.js";
import { adminQuery } from "../helpers/postgres.js";

/**
 * Distributed harvesting for real: a redis-server, the engine simulator, and three `bitext worker` processes taking
 * the page jobs that `bitext harvest --queue` enqueued, into one store they share (SQLite in WAL, or PostgreSQL).
 * Workers that fail: distributed-failures.test.ts; the engine's pace and the jobs' content: distributed-jobs.test.ts.
 */

describe.each(backends)("distributed harvest (BullMQ on Redis, 3 worker processes, $backend store)", ({ backend, skip }) => {
  const servers = useServers({ skip, postgres: backend === "PostgreSQL" });

  it.skipIf(skip !== null || backend !== "PostgreSQL")(
    "dropped PostgreSQL connections lose nothing: the pool opens new ones, a page caught in flight is retried by the queue",
    async () => {
      const { redis, s, pg } = servers;
      const { db } = await queuedRun(servers, "dropped", 12, 400, "sim-table");
      const w = worker(redis, s, db, "sim-table", ["--concurrency", "1"]);
      const name = new URL(db).pathname.slice(1);
      const fetches = async () => Number((await adminQuery(db, "SELECT count(*) AS n FROM fetches"))[0]!.n);
      while ((await fetches()) < 3) await new Promise((r) => setTimeout(r, 20));
      await adminQuery(pg!.url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [
        name,
      ]);
      const e = await w.done;
      expect(e, e.stderr).toMatchObject({ code: 0 });
      // Whether a statement was in flight when its connection went depends on timing (the pool replaces idle
      // ones unseen); what must hold either way: every page stored, once.
      expect(e.stderr).not.toMatch(/internal error/);
      const pages = await adminQuery(db, "SELECT query_en, count(*) AS n FROM fetches WHERE status = 'ok' GROUP BY query_en");
      expect(pages).toHaveLength(12);
      expect(pages.every((r) => Number(r.n) === 1)).toBe(true);
    },
    120_000,
  );

  it.skipIf(skip !== null)(
    "fetches every page exactly once and stores what one process stores; over sixty queries (SQLite), keeps each engine's rate over all workers",
    async () => {
      const { redis, s, pg } = servers;
      // Sixty queries where the engines' rate is checked too (SQLite); the PostgreSQL store needs fewer to show every page
      // stored once by three processes (the rate is the queue's, the same whatever the store).
      const queries = backend === "SQLite" ? 60 : 24;
      const list = queryFile(s.dir, "sixty", queries);
      const engines = "sim-list,sim-div";
      // The engines' wrappers, learned from the first two queries' pages; then, with the wrappers fixed
      // (self-healing off, so that both sides read every page with the same wrapper), the reference: the
      // same list harvested by one process.
      const browser = new LazyBrowser({ timeoutMs: 10_000 });
      const http = new HttpLoader({ timeoutMs: 10_000, identity: await browser.identity() });
      const reference = await openStore(join(s.dir, "reference.db"));
      let referenceFrom = 0;
      try {
        const learning = await openStore(join(s.dir, "learning.db"));
        const queries = readQueryFile(list);
        await harvest(learning, { queries: queries.slice(0, 2), engines: setups(s), driver: browser, http, concurrency: 1 });
        await learning.close();
        referenceFrom = s.sim.log.length;
        const summary = await harvest(reference, {
          queries,
          engines: setups(s),
          driver: browser,
          http,
          pages: 2,
          concurrency: 4,
          interpret: { ...DEFAULT_INTERPRET, learn: false },
        });
        expect(summary).toMatchObject({ errors: 0, blocked: 0, left: 0 });
        expect(browser.started).toBe(false);
      } finally {
        await http.close();
      }
      const before = s.sim.log.length;

      const queued = await enqueue(redis, s, list, engines, ["--pages", "2"]);
      expect(queued).toMatchObject({ offered: 2 * queries, added: 2 * queries });
      // Enqueuing the same list again adds nothing.
      expect(await enqueue(redis, s, list, engines, ["--pages", "2"])).toMatchObject({ offered: 2 * queries, added: 0 });

      const db = pg ? await pg.createDatabase() : join(s.dir, "workers.db");
      await (await openStore(db)).close(); // the schema, before three processes open it at once
      // A stall interval no busy machine reaches: a worker whose event loop the whole suite on two cores held up for
      // 2 s lost its job to another, which asked the engine again (the page was stored once; the tests below that stop
      // a worker check that). Here every request must be asked once.
      const workers = [1, 2, 3].map(() => worker(redis, s, db, engines, ["--concurrency", "4", "--no-learn"], "15s"));
      const ended = await Promise.all(workers.map((w) => w.done));
      for (const e of ended) expect(e, e.stderr).toMatchObject({ code: 0 });

      // Every page fetched exactly once, and the same pages as the single process fetched.
      const pages = requestsPerPage(s.sim, before);
      expect([...pages.values()].every((n) => n === 1)).toBe(true);
      expect([...pages.keys()].sort()).toEqual([...requestsPerPage(s.sim, referenceFrom, before).keys()].sort());
      expect(pages.size).toBeGreaterThan(2 * queries); // some second pages came back full and were enqueued
      // The work was shared.
      const perWorker = ended.map((e) => [...e.stdout.matchAll(/(\d+) pages fetched/g)].reduce((n, m) => n + Number(m[1]), 0));
      expect(perWorker.reduce((a, b) => a + b, 0)).toBe(pages.size);
      expect(perWorker.filter((n) => n > 0).length).toBeGreaterThan(1);

      const store = await openStore(db);
      try {
        expect(await fetchRows(store)).toEqual(await fetchRows(reference));
        expect(await recordRows(store)).toEqual(await recordRows(reference));
      } finally {
        await store.close();
        await reference.close();
      }

      // Politeness: BullMQ's limiter spaces each engine's job starts over all workers by the interval (plus
      // its margin). The simulator sees each request some ms after its job started (more on a busy machine),
      // so it checks the rate: never more than the configured limit within any window of 50 intervals.
      const rates = backend === "SQLite" ? RATES : [];
      for (const [engine, interval] of rates) {
        const times = s.sim.log
          .slice(before)
          .filter((l) => l.engine === engine)
          .map((l) => l.at)
          .sort((a, b) => a - b);
        expect(times.length).toBeGreaterThan(60);
        const windowMs = interval * 50;
        const most = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + windowMs).length));
        expect(most, `${engine}: requests within ${windowMs} ms`).toBeLessThanOrEqual(50);
        expect((times.length - 1) / (times.at(-1)! - times[0]!), `${engine}: mean rate (per ms)`).toBeLessThanOrEqual(1 / interval);
      }

      const status = await runCommand(["queue", "status", "--queue", redis.url, "--json"]);
      expect(status.code).toBe(0);
      const st = JSON.parse(status.stdout) as {
        runs: Array<{ run: string; engine: string; waiting: number; active: number; done: number; failed: number }>;
      };
      const ours = st.runs.filter((r) => r.run === queued.run);
      expect(ours.map((r) => r.engine).sort()).toEqual(["sim-div", "sim-list"]);
      expect(ours.reduce((n, r) => n + r.done, 0)).toBe(pages.size);
      expect(ours.every((r) => r.waiting === 0 && r.active === 0 && r.failed === 0)).toBe(true);
    },
    180_000,
  );
});
