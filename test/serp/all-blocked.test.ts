import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { parseRetryAfter } from "../../src/serp/index.js";
import { parseFaults, type Simulator, startSimulator } from "../../src/sim/index.js";
import { runCommand } from "../helpers/cli.js";

/**
 * Every engine of a run blocked (the simulator's faults: 429 with Retry-After 30 s on one, captchas on the
 * others): the engine's Retry-After is honoured (not asked again before), and once every engine left is paused
 * longer than the run waits (the config file's blocks.maxWait), the run stops at once: pages left, exit 75.
 */

let sim: Simulator;
let dir: string;
beforeAll(async () => {
  sim = await startSimulator({ faults: parseFaults("sim-list:429@1-1000,sim-div:captcha@1-1000,sim-table:captcha@1-1000") });
  dir = mkdtempSync(join(tmpdir(), "bitext-blocked-"));
  for (const e of sim.engines) writeDefinition(wrapperFilePath(dir, e.spec.name), e.spec.name, e.definition);
  writeFileSync(join(dir, "q.tsv"), "I see.\t我明白了。\nThank you.\t谢谢。\nGood morning.\t早上好。\n");
  writeFileSync(join(dir, "bitext.config.json"), JSON.stringify({ blocks: { maxWait: "20s", backoff: "200ms", pause: "5m" } }));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("every engine blocked", () => {
  it("honours Retry-After, and stops once every engine is paused past blocks.maxWait: pages left, exit 75", async () => {
    const started = Date.now();
    const r = await runCommand(
      ["harvest", join(dir, "q.tsv"), "--engines", "sim-list,sim-div,sim-table", "--wrappers", dir, "--db", join(dir, "s.db")].concat([
        "--fetch",
        "http",
        "--no-profile",
        "--no-classify",
        "--json",
      ]),
      { env: { BITEXT_HOME: dir } },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(r.code, r.stderr).toBe(75);
    const s = JSON.parse(r.stdout) as { left: number; ok: number; stoppedBecause: string };
    expect(s).toMatchObject({ ok: 0, left: 9 });
    expect(s.stoppedBecause).toMatch(/^every engine left is paused longer than the run waits \(20 s\): /);
    expect(s.stoppedBecause).toMatch(/sim-list (2\d|30) s/); // its Retry-After: 30 s
    expect(seconds).toBeLessThan(20);
    // Asked once: the 429's Retry-After (30 s) outlasts the run, where the back-off alone (200 ms) would have retried.
    expect(sim.log.filter((l) => l.engine === "sim-list")).toHaveLength(1);
    expect(sim.log.filter((l) => l.engine === "sim-div").length).toBeGreaterThanOrEqual(3); // blocked until its breaker paused it
  }, 60_000);

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-26T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 26 Nov 2026 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
