import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Bench, bench, DEMO } from "../serp/helpers.js";
import { runCommand } from "../helpers/cli.js";
import { type PostgresCluster, reportSkip, startPostgres } from "../helpers/postgres.js";

/**
 * The same commands on a SQLite file and on PostgreSQL (`--db postgres://…`), against the engine simulator:
 * a harvest (plain HTTP, two engines, two pages, classified as stored), then every command that reads the
 * store. Both stores must end up with the same records (ranks, pages, sightings, labels), runs and corpus.
 */
const skip = reportSkip("the harvest and commands test");
let cluster: PostgresCluster | null = null;
let b: Bench;
let dir: string;
beforeAll(async () => {
  if (skip) return;
  cluster = await startPostgres();
  b = await bench();
  dir = mkdtempSync(join(tmpdir(), "bitext-pg-commands-"));
  writeFileSync(
    join(dir, "queries.tsv"),
    DEMO.slice(0, 8)
      .map((q) => `${q.source.text}\t${q.target.text}`)
      .join("\n"),
  );
}, 120_000);
afterAll(async () => {
  if (skip) return;
  cluster?.stop();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

/** Run a command (in this process); what it printed, or a rejection with its status and error output. */
async function bitext(...args: string[]): Promise<string> {
  const r = await runCommand(args);
  if (r.code !== 0) throw new Error(`bitext ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Every command, on one store; what each printed, without what differs between two runs (ids, times, paths). */
async function session(db: string, name: string) {
  const wrappers = join(dir, `wrappers-${name}`); // each harvest learns its wrappers afresh
  cpSync(b.dir, wrappers, { recursive: true, filter: (f) => !f.endsWith(".db") });
  const harvest = JSON.parse(
    await bitext(
      "harvest",
      join(dir, "queries.tsv"),
      "--engines",
      "sim-list,sim-div",
      "--wrappers",
      wrappers,
      "--db",
      db,
      "--pages",
      "2",
      "--fetch",
      "http",
      "--keep-html",
      "--no-profile",
      "--json",
    ),
  );
  const reextract = JSON.parse(
    await bitext(
      "harvest",
      join(dir, "queries.tsv"),
      "--engines",
      "sim-list,sim-div",
      "--wrappers",
      wrappers,
      "--db",
      db,
      "--reextract",
      "--json",
    ),
  );
  const classify = JSON.parse(await bitext("classify", "--db", db, "--all", "--json"));
  const records = (await bitext("export", "records", "--db", db, "--format", "jsonl"))
    .trim()
    .split("\n")
    .map((l) => {
      const { id: _id, firstSeen: _f, lastSeen: _l, firstFetchId: _ff, lastFetchId: _lf, classifiedAt: _c, ...rest } = JSON.parse(l);
      return rest;
    });
  const pages = JSON.parse(await bitext("fetch-pages", "--db", db, "--delay", "0", "--no-robots", "--json"));
  await bitext("export", "corpus", "--db", db, "--format", "tsv", "--out", join(dir, `corpus-${name}`));
  // A pair's source URLs are listed in the order their pages were stored, which concurrent downloads vary.
  const corpus = readFileSync(join(dir, `corpus-${name}.tsv`), "utf8")
    .split("\n")
    .map((line) => line.replace(/^\S+( \S+)*/, (urls) => urls.split(" ").sort().join(" ")));
  const runs = (JSON.parse(await bitext("runs", "--db", db, "--json")) as Array<{ status: string }>).map((r) => r.status);
  return {
    harvest: {
      fetched: harvest.fetched,
      ok: harvest.ok,
      newRecords: harvest.newRecords,
      seenAgain: harvest.seenAgain,
      classified: harvest.classified,
    },
    reextract: { pages: reextract.pages, newRecords: reextract.newRecords, seenAgain: reextract.seenAgain },
    classified: classify.classified,
    records,
    // (How many downloads a redirect shared varies with the order concurrent downloads finish.)
    pages: { failed: pages.failed, pairs: pages.pairs },
    corpus,
    runs,
  };
}

describe("the same harvest and commands on SQLite and on PostgreSQL", () => {
  it("store and print the same records, runs and corpus", async () => {
    const sqlite = await session(join(dir, "bitext.db"), "sqlite");
    const postgres = await session(await cluster!.createDatabase(), "postgres");
    expect(sqlite.harvest.newRecords).toBeGreaterThan(100);
    expect(sqlite.harvest.classified).toBe(sqlite.harvest.newRecords + sqlite.harvest.seenAgain);
    expect(sqlite.reextract.pages).toBe(sqlite.harvest.fetched);
    expect(sqlite.pages.pairs).toBeGreaterThan(0);
    expect(sqlite.corpus.length).toBeGreaterThan(10);
    expect(sqlite.runs).toEqual(["completed", "completed"]);
    expect(postgres).toEqual(sqlite);
  }, 300_000);
});
