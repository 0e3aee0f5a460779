import { describe, expect, it } from "vitest";
import { LocalPacer, requestGapMs, SEND_SLACK_MS, sendSlackMs } from "../../src/serp/index.js";

describe("the request pacer of one process", () => {
  it("grants an engine's lease no sooner than its gap after the last, whoever asks; other engines are not held", async () => {
    const pacer = new LocalPacer();
    // Each grant as the pacer makes it (its clock when it moves the engine's next free time), not when the
    // caller's continuation happens to run: on a loaded machine that comes later, and unevenly.
    const granted: Array<{ engine: string; at: number }> = [];
    const next = (pacer as unknown as { next: Map<string, number> }).next;
    const set = next.set.bind(next);
    next.set = (engine: string, free: number) => {
      granted.push({ engine, at: free - 40 - sendSlackMs(40) });
      return set(engine, free);
    };
    const take = (engine: string) => pacer.take(engine, 40);
    await Promise.all([take("a"), take("a"), take("b"), take("a"), take("b")]);
    for (const engine of ["a", "b"]) {
      const at = granted.filter((g) => g.engine === engine).map((g) => g.at);
      // The gap, and the slack for the request's way from its lease to the engine.
      expect(at.slice(1).every((t, i) => t - at[i]! >= 40 + sendSlackMs(40))).toBe(true);
    }
    // "b"'s first lease did not wait for "a"'s.
    expect(granted.findIndex((g) => g.engine === "b")).toBeLessThan(granted.length - 1);
  });

  it("reads the injected clock again after every wait: a late timer never brings two grants closer", async () => {
    let now = 1000;
    const pacer = new LocalPacer(() => now);
    await pacer.take("a", 100);
    const second = pacer.take("a", 100);
    now = 1010; // its wait ends with 90 ms (and the slack) still to go on this clock: asked again, it waits again
    let done = false;
    void second.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 150));
    expect(done).toBe(false);
    now = 1100 + sendSlackMs(100);
    await second;
  });

  it("the slack: a quarter of the gap, at most SEND_SLACK_MS", () => {
    expect(sendSlackMs(40)).toBe(10);
    expect(sendSlackMs(400)).toBe(SEND_SLACK_MS);
    expect(sendSlackMs(5000)).toBe(SEND_SLACK_MS);
    expect(sendSlackMs(0)).toBe(0);
  });

  it("an engine without a gap is not paced (no slack either)", async () => {
    let asked = 0;
    const pacer = new LocalPacer(() => {
      asked++;
      return 0;
    });
    await Promise.all([pacer.take("a", 0), pacer.take("a", 0), pacer.take("a", 0)]);
    expect(asked).toBe(0);
  });

  it("gives up waiting when the signal aborts", async () => {
    const pacer = new LocalPacer();
    await pacer.take("a", 60_000);
    const c = new AbortController();
    const waiting = pacer.take("a", 60_000, c.signal);
    c.abort();
    await expect(waiting).resolves.toBeUndefined();
  });

  it("the gap is the longer of the minimum delay and a minute over the requests per minute", () => {
    expect(requestGapMs({ minDelayMs: 2000, requestsPerMinute: 20, maxConcurrent: 1 })).toBe(3000);
    expect(requestGapMs({ minDelayMs: 5000, requestsPerMinute: 20, maxConcurrent: 1 })).toBe(5000);
    expect(requestGapMs({ minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 4 })).toBe(0);
  });
});
