import { describe, expect, it } from "vitest";
import { RunCounters } from "../../src/serp/counters.js";
import type { EngineSetup } from "../../src/serp/engine-files.js";
import { parseEngineDefinition } from "../../src/serp/engines.js";
import { PagePolicy } from "../../src/serp/page-policy.js";
import { type Lane, pickNext, schedule } from "../../src/serp/scheduler.js";

interface T {
  id: string;
  notBefore: number;
}
const lane = (ids: string[], readyIn: (now: number) => number = () => 0, notBefore = 0): Lane<T> => ({
  queue: ids.map((id) => ({ id, notBefore })),
  readyIn,
});

describe("the scheduler: what runs next", () => {
  it("takes lanes in turn, skips a lane that is not ready, and says how long to wait when none is", () => {
    const lanes = [lane(["a1", "a2"]), lane(["b1"], () => 500), lane(["c1"])];
    expect(pickNext(lanes, 0, 0)).toEqual({ lane: 0, index: 0 });
    expect(pickNext(lanes, 0, 1)).toEqual({ lane: 2, index: 0 }); // b is paused for 500 ms
    const waiting = [lane(["x"], () => 500), lane(["y"], () => 0, 1200)];
    expect(pickNext(waiting, 1000, 0)).toEqual({ waitMs: 200 }); // y's back-off ends at 1200
    expect(pickNext([lane([], () => 0)], 0, 0)).toEqual({ waitMs: Number.POSITIVE_INFINITY });
  });

  it("takes the first due task of a lane, past tasks still backing off", () => {
    const l: Lane<T> = { queue: [{ id: "later", notBefore: 5000 }, { id: "now", notBefore: 0 }], readyIn: () => 0 };
    expect(pickNext([l], 100, 0)).toEqual({ lane: 0, index: 1 });
  });

  it("runs every task with at most `concurrency` in flight, including tasks put back on a queue", async () => {
    const lanes = [lane(["a1", "a2", "a3"]), lane(["b1", "b2"])];
    let inFlight = 0;
    let peak = 0;
    const done: string[] = [];
    let retried = false;
    await schedule<T>({
      lanes,
      concurrency: 2,
      start: (li, task) => {
        if (task.id === "b2" && !retried) {
          retried = true;
          lanes[li]!.queue.push({ id: "b2", notBefore: Date.now() + 5 });
          return null; // dealt with at once: no slot taken
        }
        inFlight++;
        peak = Math.max(peak, inFlight);
        return new Promise<void>((r) => setTimeout(r, 5)).then(() => {
          inFlight--;
          done.push(task.id);
        });
      },
    });
    expect(done.sort()).toEqual(["a1", "a2", "a3", "b1", "b2"]);
    expect(peak).toBe(2);
  });

  it("stops dispatching on abort, calls onAbort once, and leaves the rest queued", async () => {
    const controller = new AbortController();
    const lanes = [lane(["a", "b", "c", "d"])];
    let aborts = 0;
    const r = await schedule<T>({
      lanes,
      concurrency: 1,
      signal: controller.signal,
      onAbort: async () => {
        aborts++;
      },
      start: (_, task) => {
        if (task.id === "b") controller.abort();
        return Promise.resolve();
      },
    });
    expect(r).toEqual({ interrupted: true });
    expect(aborts).toBe(1);
    expect(lanes[0]!.queue.map((t) => t.id)).toEqual(["c", "d"]);
  });

  it("rethrows a task's failure after the tasks in flight settle", async () => {
    const lanes = [lane(["a", "b"])];
    await expect(
      schedule<T>({ lanes, concurrency: 2, start: (_, t) => (t.id === "a" ? Promise.reject(new Error("boom")) : Promise.resolve()) }),
    ).rejects.toThrow("boom");
  });

  it("ends when nothing is in flight and no lane can ever start again", async () => {
    const lanes = [lane(["stuck"], () => Number.POSITIVE_INFINITY)];
    expect(await schedule<T>({ lanes, concurrency: 1, start: () => Promise.resolve() })).toEqual({ interrupted: false });
    expect(lanes[0]!.queue).toHaveLength(1);
  });
});

describe("the run's counters", () => {
  it("count fetches by status and failed attempts by cause, per engine and over the run", () => {
    const c = new RunCounters(["a", "b"], 2);
    c.fetched("a", "ok", null);
    c.fetched("a", "error", "dns");
    c.fetched("b", "blocked", "consent");
    c.records("a", 7, 1);
    expect(c.stats).toMatchObject({ jobs: 4, fetched: 3, ok: 1, errors: 1, blocked: 1, newRecords: 7, seenAgain: 1 });
    expect(c.stats.causes).toMatchObject({ dns: 1, consent: 1, timeout: 0 });
    expect(c.engine("b").causes.consent).toBe(1);
  });

  it("end every page as done or left, and call a run without one success failed", () => {
    const c = new RunCounters(["a"], 3);
    c.fetched("a", "error", "refused");
    c.left("a", 3);
    expect(c.stats).toMatchObject({ jobsDone: 3, left: 3 });
    expect(c.outcome(false)).toBe("failed");
    expect(c.outcome(true)).toBe("interrupted");
    const fresh = new RunCounters(["a"], 1);
    fresh.skipped("a");
    fresh.jobDone();
    expect(fresh.outcome(false)).toBe("completed"); // nothing fetched, but the page is fresh in the store
    expect(new RunCounters(["a"], 0).outcome(false)).toBe("completed");
  });
});

describe("the page policy: what comes after a page", () => {
  const setup = {
    name: "e",
    file: "/dev/null",
    wrapper: null,
    previous: [],
    definition: parseEngineDefinition({ searchUrl: "http://e.example/s?q={query}&first={offset}" }, "e", "t"),
  } as EngineSetup;
  const queries = [
    { en: "a", zh: "甲" },
    { en: "b", zh: "乙" },
    { en: "c", zh: "丙" },
  ];
  const options = { pages: 2, retries: 2, blockRetries: 1, downAfter: 3, backoff: { baseMs: 10, maxMs: 10 } };

  it("asks for a query's next page only after a full page, and finishes the job otherwise", () => {
    const c = new RunCounters(["e"], 3);
    const policy = new PagePolicy(c, options);
    const e = policy.engine(setup, queries);
    const first = e.queue.shift()!;
    policy.afterPage(e, first, { status: "ok", cause: null, detail: "", url: "u", records: 10 });
    expect(e.queue[0]).toMatchObject({ query: queries[0], page: 2 });
    const second = e.queue.shift()!;
    policy.afterPage(e, second, { status: "ok", cause: null, detail: "", url: "u", records: 10 });
    expect(c.stats.jobsDone).toBe(1); // page 2 was the last page asked for
  });

  it("retries an error, then leaves the page; an engine failing at the network level 3 times in a row is given up", () => {
    const c = new RunCounters(["e"], 3);
    const events: string[] = [];
    const policy = new PagePolicy(c, options, (ev) => events.push(ev.kind === "engine-given-up" ? `given-up:${ev.left}` : ev.kind), () => 0);
    const e = policy.engine(setup, queries);
    const refused = { status: "error" as const, cause: "refused" as const, detail: "refused: …", url: "u", records: 0 };
    policy.afterPage(e, e.queue.shift()!, refused);
    expect(e.queue.at(-1)).toMatchObject({ query: queries[0], errors: 1 });
    expect(e.queue.at(-1)!.notBefore).toBeGreaterThanOrEqual(5); // back-off with jitter: [base/2, base]
    policy.afterPage(e, e.queue.shift()!, refused);
    policy.afterPage(e, e.queue.shift()!, refused); // the third in a row: down
    expect(events).toEqual(["error", "error", "error", "given-up:2"]);
    expect(c.stats).toMatchObject({ left: 3, jobsDone: 3 });
    expect(c.engine("e")).toMatchObject({ givenUp: true, givenUpBecause: expect.stringMatching(/^unreachable: 3 network failures in a row/) });
    expect(e.queue).toEqual([]);
  });

  it("an HTTP error or a layout mismatch never makes an engine 'down'", () => {
    const c = new RunCounters(["e"], 3);
    const policy = new PagePolicy(c, { ...options, retries: 0 });
    const e = policy.engine(setup, queries);
    for (let i = 0; i < 3; i++) policy.afterPage(e, e.queue.shift()!, { status: "error", cause: i % 2 ? "http" : "layout", detail: "x", url: "u", records: 0 });
    expect(c.engine("e")).toMatchObject({ givenUp: false, left: 3 });
  });
});
