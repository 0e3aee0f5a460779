import { parallelText } from "../../src/language-pair.js";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { describeFailure } from "../../src/cli/errors.js";
import { parseRedisUrl } from "../../src/queue/index.js";
import { pageJobId } from "../../src/queue/index.js";
import { queueLimits } from "../../src/queue/index.js";
import { tickRunName } from "../../src/queue/index.js";

/** The pure parts of the queue: job ids, an engine's politeness as queue limits, the Redis address. */

describe("page job ids", () => {
  const q = parallelText("I see.", "我明白了。");
  it("are the same for the same run, engine, query and page, and differ when any of them does", () => {
    const id = pageJobId("demo@2026-11-24", "bing", q, 1);
    expect(pageJobId("demo@2026-11-24", "bing", parallelText("I see.", "我明白了。"), 1)).toBe(id);
    const others = [
      pageJobId("demo@2026-11-25", "bing", q, 1),
      pageJobId("demo@2026-11-24", "baidu", q, 1),
      pageJobId("demo@2026-11-24", "bing", parallelText("I see.", "我明白。"), 1),
      pageJobId("demo@2026-11-24", "bing", q, 2),
    ];
    expect(new Set([id, ...others]).size).toBe(5);
  });

  it("are ids BullMQ accepts: no colon, not an integer", () => {
    const id = pageJobId("run:with:colons", "bing", q, 1);
    expect(id).not.toContain(":");
    expect(Number.isInteger(Number(id))).toBe(false);
  });

  it("name a daemon tick's run by the tick's time", () => {
    expect(tickRunName("nightly", Date.UTC(2026, 10, 24, 3))).toBe("nightly@2026-11-24T03:00:00.000Z");
  });
});

describe("queue limits from politeness", () => {
  it("spaces starts by the longer of the minimum delay and a minute over the requests per minute (a coarse guard: requests are spaced by the lease)", () => {
    expect(queueLimits({ minDelayMs: 2000, requestsPerMinute: 20, maxConcurrent: 1 })).toEqual({
      intervalMs: 3000,
      concurrency: 1,
    });
    expect(queueLimits({ minDelayMs: 5000, requestsPerMinute: 20, maxConcurrent: 2 })).toEqual({
      intervalMs: 5000,
      concurrency: 2,
    });
    expect(queueLimits({ minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 4 })).toEqual({ intervalMs: null, concurrency: 4 });
  });
});

describe("--queue URLs", () => {
  it("read host, port, database and credentials", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6380/2")).toMatchObject({ host: "127.0.0.1", port: 6380, db: 2, maxRetriesPerRequest: null });
    expect(parseRedisUrl("redis://:s%40cret@queue.example")).toMatchObject({
      host: "queue.example",
      port: 6379,
      db: 0,
      password: "s@cret",
    });
    expect(parseRedisUrl("rediss://queue.example:6390")).toMatchObject({ tls: {} });
  });

  it("refuse anything else in one line naming the setting (the CLI names its flag)", async () => {
    expect(() => parseRedisUrl("localhost:6379")).toThrow(UserError);
    expect(() => parseRedisUrl("http://localhost:6379")).toThrow(/^queue: expected a redis:\/\/ or rediss:\/\/ URL/);
    const caught = (() => {
      try {
        parseRedisUrl("http://localhost:6379");
      } catch (err) {
        return err;
      }
    })();
    expect((await describeFailure(caught)).message).toMatch(/^--queue: expected a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => parseRedisUrl("redis://localhost/x")).toThrow(/database number/);
  });
});
