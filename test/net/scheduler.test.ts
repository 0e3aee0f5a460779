import { describe, expect, it } from "vitest";
import { HostDelay } from "../../src/net/host-delay.js";
import { type Lane, pickNext, schedule } from "../../src/net/index.js";

/** The one dispatcher behind the harvest, the site crawl and the fetcher's per-host spacing. */

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

  it("ends, what is queued left queued, when every lane with tasks is paused longer than maxIdleMs; pacing is waited out", async () => {
    let clock = 0;
    const started: string[] = [];
    const run = (lanes: Lane<T>[]) =>
      schedule<T>({
        lanes,
        concurrency: 1,
        maxIdleMs: 1000,
        now: () => clock,
        start: (_li, task) => {
          started.push(task.id);
          return Promise.resolve().then(() => {
            clock += 10;
          });
        },
      });
    // Paused for 5 s (a blocked engine), the other lane done: the schedule ends at once, p2 still queued.
    const paused: Lane<T> = { ...lane(["p1", "p2"]), readyIn: (now) => (now >= 5 ? 5000 : 0), pausedFor: (now) => (now >= 5 ? 5000 : 0) };
    await run([paused, lane(["q1"])]);
    expect(started).toEqual(["p1", "q1"]);
    expect(paused.queue.map((t) => t.id)).toEqual(["p2"]);
    // Paced 50 ms apart (its politeness): not a pause, every task runs.
    started.length = 0;
    let last = Number.NEGATIVE_INFINITY;
    const paced: Lane<T> = { ...lane(["r1", "r2"]), readyIn: (now) => Math.max(0, last + 50 - now), pausedFor: () => 0 };
    const runPaced = schedule<T>({
      lanes: [paced],
      concurrency: 1,
      maxIdleMs: 10,
      start: (_li, task) => {
        started.push(task.id);
        last = Date.now();
        return Promise.resolve();
      },
    });
    await runPaced;
    expect(started).toEqual(["r1", "r2"]);
  });

  it("takes the first due task of a lane, past tasks still backing off", () => {
    const l: Lane<T> = {
      queue: [
        { id: "later", notBefore: 5000 },
        { id: "now", notBefore: 0 },
      ],
      readyIn: () => 0,
    };
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

describe("per-host spacing on the dispatcher", () => {
  it("spaces one host's starts, lets other hosts go meanwhile, and lets a withdrawn waiter's successor go on its own delay", async () => {
    const d = new HostDelay();
    const t0 = Date.now();
    const at: Record<string, number> = {};
    const mark = (name: string) => () => {
      at[name] = Date.now() - t0;
    };
    await d.wait("a", 0).then(mark("a1"));
    const controller = new AbortController();
    const withdrawn = d.wait("a", 5000, controller.signal).then(mark("a2"), mark("a2-aborted"));
    const next = d.wait("a", 300).then(mark("a3"));
    const other = d.wait("b", 5000).then(mark("b1"));
    setTimeout(() => controller.abort(), 50);
    await Promise.all([withdrawn, next, other]);
    expect(at.a2).toBeUndefined();
    expect(at["a2-aborted"]).toBeLessThan(300);
    expect(at.a3).toBeGreaterThanOrEqual(300); // from a1's start, not from the withdrawal
    expect(at.a3).toBeLessThan(4000); // not held for the withdrawn waiter's 5 s
    expect(at.b1).toBeLessThan(at.a3!); // another host is not behind host a's queue
  });
});
