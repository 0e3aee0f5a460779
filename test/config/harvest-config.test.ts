import { describe, expect, it } from "vitest";
import { DEFAULTS, HARVEST_DEFAULTS, harvestConfig, harvestSettingsOver } from "../../src/config/index.js";
import { parseDuration } from "../../src/duration.js";

describe("the harvest's settings: one schema, defaults in one place", () => {
  it("fills in every setting left out, with the values the CLI and the config file show", () => {
    const c = harvestConfig({});
    expect(c).toEqual(HARVEST_DEFAULTS);
    expect(c.pages).toBe(DEFAULTS.pages);
    expect(c.concurrency).toBe(DEFAULTS.concurrency);
    expect(c.maxAgeMs).toBe(parseDuration(DEFAULTS.maxAge));
    expect(c.timeoutMs).toBe(parseDuration(DEFAULTS.timeout));
    expect(c.breaker).toEqual({ threshold: 3, cooldownMs: 300_000, maxTrips: 3 });
  });

  it("keeps what is given, fills a group's missing part, and ignores keys that are not settings", () => {
    const c = harvestConfig({ pages: 3, breaker: { cooldownMs: 1000 }, ...{ driver: "not a setting" } });
    expect(c.pages).toBe(3);
    expect(c.breaker).toEqual({ threshold: 3, cooldownMs: 1000, maxTrips: 3 });
    expect(c).not.toHaveProperty("driver");
  });

  it("settings given over the config file's: undefined keeps the file's", () => {
    const file = { blockRetries: 5, maxWaitMs: 1000, backoff: { baseMs: 10, maxMs: undefined } };
    const c = harvestConfig(harvestSettingsOver(file, { maxWaitMs: 50, blockRetries: undefined, pages: 2 }));
    expect(c).toMatchObject({ blockRetries: 5, maxWaitMs: 50, pages: 2, backoff: { baseMs: 10, maxMs: 60_000 } });
  });

  it("names the setting of a bad value", () => {
    expect(() => harvestConfig({ pages: 0 })).toThrow(/harvest settings: pages: /);
    expect(() => harvestConfig({ breaker: { threshold: 1.5 } })).toThrow(/breaker\.threshold/);
  });
});
