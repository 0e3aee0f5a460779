/**
 * Distributed harvesting: pages per second with 1, 2 and 4 `bitext worker` processes taking page jobs
 * from one Redis (BullMQ) into one SQLite store (WAL), against the engine simulator, over the HTTP fast
 * path and through the browser (each worker its own Chromium), and the scaling ratio against 1 worker. Pages per second are counted at the simulator, from its
 * first search to its last of the trial (worker start-up is not in them). Every search takes
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
import { redisUnavailable, startRedis } from "../test/helpers/redis.js";
import { median } from "./stats.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 120);
// A browser page costs ~150 ms of Chromium CPU: fewer pages keep the browser trials as long as the HTTP ones.
const BROWSER_QUERIES = Number(process.env.BENCH_BROWSER_QUERIES ?? 30);
const LATENCY_MS = Number(process.env.BENCH_LATENCY ?? 100);

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
const WORKERS = [1, 2, 4];
const ENGINES = ["sim-list", "sim-div"];

type FetchPath = "http" | "browser";

export async function run(): Promise<void> {
  const unavailable = redisUnavailable();
  if (unavailable) {
    console.log(`skipped: ${unavailable}`);
    return;
  }
  for (const setting of SETTINGS) await runSetting(setting);
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
    const rates = await trials(redis.url, sim, wrappers, dir, queries, concurrency);
    const base = median(rates.get(1)!);
    const rows: Array<Array<string | number>> = [["workers", "pages/s (median)", "× 1 worker", "per worker"]];
    for (const n of WORKERS) {
      const m = median(rates.get(n)!);
      rows.push([n, m.toFixed(1), (m / base).toFixed(2), (m / base / n).toFixed(2)]);
    }
    console.log(
      `\nfetch ${path}: ${queries.length} queries × ${ENGINES.length} engines = ${queries.length * ENGINES.length} pages per trial, ` +
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

/** Pages per second at the simulator, per worker count, REPEATS trials each (worker counts interleaved). */
async function trials(
  redisUrl: string,
  sim: Awaited<ReturnType<typeof startSimulator>>,
  wrappers: string,
  dir: string,
  queries: ReturnType<typeof readQueryFile>,
  concurrency: number,
): Promise<Map<number, number[]>> {
  const rates = new Map<number, number[]>();
  let trial = 0;
  for (let r = 0; r < REPEATS; r++) {
    for (const n of WORKERS) {
      trial++;
      const db = join(dir, `trial-${trial}.db`);
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
      await enqueueHarvest(
        parseRedisUrl(redisUrl),
        settings,
        ENGINES.map((e) => loadEngine(wrappers, e)),
        queries,
      );
      const from = sim.log.length;
      await Promise.all(Array.from({ length: n }, () => workerProcess(redisUrl, wrappers, db, concurrency)));
      const log = sim.log.slice(from);
      if (log.length !== queries.length * ENGINES.length)
        throw new Error(`trial ${trial}: ${log.length} searches, expected ${queries.length * ENGINES.length}`);
      const span = (log.at(-1)!.at - log[0]!.at) / 1000;
      rates.set(n, [...(rates.get(n) ?? []), log.length / span]);
    }
  }
  return rates;
}

function workerProcess(queue: string, wrappers: string, db: string, concurrency: number): Promise<void> {
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
      "--exit-when-drained",
      "--concurrency",
      String(concurrency),
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}: ${stderr}`)))),
  );
}
