import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { backends, queuedRun, rows, unavailable, useServers, worker } from "../helpers/distributed.js";

/**
 * Distributed harvesting when things go away: a worker killed or frozen in the middle of a page, Redis restarted, a
 * wrapper learned by three workers at once. Nothing lost, nothing stored twice.
 */

describe.skipIf(unavailable !== null)("distributed harvest: workers and Redis that go away", () => {
  // Every search takes 250 ms: a worker can be caught in the middle of a page.
  const servers = useServers({ latencyMs: 250, persistent: true });

  /** One successful fetch per page of the list, and every page of the list there. */
  const expectEveryPageOnce = async (db: string, engine: string, n: number) => {
    const store = await openStore(db, { readonly: true });
    try {
      const ok = await rows(
        store,
        `SELECT query_en, page, count(*) AS n FROM fetches WHERE engine = '${engine}' AND status IN ('ok', 'empty') GROUP BY 1, 2`,
      );
      expect(ok.filter((r) => r.page === 1)).toHaveLength(n);
      expect(ok.every((r) => r.n === 1)).toBe(true);
      const dupes = await rows(store, "SELECT engine, query_en, url, count(*) AS n FROM records GROUP BY 1, 2, 3 HAVING n > 1");
      expect(dupes).toEqual([]);
    } finally {
      await store.close();
    }
  };

  it("kill -9 of a worker mid-page: another takes its job after the stall interval; nothing lost, nothing stored twice", async () => {
    const { redis, s } = servers;
    const { db, before } = await queuedRun(servers, "killed", 8, 100, "sim-table");
    const victim = worker(redis, s, db, "sim-table", ["--concurrency", "1"]);
    // Its third search has reached the simulator, whose answer takes 250 ms: kill the worker now.
    while (s.sim.log.length < before + 3) await new Promise((r) => setTimeout(r, 10));
    victim.child.kill("SIGKILL");
    expect((await victim.done).signal).toBe("SIGKILL");
    const inFlight = s.sim.log[before + 2]!;
    const rescuers = [worker(redis, s, db, "sim-table"), worker(redis, s, db, "sim-table")];
    for (const e of await Promise.all(rescuers.map((w) => w.done))) expect(e, e.stderr).toMatchObject({ code: 0 });
    await expectEveryPageOnce(db, "sim-table", 8);
    // The page in flight was asked again (by a rescuer), once.
    const asked = s.sim.log
      .slice(before)
      .filter((l) => l.engine === inFlight.engine && l.query === inFlight.query && l.page === inFlight.page);
    expect(asked).toHaveLength(2);
  }, 120_000);

  it("Redis restarted mid-run: the workers reconnect and finish every page", async () => {
    const { redis, s } = servers;
    const { db, before } = await queuedRun(servers, "restart", 12, 200, "sim-list");
    const workers = [worker(redis, s, db, "sim-list"), worker(redis, s, db, "sim-list")];
    while (s.sim.log.length < before + 4) await new Promise((r) => setTimeout(r, 10));
    await redis.restart(1000);
    const ended = await Promise.all(workers.map((w) => w.done));
    for (const e of ended) expect(e, e.stderr).toMatchObject({ code: 0 });
    expect(ended.some((e) => /reconnecting/.test(e.stderr))).toBe(true);
    await expectEveryPageOnce(db, "sim-list", 12);
  }, 120_000);

  it("a wrapper learned by one worker reaches the others through the store: one version, used by all", async () => {
    const { redis, s } = servers;
    const { db } = await queuedRun(servers, "learning", 6, 300, "sim-div");
    // sim-div has no wrapper yet: the three workers' first pages all teach one at once.
    const ended = await Promise.all([1, 2, 3].map(() => worker(redis, s, db, "sim-div", ["--concurrency", "1"]).done));
    for (const e of ended) expect(e, e.stderr).toMatchObject({ code: 0 });
    const fetching = ended.filter((e) => /\b[1-9]\d* pages fetched/.test(e.stdout));
    expect(fetching.length).toBeGreaterThan(1);
    for (const e of fetching) expect(e.stdout).toMatch(/wrappers used \(store versions\): sim-div v1\b/);
    const store = await openStore(db);
    try {
      expect((await rows(store, "SELECT version FROM wrappers WHERE engine = 'sim-div'")).map((r) => Number(r.version))).toEqual([1]);
      expect((await rows(store, "SELECT status FROM fetches WHERE engine = 'sim-div'")).every((r) => r.status === "ok")).toBe(true);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe.each(backends)("distributed harvest: a worker paused past its job lock ($backend store)", ({ backend, skip }) => {
  // Every search takes 250 ms: the worker is stopped in the middle of a page.
  const servers = useServers({ skip, latencyMs: 250, postgres: backend === "PostgreSQL" });

  it.skipIf(skip !== null)(
    "SIGSTOP past the stall interval, then SIGCONT: the page another worker took over is stored once, records seen once",
    async () => {
      const { redis, s } = servers;
      const { db, before } = await queuedRun(servers, "paused", 8, 500, "sim-table");
      const paused = worker(redis, s, db, "sim-table", ["--concurrency", "1"]);
      // Its third search has reached the simulator, whose answer takes 250 ms: freeze the worker (a GC pause, a VM
      // freeze) for longer than the stall interval (2 s), so another worker takes the job over and stores the page.
      while (s.sim.log.length < before + 3) await new Promise((r) => setTimeout(r, 10));
      paused.child.kill("SIGSTOP");
      const inFlight = s.sim.log[before + 2]!;
      const others = [worker(redis, s, db, "sim-table"), worker(redis, s, db, "sim-table")];
      for (const e of await Promise.all(others.map((w) => w.done))) expect(e, e.stderr).toMatchObject({ code: 0 });
      // Resumed, the frozen worker finishes the page it had in hand: it was stored already.
      paused.child.kill("SIGCONT");
      await paused.done;
      const asked = s.sim.log
        .slice(before)
        .filter((l) => l.engine === inFlight.engine && l.query === inFlight.query && l.page === inFlight.page);
      expect(asked).toHaveLength(2);
      const store = await openStore(db, { readonly: true });
      try {
        const done = await rows(store, "SELECT query_en, page, count(*) AS n FROM fetches WHERE status IN ('ok', 'empty') GROUP BY 1, 2");
        expect(done.filter((r) => Number(r.page) === 1)).toHaveLength(8);
        expect(done.every((r) => Number(r.n) === 1)).toBe(true);
        expect(await rows(store, "SELECT id FROM records WHERE seen_count > 1")).toEqual([]);
        const sightings = Number((await rows(store, "SELECT count(*) AS n FROM record_fetches"))[0]!.n);
        const records = Number((await rows(store, "SELECT count(*) AS n FROM records"))[0]!.n);
        expect(sightings).toBe(records);
      } finally {
        await store.close();
      }
    },
    120_000,
  );
});
