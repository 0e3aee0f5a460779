import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeFailure } from "../../src/cli/errors.js";
import { UserError } from "../../src/errors.js";
import {
  activeRuns,
  environmentError,
  finishRun,
  getRun,
  openStore,
  STALE_AFTER_MS,
  startExclusiveRun,
  startRun,
  staleRuns,
  upsertPage,
  sql,
} from "../../src/store/index.js";
import { runCommand } from "../helpers/cli.js";
import { storeBackends } from "../helpers/postgres.js";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "bitext-store-robust-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), "bitext-mount-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** A run row as another process left it: its host, pid and last heartbeat `ageMs` ago. */
async function foreignRun(db: string, host: string, pid: number, ageMs: number): Promise<number> {
  const store = await openStore(db);
  try {
    const at = new Date(Date.now() - ageMs).toISOString();
    const row = await store.sql.get<{ id: number }>(
      sql`INSERT INTO runs (started_at, status, options, pid, hostname, heartbeat_at) VALUES (${at}, 'running', '{}', ${pid}, ${host}, ${at}) RETURNING id`,
    );
    return row!.id;
  } finally {
    await store.close();
  }
}

const backends = storeBackends({ beforeAll, afterAll });

describe.each(backends)("runs left running by a dead process, on $name", (backend) => {
  beforeEach((ctx) => {
    if (backend.skip) ctx.skip();
  });

  it("are stale once their heartbeat is older than the limit, whatever the host; live ones are not", async () => {
    const db = await backend.location();
    await (await openStore(db)).close();
    const live = await foreignRun(db, "other-host", 4242, 10_000);
    const dead = await foreignRun(db, "other-host", 4243, STALE_AFTER_MS + 60_000);
    // A reused pid: alive on this host (our own parent), but the run's heartbeat stopped long ago.
    const reused = await foreignRun(db, hostname(), process.ppid, STALE_AFTER_MS + 1_000);
    const store = await openStore(db);
    try {
      expect((await staleRuns(store)).map((r) => r.id)).toEqual([dead, reused]);
      expect((await activeRuns(store)).map((r) => r.id)).toEqual([live]);
      expect((await getRun(store, dead))?.status).toBe("crashed");
      expect((await getRun(store, live))?.status).toBe("running");
    } finally {
      await store.close();
    }
  });

  it("a live run blocks a second harvest with a message naming it; a stale one does not", async () => {
    const db = await backend.location();
    await (await openStore(db)).close();
    const live = await foreignRun(db, "other-host", 4242, 5_000);
    const store = await openStore(db);
    try {
      let caught: unknown;
      try {
        await startExclusiveRun(store, {});
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(UserError);
      expect((await describeFailure(caught)).exitCode).toBe(75);
      expect((caught as UserError).message).toMatch(
        new RegExp(
          `^${escapeRegExp(store.path)}: harvest run ${live} is already running on this store \\(host other-host, pid 4242, started .*, last heartbeat 5 s ago\\)`,
        ),
      );
      // The library says when a dead run stops blocking; the CLI adds the command that shows such runs.
      expect((caught as UserError).message).toMatch(/ s after its last heartbeat$/);
      expect((await describeFailure(caught)).message).toMatch(/ s after its last heartbeat \(see bitext runs --stale\)$/);
      await store.sql.run(
        sql`UPDATE runs SET heartbeat_at = ${new Date(Date.now() - STALE_AFTER_MS - 1).toISOString()} WHERE id = ${live}`,
      );
      const mine = await startExclusiveRun(store, {});
      expect((await getRun(store, live))?.status).toBe("crashed");
      expect((await getRun(store, mine))?.heartbeatAt).not.toBeNull();
      await finishRun(store, mine, "completed", {});
    } finally {
      await store.close();
    }
  });

  it("bitext runs lists them as stale and --clear-stale marks them crashed", async () => {
    const db = await backend.location();
    const store = await openStore(db);
    await finishRun(store, await startRun(store, {}), "completed", {});
    await store.close();
    const dead = await foreignRun(db, "other-host", 99, STALE_AFTER_MS * 3);
    const listed = await runCommand(["runs", "--db", db, "--stale", "--json"]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: dead, host: "other-host", pid: 99, stale: true })]);
    const cleared = await runCommand(["runs", "--db", db, "--clear-stale"]);
    expect(cleared.stdout.trim()).toBe(`marked crashed: run ${dead} (host other-host, pid 99)`);
    const all = JSON.parse((await runCommand(["runs", "--db", db, "--json"])).stdout) as Array<{ id: number; status: string }>;
    expect(all.map((r) => r.status)).toEqual(["crashed", "completed"]);
  });
});

describe("environment errors", () => {
  it("a full disk is a one-line error naming the store, not an internal error", async () => {
    const db = join(dir, "full.db");
    const store = await openStore(db);
    try {
      // A real SQLITE_FULL: the database may not grow past its current pages.
      const pages = (await store.sql.get<{ page_count: number }>(sql`PRAGMA page_count`))!.page_count;
      await store.sql.exec(`PRAGMA max_page_count = ${pages}`);
      let caught: unknown;
      try {
        for (let i = 0; i < 100; i++) await upsertPage(store, { url: `http://example.org/${i}`, html: "x".repeat(50_000) + i });
      } catch (err) {
        caught = err;
      }
      expect((caught as { code?: string }).code).toBe("SQLITE_FULL");
      // The store names its file itself (the driver knows it): no module-wide "last store opened".
      const env = (environmentError(caught) ?? caught) as Error;
      expect((await describeFailure(env)).exitCode).toBe(74);
      expect(env?.message).toMatch(new RegExp(`^${db}: the disk is full \\(SQLITE_FULL\\): free space`));
    } finally {
      await store.close();
    }
  });

  it("a store whose folder cannot be made is a one-line error with the path, exit not 70", async () => {
    const blocker = join(dir, "file");
    writeFileSync(blocker, "");
    const r = await runCommand(["runs", "--db", join(blocker, "sub", "s.db"), "--clear-stale"]);
    expect(r.code).not.toBe(70);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(join(blocker, "sub"));
  });

  // A real read-only medium needs a mount (root); elsewhere this test is skipped.
  it.skipIf(!canMount())("read-only commands read a store on a read-only medium, where SQLite cannot create its -shm file", async () => {
    const db = join(dir, "ro.db");
    const store = await openStore(db);
    await finishRun(store, await startRun(store, { label: "kept" }), "completed", {});
    await store.close();
    const medium = join(dir, "medium");
    mkdirSync(medium);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", medium]);
    try {
      copyFileSync(db, join(medium, "ro.db"));
      execFileSync("mount", ["-o", "remount,ro", medium]);
      const onMedium = join(medium, "ro.db");
      // SQLite alone cannot read it: it needs to create the -shm file beside it.
      const direct = new Database(onMedium, { readonly: true });
      try {
        expect(() => direct.prepare("SELECT count(*) FROM runs").get()).toThrow(/unable to open/);
      } finally {
        direct.close();
      }
      const ro = await openStore(onMedium, { readonly: true });
      try {
        expect((await getRun(ro, 1))?.options).toEqual({ label: "kept" });
      } finally {
        await ro.close();
      }
      const listed = await runCommand(["runs", "--db", onMedium, "--json"]);
      expect(listed.stderr).toBe("");
      expect(JSON.parse(listed.stdout)).toHaveLength(1);
      const write = await runCommand(["runs", "--db", onMedium, "--clear-stale"]);
      expect(write.code).toBe(74);
      expect(write.stderr).toMatch(new RegExp(`^bitext: ${onMedium}: cannot open the store \\(SQLITE_CANTOPEN\\): .*read-only media`));
    } finally {
      execFileSync("umount", ["-l", medium]);
    }
  });
});
