import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { describeFailure } from "../../src/cli/errors.js";
import { UserError } from "../../src/errors.js";
import { parseRedisUrl } from "../../src/queue/index.js";
import { loadEngine } from "../../src/serp/index.js";
import { learnEngineLive } from "../../src/serp/index.js";
import { runHarvest } from "../../src/serp/index.js";
import { parseFaults } from "../../src/sim/index.js";
import { crawlSite } from "../../src/site/index.js";
import { environmentError, openStore } from "../../src/store/index.js";

/*
 * The library's errors name no flag (test/arch/no-flags-in-library.test.ts); the CLI adds each kind's
 * advice. Each case provokes the real library error, checks its library message and kind, then the exact
 * line and exit status the user sees (the ones bitext printed before the advice moved to the CLI).
 */

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "bitext-advice-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function thrown(f: () => unknown): Promise<UserError> {
  try {
    await f();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error("expected a UserError");
}

async function expectFailure(err: UserError, library: string, kind: string, cli: string, exitCode = 1): Promise<void> {
  expect(err.message).toBe(library);
  expect(err.message).not.toMatch(/--[a-z]/);
  expect(err.kind).toBe(kind);
  expect(await describeFailure(err)).toEqual({ message: cli, exitCode, internal: false });
}

function sqliteError(code: string): Error {
  return Object.assign(new Error("sqlite says no"), { name: "SqliteError", code });
}

describe("the CLI's advice for the library's errors", () => {
  it("store: missing, needing a migration, full, read-only, not a store", async () => {
    const missing = join(tempDir(), "none.db");
    await expectFailure(
      await thrown(() => openStore(missing, { readonly: true })),
      `${missing}: no store here yet`,
      "store-missing",
      `${missing}: no store here yet (run bitext harvest first, or pass --db FILE)`,
    );
    const old = join(tempDir(), "old.db");
    const db = new Database(old);
    db.exec("CREATE TABLE t (x)");
    db.close();
    await expectFailure(
      await thrown(() => openStore(old, { readonly: true })),
      `${old}: the store needs migrating`,
      "store-needs-migration",
      `${old}: the store needs migrating; open it once without --readonly`,
    );
    const full = environmentError(sqliteError("SQLITE_FULL"), "/s.db")!;
    await expectFailure(
      full,
      "/s.db: the disk is full (SQLITE_FULL): free space where the store is; nothing was lost",
      "store-disk-full",
      "/s.db: the disk is full (SQLITE_FULL): free space where the store is, or pass --db FILE on another disk; nothing was lost",
      74,
    );
    await expectFailure(
      environmentError(sqliteError("SQLITE_READONLY_DBMOVED"), "/s.db")!,
      "/s.db: the store is read-only (SQLITE_READONLY_DBMOVED): make it and its folder writable",
      "store-read-only",
      "/s.db: the store is read-only (SQLITE_READONLY_DBMOVED): make it and its folder writable, or pass --db FILE with a writable copy",
      74,
    );
    await expectFailure(
      environmentError(sqliteError("SQLITE_NOTADB"), "/s.db")!,
      "/s.db: not a readable bitext store (SQLITE_NOTADB): restore it from a backup",
      "store-unreadable",
      "/s.db: not a readable bitext store (SQLITE_NOTADB): restore it from a backup or pass --db FILE",
      65,
    );
  });

  it("crawl: a folder of other files, of an earlier crawl, of an unfinished crawl of another site", async () => {
    const start = ["http://127.0.0.1:9/"];
    const foreign = tempDir();
    writeFileSync(join(foreign, "notes.txt"), "mine");
    await expectFailure(
      await thrown(() => crawlSite(start, { out: foreign })),
      `${foreign}: folder is not empty and holds no crawl`,
      "crawl-folder-foreign",
      `${foreign}: folder is not empty and holds no crawl; choose another --out`,
    );
    const manifest = (finishedAt: string | null) =>
      JSON.stringify({
        format: "bitext-site-crawl 1",
        start: ["http://other.test/"],
        startedAt: "2026-01-01T00:00:00Z",
        finishedAt,
        options: {},
        pages: [],
        skipped: [],
      });
    const done = tempDir();
    writeFileSync(join(done, "site.json"), manifest("2026-01-01T00:01:00Z"));
    await expectFailure(
      await thrown(() => crawlSite(start, { out: done })),
      `${done}: holds an earlier crawl`,
      "crawl-folder-taken",
      `${done}: holds an earlier crawl; add --force to replace it`,
    );
    const unfinished = tempDir();
    mkdirSync(join(unfinished, "pages"));
    writeFileSync(join(unfinished, "site.json"), manifest(null));
    await expectFailure(
      await thrown(() => crawlSite(start, { out: unfinished })),
      `${unfinished}: holds an unfinished crawl of http://other.test/; crawl that again to resume it`,
      "crawl-unfinished",
      `${unfinished}: holds an unfinished crawl of http://other.test/; crawl that again to resume it, or add --force to replace it`,
    );
  });

  it("settings: fault plans, engine names, queue URLs name their flag", async () => {
    await expectFailure(
      await thrown(() => parseFaults("sim-div:429")),
      'faults: cannot read "sim-div:429" (expected ENGINE:KIND@FROM[-TO][:DELAYMS])',
      "bad-setting",
      '--faults: cannot read "sim-div:429" (expected ENGINE:KIND@FROM[-TO][:DELAYMS])',
    );
    const unknown = await thrown(() => parseFaults("sim-div:melt@1"));
    expect((await describeFailure(unknown)).message).toMatch(/^--faults: unknown fault "melt" \(/);
    await expectFailure(
      await thrown(() => loadEngine(tempDir(), "../etc")),
      'engines: "../etc" is not an engine name',
      "bad-setting",
      '--engines: "../etc" is not an engine name',
    );
    await expectFailure(
      await thrown(() => runHarvest({ queryFiles: ["q.tsv"], engines: [], db: ":memory:" })),
      "engines: give at least one engine",
      "bad-setting",
      "--engines: give at least one engine",
    );
    await expectFailure(
      await thrown(() => parseRedisUrl("redis://localhost/x")),
      'queue: the database number after the slash must be a whole number, got "x"',
      "bad-setting",
      '--queue: the database number after the slash must be a whole number, got "x"',
    );
  });

  it("a live wrapper learning without a wrapper file points to learning from a saved page", async () => {
    const file = join(tempDir(), "newengine.json");
    const err = await thrown(() => learnEngineLive({ engine: "newengine", file }));
    expect(err.kind).toBe("wrapper-file-missing");
    expect(err.message).toMatch(new RegExp(`^${file}: no such wrapper file; .*"wrapper": null\\} there$`));
    expect((await describeFailure(err)).message).toBe(`${err.message} (or learn from a saved page with --sample)`);
  });

  it("errors without a kind keep their message", async () => {
    const plain = new UserError("something the user can fix", { exitCode: 2 });
    expect(await describeFailure(plain)).toEqual({ message: "something the user can fix", exitCode: 2, internal: false });
  });
});
