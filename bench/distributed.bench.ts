/**
 * Distributed harvesting: pages per second with 1, 2 and 4 `bitext worker` processes taking page jobs
 * from one Redis (BullMQ) into one SQLite store (WAL), against the engine simulator, over the HTTP fast
 * path and through the browser (each worker its own Chromium), and the scaling ratio against 1 worker. The workers
 * are started, and have said they serve, before the trial's jobs are enqueued; pages per second are counted from
 * the enqueue to the simulator's last search of the trial. Each worker reports its event-loop delay (p99, from
 * `monitorEventLoopDelay`); the table gives the largest. `-- --store postgres`: a throwaway database per trial on
 * the local PostgreSQL (127.0.0.1:5432, trust auth; BENCH_PG to name another server). Every search takes
 * BENCH_LATENCY ms (default 100: an engine's answer time), so a worker mostly waits, as on the web;
 * the engines set no politeness limit here. Each setting runs REPEATS times; the table gives medians.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { formatTable } from "../src/cli/output.js";
import { resourcePath } from "../src/paths.js";
import { enqueueHarvest, LazyBrowser, parseRedisUrl } from "../src/queue/index.js";
import { loadEngine, wrapperFilePath, writeDefinition } from "../src/serp/engine-files.js";
import { harvest } from "../src/serp/harvest.js";
import { HttpLoader } from "../src/serp/http-loader.js";
import { readQueryFile } from "../src/serp/queries.js";
import { startSimulator } from "../src/sim/index.js";
import { openStore } from "../src/store/index.js";
import { spawnCli } from "../test/helpers/cli.js";
import { adminQuery } from "../test/helpers/postgres.js";
import { redisUnavailable, startRedis } from "../test/helpers/redis.js";
import { median } from "./stats.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 120);
// A browser page costs ~150 ms of Chromium CPU: fewer pages keep the browser trials as long as the HTTP ones.
const BROWSER_QUERIES = Number(process.env.BENCH_BROWSER_QUERIES ?? 30);
const LATENCY_MS = Number(process.env.BENCH_LATENCY ?? 100);
const STORE: "sqlite" | "postgres" = process.argv.includes("postgres") ? "postgres" : "sqlite";
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** Only these fetch paths (BENCH_PATHS=http), all by default. */
const PATHS = (process.env.BENCH_PATHS ?? "http,browser").split(",");

/**
 * Per fetch path: pages per trial, the simulator's answer time and each worker's concurrency per engine. The
 * browser runs twice: bound by the engine's answer time (1 s, one page per engine per worker: workers mostly wait,
 * as against real engines' politeness) and bound by the CPU (100 ms, 4 per engine: Chromium's rendering fills the
 * cores), to show where adding workers on one machine stops paying.
 */
interface Setting {
  path: FetchPath;
  queries: number;
  latencyMs: number;
  concurrency: number;
}
const SETTINGS: readonly Setting[] = [
  { path: "http", queries: QUERIES, latencyMs: LATENCY_MS, concurrency: 4 },
  { path: "browser", queries: BROWSER_QUERIES, latencyMs: Number(process.env.BENCH_BROWSER_LATENCY ?? 1000), concurrency: 1 },
  { path: "browser", queries: BROWSER_QUERIES, latencyMs: LATENCY_MS, concurrency: 4 },
];
/** Worker counts to compare (BENCH_WORKERS=1,2 for fewer); the first is the ratio's base. */
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2,4").split(",").map(Number);
const ENGINES = ["sim-list", "sim-div"];

type FetchPath = "http" | "browser";

export async function run(): Promise<void> {
  const unavailable = redisUnavailable();
  if (unavailable) {
    console.log(`skipped: ${unavailable}`);
    return;
  }
  for (const setting of SETTINGS) if (PATHS.includes(setting.path)) await runSetting(setting);
}

async function runSetting({ path, queries: count, latencyMs, concurrency }: Setting): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bitext-bench-distributed-"));
  const sim = await startSimulator({ latencyMs });
  const redis = await startRedis();
  try {
    const wrappers = join(dir, "wrappers");
    for (const e of sim.engines) {
      writeDefinition(wrapperFilePath(wrappers, e.spec.name), e.spec.name, {
        ...e.definition,
        fetch: path,
        politeness: { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 16 },
      });
    }
    const queries = readQueryFile(resourcePath("queries", "tatoeba-cmn-eng.tsv")).slice(0, count);
    const list = join(dir, "queries.tsv");
    writeFileSync(list, `${queries.map((q) => `${q.source.text}\t${q.target.text}`).join("\n")}\n`);
    await learnWrappers(dir, wrappers, queries.slice(0, 2));
    const { rates, lags } = await trials(redis.url, sim, wrappers, dir, queries, concurrency);
    const base = median(rates.get(WORKERS[0]!)!);
    const rows: Array<Array<string | number>> = [
      ["workers", "pages/s (median)", "× 1 worker", "per worker", "event-loop lag p99 (ms, worst worker)"],
    ];
    for (const n of WORKERS) {
      const m = median(rates.get(n)!);
      rows.push([n, m.toFixed(1), (m / base).toFixed(2), (m / base / n).toFixed(2), median(lags.get(n)!).toFixed(1)]);
    }
    console.log(
      `\nfetch ${path}, ${STORE} store: ${queries.length} queries × ${ENGINES.length} engines = ${queries.length * ENGINES.length} pages per trial, ` +
        `${latencyMs} ms per search, concurrency ${concurrency} per engine per worker, ${REPEATS} repeats, ${cpus().length} CPU cores, ` +
        `load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(", ")}\n`,
    );
    console.log(formatTable(rows));
  } finally {
    await redis.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Wrappers learned once, from the first queries, as a user would before harvesting. */
async function learnWrappers(dir: string, wrappers: string, queries: ReturnType<typeof readQueryFile>): Promise<void> {
  const browser = new LazyBrowser({ timeoutMs: 30_000 });
  const http = new HttpLoader({ timeoutMs: 30_000, identity: await browser.identity() });
  const learning = await openStore(join(dir, "learning.db"));
  try {
    const setups = ENGINES.map((n) => loadEngine(wrappers, n));
    await harvest(learning, { queries, engines: setups, driver: browser, http, concurrency: 1 });
  } finally {
    await learning.close();
    await http.close();
    await browser.close();
  }
}

/** Pages per second and the worst worker's event-loop lag, per worker count, REPEATS trials each (counts interleaved). */
async function trials(
  redisUrl: string,
  sim: Awaited<ReturnType<typeof startSimulator>>,
  wrappers: string,
  dir: string,
  queries: ReturnType<typeof readQueryFile>,
  concurrency: number,
): Promise<{ rates: Map<number, number[]>; lags: Map<number, number[]> }> {
  const rates = new Map<number, number[]>();
  const lags = new Map<number, number[]>();
  let trial = 0;
  for (let r = 0; r < REPEATS; r++) {
    for (const n of WORKERS) {
      trial++;
      const store = await trialStore(dir);
      const db = store.location;
      await (await openStore(db)).close();
      const settings = {
        run: `bench-${trial}`,
        pages: 1,
        maxAgeMs: 0,
        keepHtml: false,
        retries: 2,
        blockRetries: 2,
        downAfter: 3,
        backoffMs: 500,
      };
      const workers = Array.from({ length: n }, () => workerProcess(redisUrl, wrappers, db, concurrency));
      await Promise.all(workers.map((w) => w.ready));
      const from = sim.log.length;
      const expected = queries.length * ENGINES.length;
      const t0 = Date.now();
      await enqueueHarvest(
        parseRedisUrl(redisUrl),
        settings,
        ENGINES.map((e) => loadEngine(wrappers, e)),
        queries,
      );
      while (sim.log.length - from < expected) await new Promise((res) => setTimeout(res, 20));
      const span = (sim.log.at(-1)!.at - t0) / 1000;
      const ended = await Promise.all(workers.map((w) => w.stop()));
      await store.drop();
      const log = sim.log.slice(from);
      if (log.length !== expected) throw new Error(`trial ${trial}: ${log.length} searches, expected ${expected}`);
      rates.set(n, [...(rates.get(n) ?? []), log.length / span]);
      lags.set(n, [...(lags.get(n) ?? []), Math.max(...ended)]);
    }
  }
  return { rates, lags };
}

/** Trials of the whole run (the settings' trials are numbered apart: their databases must not clash). */
let trialsSoFar = 0;

/** The trial's store: a SQLite file, or a new database on the PostgreSQL server (`drop` removes it). */
async function trialStore(dir: string): Promise<{ location: string; drop(): Promise<void> }> {
  const trial = ++trialsSoFar;
  if (STORE === "sqlite") return { location: join(dir, `trial-${trial}.db`), drop: async () => {} };
  const name = `bitext_bench_${process.pid}_${trial}`;
  await adminQuery(PG_SERVER, `CREATE DATABASE ${name}`);
  const u = new URL(PG_SERVER);
  u.pathname = `/${name}`;
  return { location: u.href, drop: async () => void (await adminQuery(PG_SERVER, `DROP DATABASE IF EXISTS ${name}`)) };
}

/** A worker serving until stopped: `ready` once it says it serves, `stop()` its event-loop lag p99 (ms). */
function workerProcess(queue: string, wrappers: string, db: string, concurrency: number) {
  const child = spawnCli(
    [
      "worker",
      "--queue",
      queue,
      "--engines",
      ENGINES.join(","),
      "--wrappers",
      wrappers,
      "--db",
      db,
      "--no-classify",
      "--no-learn",
      "--json",
      "--concurrency",
      String(concurrency),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number>((resolve, reject) =>
    child.on("exit", (code) => {
      const lag = /"eventLoopLagP99Ms":\s*([\d.]+)/.exec(stdout);
      if (code === 0 && lag) resolve(Number(lag[1]));
      else reject(new Error(`worker exited ${code}: ${stderr}`));
    }),
  );
  // The queues are open (Redis answered) once the worker has applied its engines' limits: its first output line.
  const ready = new Promise<void>((resolve) =>
    child.stdout!.on("data", (d) => {
      stdout += d;
      resolve();
    }),
  );
  return {
    ready,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
