import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { loadEngine, wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { readQueryFile } from "../../src/serp/index.js";
import { resourcePath } from "../../src/paths.js";
import { type Simulator, startSimulator } from "../../src/sim/index.js";
import { openStore, raw, type Store } from "../../src/store/index.js";
import { runCommand, spawnCli } from "./cli.js";
import { type PostgresCluster, reportSkip, startPostgres } from "./postgres.js";
import { type RedisServer, redisUnavailable, startRedis } from "./redis.js";

/**
 * What the distributed-harvest tests share (test/queue/distributed*.test.ts): a redis-server, the engine simulator,
 * and `bitext worker` processes taking the page jobs that `bitext harvest --queue` enqueued, into one store they share.
 * The tests are in three files so that the suite's workers run them side by side.
 */

export const setups = (s: Site) => ["sim-list", "sim-div"].map((n) => loadEngine(s.wrappers, n));

/** Why the queue tests cannot run here (no redis-server), or null. */
export const unavailable = redisUnavailable();
if (unavailable) console.warn(`queue tests skipped: ${unavailable}`);

export const QUERIES = readQueryFile(resourcePath("queries", "tatoeba-cmn-eng.tsv"));
/** Politeness written into the simulated engines' definitions: 1500 requests per minute / 30 ms between requests. */
export const LIMITS: Record<string, { minDelayMs: number; requestsPerMinute: number; maxConcurrent: number }> = {
  "sim-list": { minDelayMs: 0, requestsPerMinute: 1500, maxConcurrent: 4 },
  "sim-div": { minDelayMs: 30, requestsPerMinute: 0, maxConcurrent: 4 },
};

export interface Site {
  sim: Simulator;
  dir: string;
  wrappers: string;
  close(): Promise<void>;
}

/** A simulator whose engines are fetched over HTTP (the fast path), their definitions in a temp folder. */
export async function site(latencyMs = 0, limits = LIMITS): Promise<Site> {
  const sim = await startSimulator({ latencyMs });
  const dir = mkdtempSync(join(tmpdir(), "bitext-queue-"));
  const wrappers = join(dir, "wrappers");
  for (const e of sim.engines) {
    writeDefinition(wrapperFilePath(wrappers, e.spec.name), e.spec.name, {
      ...e.definition,
      fetch: "http",
      politeness: limits[e.spec.name] ?? e.definition.politeness,
    });
  }
  return {
    sim,
    dir,
    wrappers,
    async close() {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function queryFile(dir: string, name: string, n: number, from = 0): string {
  const file = join(dir, `${name}.tsv`);
  writeFileSync(
    file,
    `${QUERIES.slice(from, from + n)
      .map((q) => `${q.source.text}\t${q.target.text}`)
      .join("\n")}\n`,
  );
  return file;
}

export interface Running {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** A worker is a process of its own: several share the queue and the store, and tests kill them. */
export function worker(redis: RedisServer, s: Site, db: string, engines: string, extra: string[] = [], stall = "2s"): Running {
  const child = spawnCli([
    "worker",
    "--queue",
    redis.url,
    "--engines",
    engines,
    "--wrappers",
    s.wrappers,
    "--db",
    db,
    "--no-classify",
    "--exit-when-drained",
    "--stall",
    stall,
    ...extra,
  ]);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<Awaited<Running["done"]>>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export async function enqueue(redis: RedisServer, s: Site, file: string, engines: string, extra: string[] = []) {
  const r = await runCommand(["harvest", file, "--queue", redis.url, "--engines", engines, "--wrappers", s.wrappers, "--json", ...extra]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { run: string; offered: number; added: number };
}

/** The rows of a statement the test wrote (no parameters). */
export const rows = (store: Store, text: string) => store.sql.all(raw(text));
/** Rows as text, sorted here (the two backends sort text differently). */
export const sorted = async (store: Store, text: string) =>
  (await rows(store, text)).map((r) => JSON.stringify(Object.values(r).map(String))).sort();
export const recordRows = (store: Store) => sorted(store, "SELECT engine, query_en, query_zh, url, rank, title, snippet FROM records");
export const fetchRows = (store: Store) => sorted(store, "SELECT engine, query_en, query_zh, page, status FROM fetches");

/** Search requests the simulator answered from the `from`-th to before the `to`-th, per (engine, query, page). */
export function requestsPerPage(sim: Simulator, from: number, to?: number): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of sim.log.slice(from, to))
    m.set(`${l.engine}\t${l.query}\t${l.page}`, (m.get(`${l.engine}\t${l.query}\t${l.page}`) ?? 0) + 1);
  return m;
}

/** Each simulated engine's interval between requests (ms), as LIMITS sets it: 1500 requests per minute, 30 ms apart. */
export const RATES = [
  ["sim-list", 40],
  ["sim-div", 30],
] as const;

/** The two stores the tests run against; PostgreSQL's skipped where no server can be started. */
export const backends = [
  { backend: "SQLite", skip: unavailable },
  { backend: "PostgreSQL", skip: unavailable ?? reportSkip("the distributed-harvest tests on PostgreSQL") },
];

/** The servers the tests of a describe block share. */
export interface Servers {
  redis: RedisServer;
  s: Site;
  /** A PostgreSQL cluster when asked for, else null. */
  pg: PostgresCluster | null;
}

/**
 * Starts the block's servers before its tests and stops them after (nothing when `skip` names a reason): Redis (kept
 * on disk when `persistent`, for the tests that restart it), the simulator answering after `latencyMs`, its engines
 * paced by `limits`, and a PostgreSQL cluster when `postgres`. Read the fields inside the tests.
 */
export function useServers(
  options: { skip?: string | null; latencyMs?: number; limits?: typeof LIMITS; persistent?: boolean; postgres?: boolean } = {},
): Servers {
  const servers = { pg: null } as Servers;
  beforeAll(async () => {
    if (options.skip) return;
    servers.redis = await startRedis(options.persistent ? { persistent: true } : undefined);
    servers.s = await site(options.latencyMs, options.limits);
    if (options.postgres) servers.pg = await startPostgres();
  });
  afterAll(async () => {
    await servers.s?.close();
    await servers.redis?.stop();
    servers.pg?.stop();
  });
  return servers;
}

/**
 * A run for the workers to take: `n` queries of the Tatoeba list from the `from`-th, enqueued as run `name` for
 * `engine`, and an empty store (a new PostgreSQL database when the block has a cluster, else a SQLite file) with its
 * schema made before several processes open it at once. `before`: the simulator's log length, before any worker asks.
 */
export async function queuedRun(servers: Servers, name: string, n: number, from: number, engine: string, extra: string[] = []) {
  const { redis, s, pg } = servers;
  await enqueue(redis, s, queryFile(s.dir, name, n, from), engine, ["--run", name, ...extra]);
  const db = pg ? await pg.createDatabase() : join(s.dir, `${name}.db`);
  await (await openStore(db)).close();
  return { db, before: s.sim.log.length };
}
