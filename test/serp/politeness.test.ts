import { describe, expect, it } from "vitest";
import { backoffMs, CircuitBreaker, EngineGate } from "../../src/serp/index.js";

describe("pacing requests to one engine", () => {
  it("keeps the minimum delay between request starts", () => {
    const gate = new EngineGate({ minDelayMs: 3000, requestsPerMinute: 0, maxConcurrent: 2 });
    expect(gate.waitMs(0)).toBe(0);
    void gate.run(0, async () => {});
    expect(gate.waitMs(1000)).toBe(2000);
    expect(gate.waitMs(3000)).toBe(0);
  });

  it("caps requests per minute over a sliding window", async () => {
    const gate = new EngineGate({ minDelayMs: 0, requestsPerMinute: 3, maxConcurrent: 10 });
    for (const t of [0, 10, 20]) await gate.run(t, async () => {});
    expect(gate.waitMs(30)).toBe(60_000 - 30);
    expect(gate.waitMs(60_000)).toBe(0);
  });

  it("caps requests in flight, a place given back when its task settles, even by failing", async () => {
    const gate = new EngineGate({ minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 1 });
    let fail: (e: Error) => void = () => {};
    const pending = new Promise<void>((_, reject) => (fail = reject));
    const running = gate.run(0, () => pending);
    expect(gate.waitMs(5)).toBe(Number.POSITIVE_INFINITY);
    expect(gate.active).toBe(1);
    fail(new Error("x"));
    await expect(running).rejects.toThrow("x");
    expect(gate.waitMs(5)).toBe(0);
  });

  it("a task that sent no request (its page skipped) is not counted for pacing", async () => {
    const gate = new EngineGate({ minDelayMs: 3000, requestsPerMinute: 2, maxConcurrent: 2 });
    await gate.run(0, async () => {});
    await gate.run(3000, async () => {});
    gate.cancel(3000);
    expect(gate.waitMs(3000)).toBe(0);
  });
});

describe("the circuit breaker", () => {
  it("pauses an engine after repeated blocks, doubling the pause, and gives up after the last", () => {
    const b = new CircuitBreaker({ threshold: 3, cooldownMs: 1000, maxTrips: 2 });
    expect(b.recordBlock(0)).toBeNull();
    expect(b.recordBlock(0)).toBeNull();
    expect(b.recordBlock(0)).toEqual({ kind: "paused", untilMs: 1000, trip: 1 });
    expect(b.waitMs(400)).toBe(600);
    expect(b.probing).toBe(true);
    // The probe after the pause is blocked again: a longer pause at once.
    expect(b.recordBlock(1000)).toEqual({ kind: "paused", untilMs: 3000, trip: 2 });
    expect(b.recordBlock(3000)).toEqual({ kind: "gave-up", trips: 2 });
    expect(b.givenUp).toBe(true);
    expect(b.waitMs(1e9)).toBe(Number.POSITIVE_INFINITY);
  });

  it("closes again when the probe gets through", () => {
    const b = new CircuitBreaker({ threshold: 2, cooldownMs: 1000, maxTrips: 1 });
    b.recordBlock(0);
    expect(b.recordBlock(0)?.kind).toBe("paused");
    b.recordSuccess();
    expect(b.probing).toBe(false);
    expect(b.recordBlock(2000)).toBeNull(); // counting starts again
    expect(b.recordBlock(2000)?.kind).toBe("paused");
  });
});

describe("back-off", () => {
  it("grows exponentially with jitter, within [ceiling/2, ceiling], and is capped", () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(3, 1000, 60_000, () => 0.5)).toBe(3000);
    expect(backoffMs(20, 1000, 60_000, () => 1)).toBe(60_000);
  });
});
