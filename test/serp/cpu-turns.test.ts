import { describe, expect, it } from "vitest";
import { CpuTurns } from "../../src/serp/index.js";

/** Hold the event loop for `ms` (a page being read). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

/*
 * Pages whose answers arrive together are read one per event-loop turn, so a timer due meanwhile (a queue
 * lock's renewal, a heartbeat) fires between two pages, not after all of them.
 */
describe("CPU turns", () => {
  it("lets a timer that fell due during one page's reading fire before the next page is read", async () => {
    const turns = new CpuTurns();
    const events: string[] = [];
    setTimeout(() => events.push("timer"), 5);
    await Promise.all(
      [1, 2, 3].map((n) =>
        turns.run(() => {
          events.push(`page ${n}`);
          busy(20);
        }),
      ),
    );
    // (On a loaded machine the timer may fall due before page 1 is read: it still fires before page 2.)
    expect(events.filter((e) => e !== "timer")).toEqual(["page 1", "page 2", "page 3"]);
    expect(events.indexOf("timer")).toBeLessThan(events.indexOf("page 2"));
  });

  it("runs the work in the order it was queued and hands back each result or error", async () => {
    const turns = new CpuTurns();
    const order: number[] = [];
    const page = (n: number, text: string) => () => {
      order.push(n);
      return text;
    };
    const results = await Promise.allSettled([
      turns.run(page(1, "a")),
      turns.run(() => {
        order.push(2);
        throw new Error("unreadable page");
      }),
      turns.run(page(3, "c")),
    ]);
    expect(order).toEqual([1, 2, 3]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual(["a", "unreadable page", "c"]);
  });

  it("without turns, the same reading holds the timer until every page is read (what the turns prevent)", async () => {
    const events: string[] = [];
    setTimeout(() => events.push("timer"), 5);
    await Promise.all(
      [1, 2, 3].map((n) =>
        Promise.resolve().then(() => {
          events.push(`page ${n}`);
          busy(20);
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(events).toEqual(["page 1", "page 2", "page 3", "timer"]);
  });
});
