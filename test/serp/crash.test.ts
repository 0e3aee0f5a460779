import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SerpDriver } from "../../src/serp/index.js";
import { harvest } from "../../src/serp/index.js";
import { openStore } from "../../src/store/index.js";
import { exited, spawnCli } from "../helpers/cli.js";
import { type Bench, bench, DEMO, FAST, untilFetches } from "./helpers.js";

/** The user data folder of these runs (browser profiles), never the tester's own. */
const HOME = mkdtempSync(join(tmpdir(), "bitext-crash-home-"));

/** `bitext …` as a child process, straight from the sources: these tests kill it (kill -9, Ctrl-C). */
function bitext(args: string[]): ChildProcess {
  return spawnCli(args, { env: { ...process.env, BITEXT_HOME: HOME } });
}

function recordKeys(db: string): string[] {
  const conn = new Database(db, { readonly: true });
  try {
    return (conn.prepare("SELECT engine, query_en, query_zh, url FROM records ORDER BY 1, 2, 3, 4").all() as Record<string, string>[]).map(
      (r) => `${r.engine}\t${r.query_en}\t${r.query_zh}\t${r.url}`,
    );
  } finally {
    conn.close();
  }
}

let QUERIES: string;
let b: Bench;
let reference: string[];
beforeAll(async () => {
  // Every search takes 60 ms, so a run lasts long enough to be killed in the middle.
  b = await bench([], { latencyMs: 40 });
  QUERIES = join(b.dir, "queries.tsv");
  writeFileSync(
    QUERIES,
    DEMO.slice(0, 5)
      .map((q) => `${q.source.text}\t${q.target.text}\t${q.note}`)
      .join("\n"),
  );
  const driver = await SerpDriver.start();
  try {
    const store = await openStore(join(b.dir, "reference.db"));
    const { readQueryFile } = await import("../../src/serp/queries.js");
    await harvest(store, {
      queries: readQueryFile(QUERIES),
      engines: b.engines("sim-list", "sim-div"),
      driver,
      pages: 2,
      concurrency: 2,
      ...FAST,
    });
    await store.close();
  } finally {
    await driver.close();
  }
  reference = recordKeys(join(b.dir, "reference.db"));
});
afterAll(async () => {
  await b.close();
});

describe("crash safety", () => {
  it("kill -9 at any moment, twice, then a rerun: the same records as an uninterrupted run, none lost, none twice", async () => {
    const db = join(b.dir, "crash.db");
    const args = [
      "harvest",
      QUERIES,
      "--engines",
      "sim-list,sim-div",
      "--wrappers",
      b.dir,
      "--db",
      db,
      "--pages",
      "2",
      "--concurrency",
      "2",
      "--no-classify",
      "--json",
    ];
    for (const after of [3, 8]) {
      const child = bitext(args);
      const done = exited(child);
      await untilFetches(db, after);
      child.kill("SIGKILL");
      const r = await done;
      expect(r.signal).toBe("SIGKILL");
      const conn = new Database(db, { readonly: true });
      expect(conn.pragma("integrity_check", { simple: true })).toBe("ok");
      conn.close();
    }
    const partial = recordKeys(db).length;
    expect(partial).toBeLessThan(reference.length);
    const last = await exited(bitext(args));
    expect(last.stderr).toBe("");
    expect(last.code).toBe(0);
    const summary = JSON.parse(last.stdout) as { status: string; skipped: number; newRecords: number };
    expect(summary.status).toBe("completed");
    expect(summary.skipped).toBeGreaterThanOrEqual(8 - 2);
    expect(summary.newRecords).toBe(reference.length - partial);
    expect(recordKeys(db)).toEqual(reference);
    const conn = new Database(db, { readonly: true });
    try {
      // Each completed page was fetched once: a rerun never fetches it again.
      const twice = conn
        .prepare("SELECT engine, query_en, page, count(*) AS n FROM fetches WHERE status IN ('ok', 'empty') GROUP BY 1, 2, 3 HAVING n > 1")
        .all();
      expect(twice).toEqual([]);
      expect(conn.prepare("SELECT status FROM runs ORDER BY id").all()).toEqual([
        { status: "crashed" },
        { status: "crashed" },
        { status: "completed" },
      ]);
    } finally {
      conn.close();
    }
  });

  it("Ctrl-C finishes in-flight writes, closes the browser, marks the run interrupted and exits 130", async () => {
    const db = join(b.dir, "sigint.db");
    const child = bitext([
      "harvest",
      QUERIES,
      "--engines",
      "sim-list,sim-div",
      "--wrappers",
      b.dir,
      "--db",
      db,
      "--pages",
      "2",
      "--no-classify",
      "--json",
    ]);
    const done = exited(child);
    await untilFetches(db, 3);
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("interrupted: finishing writes and closing the browser");
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "interrupted" });
    const conn = new Database(db, { readonly: true });
    try {
      expect(conn.prepare("SELECT status FROM runs").all()).toEqual([{ status: "interrupted" }]);
    } finally {
      conn.close();
    }
  });
});
