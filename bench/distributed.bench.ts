/**
 * Distributed harvesting: pages per second with 1, 2 and 4 `bitext worker` processes taking page jobs
 * from one Redis (BullMQ) into one SQLite store (WAL), against the engine simulator over the HTTP fast
 * path, and the scaling ratio against 1 worker. Pages per second are counted at the simulator, from its
 * first search to its last of the trial (worker start-up is not in them). Every search takes
 * BENCH_LATENCY ms (default 100: an engine's answer time), so a worker mostly waits, as on the web;
 * the engines set no politeness limit here. Each setting runs REPEATS times; the table gives medians.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
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
import { redisUnavailable, startRedis } from "../test/helpers/redis.js";
import { median } from "./stats.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 120);
const LATENCY_MS = Number(process.env.BENCH_LATENCY ?? 100);
const WORKERS = [1, 2, 4];
const ENGINES = ["sim-list", "sim-div"];
const ROOT = join(import.meta.dirname, "..");

export async function run(): Promise<void> {
  const unavailable = redisUnavailable();
  if (unavailable) {
    console.log(`skipped: ${unavailable}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "bitext-bench-distributed-"));
  const sim = await startSimulator({ latencyMs: LATENCY_MS });
  const redis = await startRedis();
  try {
    const wrappers = join(dir, "wrappers");
    for (const e of sim.engines) {
      writeDefinition(wrapperFilePath(wrappers, e.spec.name), e.spec.name, { ...e.definition, fetch: "http", politeness: { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 16 } });
    }
    const queries = readQueryFile(resourcePath("queries", "tatoeba-cmn-eng.tsv")).slice(0, QUERIES);
    const list = join(dir, "queries.tsv");
    writeFileSync(list, `${queries.map((q) => `${q.source.text}\t${q.target.text}`).join("\n")}\n`);
    // Wrappers learned once, from the first two queries, as a user would before harvesting.
    const browser = new LazyBrowser({ timeoutMs: 30_000 });
    const http = new HttpLoader({ timeoutMs: 30_000, identity: await browser.identity() });
    const learning = openStore(join(dir, "learning.db"));
    const setups = () => ENGINES.map((n) => loadEngine(wrappers, n));
    await harvest(learning, { queries: queries.slice(0, 2), engines: setups(), driver: browser, http, concurrency: 1 });
    learning.close();
    await http.close();

    const rates = new Map<number, number[]>();
    let trial = 0;
    for (let r = 0; r < REPEATS; r++) {
      for (const n of WORKERS) {
        trial++;
        const db = join(dir, `trial-${trial}.db`);
        openStore(db).close();
        const settings = { run: `bench-${trial}`, pages: 1, maxAgeMs: 0, keepHtml: false, retries: 2, blockRetries: 2, downAfter: 3, backoffMs: 500 };
        await enqueueHarvest(parseRedisUrl(redis.url), settings, setups(), queries);
        const from = sim.log.length;
        await Promise.all(Array.from({ length: n }, () => workerProcess(redis.url, wrappers, db)));
        const log = sim.log.slice(from);
        if (log.length !== queries.length * ENGINES.length) throw new Error(`trial ${trial}: ${log.length} searches, expected ${queries.length * ENGINES.length}`);
        const span = (log.at(-1)!.at - log[0]!.at) / 1000;
        rates.set(n, [...(rates.get(n) ?? []), log.length / span]);
      }
    }
    const base = median(rates.get(1)!);
    const rows: Array<Array<string | number>> = [["workers", "pages/s (median)", "× 1 worker", "per worker"]];
    for (const n of WORKERS) {
      const m = median(rates.get(n)!);
      rows.push([n, m.toFixed(1), (m / base).toFixed(2), (m / base / n).toFixed(2)]);
    }
    console.log(
      `${queries.length} queries × ${ENGINES.length} engines = ${queries.length * ENGINES.length} pages per trial, fetch http, ` +
        `${LATENCY_MS} ms per search, concurrency 4 per engine per worker, ${REPEATS} repeats, ${cpus().length} CPU cores\n`,
    );
    console.log(formatTable(rows));
  } finally {
    await redis.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function workerProcess(queue: string, wrappers: string, db: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "worker", "--queue", queue, "--engines", ENGINES.join(","), "--wrappers", wrappers, "--db", db, "--no-classify", "--no-learn", "--exit-when-drained", "--concurrency", "4"],
    { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}: ${stderr}`)))),
  );
}
