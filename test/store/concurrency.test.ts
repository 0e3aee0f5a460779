import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exited, runCommand, spawnCli } from "../helpers/cli.js";
import { type Bench, bench, DEMO, untilFetches } from "../serp/helpers.js";

/**
 * Two processes on one store, for real: a harvest running in a process of its own (Chromium against the
 * local engine simulator, each search slowed to 400 ms), and beside it, in this process, a second harvest
 * (refused, naming the first), `classify --db` and `export records` (both work, no SQLITE_BUSY).
 */
/** The first harvest is a process of its own: another process's lock and pid, ended by Ctrl-C (SIGINT). */
function bitext(args: string[]): ChildProcess {
  return spawnCli(args);
}

let b: Bench;
let queries: string;
beforeAll(async () => {
  b = await bench([], { latencyMs: 400 });
  queries = join(b.dir, "queries.tsv");
  writeFileSync(queries, DEMO.map((q) => `${q.source.text}\t${q.target.text}\t${q.note}`).join("\n"));
});
afterAll(async () => {
  await b.close();
});

describe("two processes on one store", () => {
  it("a second harvest refuses, naming the running one; classify and export work beside it", async () => {
    const db = join(b.dir, "shared.db");
    const harvestArgs = [
      "harvest",
      queries,
      "--engines",
      "sim-list,sim-div",
      "--wrappers",
      b.dir,
      "--db",
      db,
      "--pages",
      "2",
      "--concurrency",
      "1",
      "--no-classify",
      "--json",
    ];
    const first = bitext(harvestArgs);
    const firstDone = exited(first);
    await untilFetches(db, 2);

    const second = await runCommand(harvestArgs);
    expect(second.code).toBe(75);
    const line = second.stderr.trim();
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toMatch(
      new RegExp(`^bitext: ${db}: harvest run 1 is already running on this store \\(host ${hostname()}, pid ${first.pid}, started \\d{4}-`),
    );

    const classified = await runCommand(["classify", "--db", db, "--json"]);
    expect(classified.stderr).toBe("");
    expect(classified.code).toBe(0);
    expect(JSON.parse(classified.stdout).classified).toBeGreaterThan(0);
    const exported = await runCommand(["export", "records", "--db", db, "--format", "jsonl"]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);

    // The first harvest never met a lock error; Ctrl-C ends it cleanly if it is still running.
    first.kill("SIGINT");
    const r = await firstDone;
    expect(r.stderr).not.toMatch(/SQLITE|internal error/);
    const status = r.code === 0 ? "completed" : "interrupted";
    if (r.code !== 0) expect(r.code).toBe(130);
    const conn = new Database(db, { readonly: true });
    try {
      expect(conn.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(conn.prepare("SELECT id, status FROM runs ORDER BY id").all()).toEqual([{ id: 1, status }]);
    } finally {
      conn.close();
    }
  }, 180_000);
});
