import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDefinition, wrapperFilePath } from "../../src/serp/index.js";
import { startSimulator } from "../../src/sim/index.js";
import { getPage, listFetches, listPagePairs, listPages, listRecords, openStore, setClassification, sql } from "../../src/store/index.js";
import { FIXTURES, ROOT } from "../helpers/cli.js";
import { storeHarvestedRecords } from "../helpers/record-store.js";
import { folderBytes, onSmallDisk, smallDiskUnavailable } from "../helpers/small-disk.js";
import { type LocalServer, startServer } from "../net/local-server.js";

/**
 * A disk that fills up in the middle of a command: the write that does not fit fails the command with
 * exit 74 (the disk is full) and one line naming the store; nothing it reported was lost, nothing is
 * half-written, and a rerun with space finishes the work. The disk is a small tmpfs (test/helpers/small-disk.ts):
 * a full tmpfs fails SQLite at commit, where an `INSERT … RETURNING` read with `.get()` used to lose the error.
 */

describe("a write that returns rows (INSERT … RETURNING), outside a transaction", () => {
  it("throws when its commit fails, instead of returning the id of a row that is not there", async () => {
    // A commit-time failure without a full disk: a deferred foreign key, checked when the statement commits.
    const store = await openStore(":memory:");
    try {
      await store.sql.exec(
        "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)",
      );
      await expect(store.sql.get(sql`INSERT INTO child (parent) VALUES (${42}) RETURNING id`)).rejects.toThrow(
        /FOREIGN KEY constraint failed/,
      );
      expect(await store.sql.get(sql`SELECT count(*) AS n FROM child`)).toEqual({ n: 0 });
    } finally {
      await store.close();
    }
  });
});

const FAST_POLITENESS = { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 2 };

const unavailable = smallDiskUnavailable();
if (unavailable) console.warn(unavailable);

describe.skipIf(unavailable !== null)("a full disk", async () => {
  let server: LocalServer;
  beforeAll(async () => {
    const routes: Parameters<typeof startServer>[0] = {
      "/robots.txt": (_req, res) => {
        res.writeHead(404);
        res.end();
      },
    };
    for (let i = 0; i < 24; i++) {
      routes[`/p${i}.html`] = (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(readFileSync(join(FIXTURES, "extract", "animal-farm-bilingual.html")));
      };
    }
    server = await startServer(routes);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("fetch-pages: exit 74 naming the store, no page claimed that is not stored, a rerun with space completes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-full-"));
    const store = await openStore(join(dir, "bitext.db"));
    await storeHarvestedRecords(
      store,
      "bing",
      Array.from({ length: 24 }, (_, i) => ({ url: server.url(`/p${i}.html`), title: `t${i}`, snippet: "s", rank: i + 1 })),
    );
    for (const r of await listRecords(store)) await setClassification(store, r.id, { label: "bilingual", probability: 0.9, model: "test" });
    await store.close();
    // Room for the store, its WAL index (32 KB) and a little more: the disk fills before the 24 pages are in.
    const r = await onSmallDisk(dir, folderBytes(dir) + 32 * 1024 + 16 * 1024, ["fetch-pages", "--db", "{disk}/bitext.db", "--delay", "0"]);
    expect(r.stderr).toMatch(/bitext\.db: the disk is full \(SQLITE_FULL/);
    expect(r.code).toBe(74);
    expect(r.stdout).not.toMatch(/fetched/);
    const after = await openStore(join(r.out, "bitext.db"));
    try {
      expect(await after.sql.get(sql`PRAGMA integrity_check`)).toEqual({ integrity_check: "ok" });
      const stored = (await listPages(after)).filter((p) => p.hasHtml);
      expect(stored.length).toBeLessThan(24);
    } finally {
      await after.close();
    }
    // With space again, the same command finishes: every page stored, each with its pairs.
    const { runCommand } = await import("../helpers/cli.js");
    const rerun = await runCommand(["fetch-pages", "--db", join(r.out, "bitext.db"), "--delay", "0"]);
    expect(rerun.code).toBe(0);
    const done = await openStore(join(r.out, "bitext.db"));
    try {
      for (let i = 0; i < 24; i++) {
        const page = (await getPage(done, server.url(`/p${i}.html`)))!;
        expect(page.httpStatus).toBe(200);
        expect((await listPagePairs(done, page.id)).length).toBeGreaterThan(0);
      }
    } finally {
      await done.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(r.out, { recursive: true, force: true });
    }
  }, 60_000);

  it("harvest: exit 74 naming the store, every fetch it stored complete with its records", async () => {
    const sim = await startSimulator({});
    const dir = mkdtempSync(join(tmpdir(), "bitext-full-"));
    try {
      const wrappers = join(dir, "wrappers");
      for (const e of sim.engines)
        writeDefinition(wrapperFilePath(wrappers, e.spec.name), e.spec.name, { ...e.definition, politeness: FAST_POLITENESS });
      await (await openStore(join(dir, "bitext.db"))).close();
      const r = await onSmallDisk(
        dir,
        folderBytes(dir) + 32 * 1024 + 16 * 1024,
        [
          "harvest",
          join(ROOT, "queries", "demo.tsv"),
          "--engines",
          "sim-list",
          "--wrappers",
          "{disk}/wrappers",
          "--db",
          "{disk}/bitext.db",
          "--fetch",
          "http",
          "--no-profile",
          "--no-classify",
          "--pages",
          "1",
        ],
        { BITEXT_HOME: "{disk}/home" },
      );
      expect(r.stderr).toMatch(/bitext\.db: the disk is full \(SQLITE_FULL/);
      expect(r.code).toBe(74);
      const after = await openStore(join(r.out, "bitext.db"));
      try {
        expect(await after.sql.get(sql`PRAGMA integrity_check`)).toEqual({ integrity_check: "ok" });
        const sightings = (id: number) =>
          after.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM record_fetches WHERE fetch_id = ${id}`);
        for (const f of await listFetches(after)) expect((await sightings(f.id))!.n).toBe(f.recordCount);
      } finally {
        await after.close();
      }
      rmSync(r.out, { recursive: true, force: true });
    } finally {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("wrapper learn: exit 74 naming the file, no wrapper file half-written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-full-"));
    try {
      cpSync(join(FIXTURES, "serps", "aql", "bing", "bing-crimson-coward-1640789839.html"), join(dir, "page.html"));
      const r = await onSmallDisk(
        dir,
        folderBytes(dir), // the sample fills it
        ["wrapper", "learn", "--engine", "bing", "--sample", "{disk}/page.html"],
        {
          BITEXT_HOME: "{disk}/home",
        },
      );
      expect(r.stderr).toMatch(/^bitext: \S+\/home\/wrappers\/bing\.json: the disk is full \(ENOSPC\)/m);
      expect(r.code).toBe(74);
      expect(existsSync(join(r.out, "home", "wrappers", "bing.json"))).toBe(false);
      rmSync(r.out, { recursive: true, force: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
