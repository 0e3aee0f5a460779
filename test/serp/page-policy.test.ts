import { parallelText } from "../../src/language-pair.js";
import { describe, expect, it } from "vitest";
import { RunCounters } from "../../src/serp/index.js";
import type { EngineSetup } from "../../src/serp/index.js";
import { parseEngineDefinition } from "../../src/serp/index.js";
import { PagePolicy } from "../../src/serp/index.js";

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
  const queries = [parallelText("a", "甲"), parallelText("b", "乙"), parallelText("c", "丙")];
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
    const policy = new PagePolicy(
      c,
      options,
      (ev) => events.push(ev.kind === "engine-given-up" ? `given-up:${ev.left}` : ev.kind),
      () => 0,
    );
    const e = policy.engine(setup, queries);
    const refused = { status: "error" as const, cause: "refused" as const, detail: "refused: …", url: "u", records: 0 };
    policy.afterPage(e, e.queue.shift()!, refused);
    expect(e.queue.at(-1)).toMatchObject({ query: queries[0], errors: 1 });
    expect(e.queue.at(-1)!.notBefore).toBeGreaterThanOrEqual(5); // back-off with jitter: [base/2, base]
    policy.afterPage(e, e.queue.shift()!, refused);
    policy.afterPage(e, e.queue.shift()!, refused); // the third in a row: down
    expect(events).toEqual(["error", "error", "error", "given-up:2"]);
    expect(c.stats).toMatchObject({ left: 3, jobsDone: 3 });
    expect(c.engine("e")).toMatchObject({
      givenUp: true,
      givenUpBecause: expect.stringMatching(/^unreachable: 3 network failures in a row/),
    });
    expect(e.queue).toEqual([]);
  });

  it("an HTTP error or a layout mismatch never makes an engine 'down'", () => {
    const c = new RunCounters(["e"], 3);
    const policy = new PagePolicy(c, { ...options, retries: 0 });
    const e = policy.engine(setup, queries);
    for (let i = 0; i < 3; i++)
      policy.afterPage(e, e.queue.shift()!, { status: "error", cause: i % 2 ? "http" : "layout", detail: "x", url: "u", records: 0 });
    expect(c.engine("e")).toMatchObject({ givenUp: false, left: 3 });
  });
});
