import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { type Simulator, startSimulator } from "../../src/sim/index.js";
import { openStore, sql } from "../../src/store/index.js";
import { runCli, runCommand } from "../helpers/cli.js";

/**
 * What a harvest does before its first page: nothing that costs (a browser) when it will not be needed or the
 * run cannot go on. `--fetch http` never starts Chromium; a store another harvest holds is refused before
 * anything starts (and `--reextract` respects it too); `--headed` without a display says so.
 * A stand-in "chromium" answers `--version` (the identity the HTTP path presents) and leaves a mark if started.
 */

let sim: Simulator;
let dir: string;
let chromium: string;
let mark: string;
beforeAll(async () => {
  sim = await startSimulator({});
  dir = mkdtempSync(join(tmpdir(), "bitext-start-"));
  for (const e of sim.engines)
    writeDefinition(wrapperFilePath(dir, e.spec.name), e.spec.name, {
      ...e.definition,
      politeness: { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 2 },
    });
  mark = join(dir, "chromium-started");
  chromium = join(dir, "chromium");
  writeFileSync(
    chromium,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Chromium 156.0.8078.108 built on Debian"; exit 0; fi\ntouch '${mark}'\nexit 1\n`,
  );
  chmodSync(chromium, 0o755);
  writeFileSync(join(dir, "q.tsv"), "I see.\t我明白了。\nThank you.\t谢谢。\n");
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const harvestArgs = (db: string, ...more: string[]) => [
  "harvest",
  join(dir, "q.tsv"),
  "--engines",
  "sim-list",
  "--wrappers",
  dir,
  "--db",
  join(dir, db),
  "--chromium",
  chromium,
  "--no-profile",
  "--no-classify",
  "--pages",
  "1",
  ...more,
];

describe("before the first page", () => {
  it("--fetch http harvests without ever starting Chromium", async () => {
    rmSync(mark, { force: true });
    const r = await runCommand([...harvestArgs("http.db", "--fetch", "http", "--json")]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: 2, errors: 0 });
    expect(existsSync(mark)).toBe(false);
  });

  it("a store another harvest holds is refused at once, before the browser starts; --reextract too", async () => {
    rmSync(mark, { force: true });
    const db = join(dir, "locked.db");
    const store = await openStore(db);
    const now = new Date().toISOString();
    // A live harvest in another process (this test's, which the CLI process is not).
    await store.sql.run(
      sql`INSERT INTO runs (started_at, status, options, pid, hostname, heartbeat_at) VALUES (${now}, 'running', '{}', ${process.pid}, ${hostname()}, ${now})`,
    );
    await store.close();
    const r = runCli(harvestArgs("locked.db"));
    expect(r.stderr).toMatch(/locked\.db: harvest run 1 is already running on this store/);
    expect(r.code).toBe(75);
    expect(existsSync(mark)).toBe(false);
    const again = runCli(harvestArgs("locked.db", "--reextract"));
    expect(again.stderr).toMatch(/harvest run 1 is already running on this store/);
    expect(again.code).toBe(75);
  });

  it("--headed without a display says there is no display, not that Chromium is missing", async () => {
    const r = await runCommand(harvestArgs("headed.db", "--headed"), { env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    expect(r.stderr).toBe(
      "bitext: --headed: a headed browser needs a display, and there is none (DISPLAY and WAYLAND_DISPLAY are not set): run it under xvfb-run, or drop --headed\n",
    );
    expect(r.code).toBe(1);
  });
});
