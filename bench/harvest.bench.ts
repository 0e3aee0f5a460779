/**
 * The harvest loop against the local engine simulator: pages per second and CPU milliseconds per page
 * at concurrency 1, 4 and 8, and where a page's cost goes — ours (the Node process: scheduling, CDP
 * messages, interpreting the page, writing the store) versus the browser's (Chromium's processes:
 * navigation, parsing, layout, the in-page tag-path collection). The simulator runs in its own process
 * so its CPU is counted apart. Each setting runs REPEATS times; the table gives medians.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { formatTable } from "../src/cli/output.js";
import { resourcePath } from "../src/paths.js";
import { SerpDriver } from "../src/serp/driver.js";
import { loadEngine, wrapperFilePath, writeDefinition } from "../src/serp/engine-files.js";
import type { FetchMode } from "../src/serp/engines.js";
import { harvest } from "../src/serp/harvest.js";
import { HttpLoader } from "../src/serp/http-loader.js";
import { learnWrapperLive } from "../src/serp/learn-live.js";
import { type QueryEntry, readQueryFile } from "../src/serp/queries.js";
import { listRecords, openStore } from "../src/store/index.js";
import { median, ms } from "./stats.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 24);
const ENGINES = ["sim-list", "sim-div", "sim-table"];
const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bitext-bench-harvest-"));
  const sim = await startSimulatorProcess();
  const driver = await SerpDriver.start({ timeoutMs: 30_000 });
  try {
    for (const e of sim.engines) writeDefinition(wrapperFilePath(dir, e.name), e.name, e.definition);
    const queries = readQueryFile(resourcePath("queries", "tatoeba-cmn-eng.tsv")).slice(0, QUERIES);
    // Wrappers learned once, as a user would before harvesting.
    for (const name of ENGINES) {
      const setup = loadEngine(dir, name);
      await learnWrapperLive({
        definition: setup.definition,
        file: setup.file,
        driver,
        query: `${queries[0]!.source.text} ${queries[0]!.target.text}`,
      });
    }
    const rows: Array<Array<string | number>> = [
      [
        "concurrency",
        "pages/s",
        "wall ms/page",
        "CPU ms/page: ours (Node)",
        "browser (Chromium)",
        "simulator",
        "ours share",
        "navigate ms",
        "in-page eval ms",
        "body ms",
        "interpret+store ms",
      ],
    ];
    for (const concurrency of [1, 4, 8]) {
      const perRun: Array<Record<string, number>> = [];
      for (let r = 0; r < REPEATS; r++) {
        const store = await openStore(join(dir, `c${concurrency}-${r}.db`));
        const engines = ENGINES.map((n) => loadEngine(dir, n));
        const cpu0 = process.cpuUsage();
        const tree0 = treeCpuMs(process.pid, sim.pid);
        const simCpu0 = treeCpuMs(sim.pid, undefined, true);
        const t0 = performance.now();
        const s = await harvest(store, {
          queries,
          engines,
          driver,
          concurrency,
          maxAgeMs: 0,
          interpret: { learn: false, healShare: 0.5, minLearnedRecords: 3 },
        });
        const wall = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        const browser = treeCpuMs(process.pid, sim.pid) - tree0;
        const simCpu = treeCpuMs(sim.pid, undefined, true) - simCpu0;
        await store.close();
        if (s.errors + s.blocked > 0) throw new Error(`bench run had ${s.errors} errors, ${s.blocked} blocks`);
        const ours = (cpu.user + cpu.system) / 1000;
        perRun.push({
          pagesPerSec: s.fetched / (wall / 1000),
          wallPerPage: wall / s.fetched,
          ours: ours / s.fetched,
          browser: browser / s.fetched,
          sim: simCpu / s.fetched,
          share: ours / (ours + browser),
          nav: s.timing.navigateMs,
          evaluate: s.timing.evaluateMs,
          body: s.timing.bodyMs,
          interpret: s.timing.oursMs,
          pages: s.fetched,
        });
      }
      const m = (k: string) => median(perRun.map((x) => x[k]!));
      rows.push([
        concurrency,
        m("pagesPerSec").toFixed(1),
        ms(m("wallPerPage")),
        ms(m("ours")),
        ms(m("browser")),
        ms(m("sim")),
        `${Math.round(m("share") * 100)}%`,
        ms(m("nav")),
        ms(m("evaluate")),
        ms(m("body")),
        ms(m("interpret")),
      ]);
    }
    console.log(formatTable(rows));
    console.log(
      `\n${QUERIES} queries × ${ENGINES.length} simulated engines, 1 page each (${QUERIES * ENGINES.length} pages per run), ${REPEATS} runs per setting, medians.` +
        "\nCPU: ours = this Node process (scheduler, CDP, interpret, SQLite); browser = every Chromium process; simulator = the server process." +
        "\nPer-page timings (medians): navigate = goto to DOMContentLoaded, in-page eval = tag paths + block signals in the page, body = response bytes over CDP, interpret+store = extract records + one transaction.",
    );
    console.log(`\n${await compareFetchPaths(dir, driver, queries, sim.pid)}`);
  } finally {
    await driver.close();
    sim.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Fetch mode browser against fetch mode http on the same pages, in the same process, runs interleaved:
 * pages/s and CPU per page of each, the ratio, and whether both stored exactly the same records.
 */
async function compareFetchPaths(dir: string, driver: SerpDriver, queries: QueryEntry[], simPid: number): Promise<string> {
  const http = new HttpLoader({ timeoutMs: 30_000, identity: driver.identity });
  const rows: Array<Array<string | number>> = [
    [
      "fetch",
      "concurrency",
      "pages/s",
      "CPU ms/page: ours (Node)",
      "browser (Chromium)",
      "pages/s × browser's",
      "CPU/page ÷ browser's",
      "records identical",
    ],
  ];
  try {
    for (const concurrency of [1, 4]) {
      const runs: Record<FetchMode, Array<{ pps: number; ours: number; browser: number; records: string[] }>> = {
        browser: [],
        http: [],
        auto: [],
      };
      for (let r = 0; r < REPEATS; r++) {
        for (const mode of ["browser", "http"] as const) {
          const store = await openStore(join(dir, `path-${mode}-${concurrency}-${r}.db`));
          const engines = ENGINES.map((n) => loadEngine(dir, n));
          const cpu0 = process.cpuUsage();
          const tree0 = treeCpuMs(process.pid, simPid);
          const t0 = performance.now();
          const s = await harvest(store, {
            queries,
            engines,
            driver,
            http,
            fetchMode: mode,
            concurrency,
            maxAgeMs: 0,
            interpret: { learn: false, healShare: 0.5, minLearnedRecords: 3 },
          });
          const wall = performance.now() - t0;
          const cpu = process.cpuUsage(cpu0);
          const browser = treeCpuMs(process.pid, simPid) - tree0;
          if (s.errors + s.blocked > 0) throw new Error(`bench run (${mode}) had ${s.errors} errors, ${s.blocked} blocks`);
          const records = (await listRecords(store))
            .map((x) => `${x.engine}|${x.query.source.text}|${x.rank}|${x.url}|${x.title}|${x.snippet}`)
            .sort();
          await store.close();
          runs[mode].push({
            pps: s.fetched / (wall / 1000),
            ours: (cpu.user + cpu.system) / 1000 / s.fetched,
            browser: browser / s.fetched,
            records,
          });
        }
      }
      const m = (mode: FetchMode, k: "pps" | "ours" | "browser") => median(runs[mode].map((x) => x[k]));
      const same = runs.http.every((h, i) => JSON.stringify(h.records) === JSON.stringify(runs.browser[i]!.records));
      for (const mode of ["browser", "http"] as const) {
        const cpu = (x: FetchMode) => m(x, "ours") + m(x, "browser");
        const isHttp = mode === "http";
        rows.push([
          mode,
          concurrency,
          m(mode, "pps").toFixed(1),
          ms(m(mode, "ours")),
          ms(m(mode, "browser")),
          isHttp ? `${(m("http", "pps") / m("browser", "pps")).toFixed(1)}×` : "1×",
          // Less sensitive to other load on the machine than pages/s (Chromium's several processes get more of a busy CPU than one Node).
          isHttp ? `1/${(cpu("browser") / cpu("http")).toFixed(0)}` : "1",
          isHttp ? (same ? "yes" : "NO") : "",
        ]);
      }
    }
  } finally {
    await http.close();
  }
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(", ");
  return `${formatTable(rows)}\nMachine load average at the end (1, 5, 15 min): ${load} on ${cpus().length} cores (pages/s ratios shrink under load; CPU ratios hardly move).\nFetch paths: the same ${queries.length} queries × ${ENGINES.length} engines with fetch "browser" and fetch "http", ${REPEATS} interleaved runs each, medians; records compared run by run.`;
}

/** The simulator in a child process (so its CPU is not ours); resolves with its origin and engine definitions. */
async function startSimulatorProcess(): Promise<{
  child: ChildProcess;
  pid: number;
  engines: Array<{ name: string; definition: unknown }>;
}> {
  const code = `
    const { startSimulator } = await import(${JSON.stringify(join(import.meta.dirname, "../src/sim/index.ts"))});
    const sim = await startSimulator();
    process.stdout.write(JSON.stringify({ engines: sim.engines.map((e) => ({ name: e.spec.name, definition: e.definition })) }) + "\\n");
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = "";
    child.stdout!.on("data", (d) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.on("exit", (c) => reject(new Error(`simulator exited (${c})`)));
  });
  const { engines } = JSON.parse(line) as { engines: Array<{ name: string; definition: unknown }> };
  return { child, pid: child.pid!, engines };
}

/**
 * CPU milliseconds (user + system, reaped children included) of `root`'s descendants — or of `root` and
 * its descendants with `withRoot` — leaving out the subtree of `exclude`. Read from /proc.
 */
function treeCpuMs(root: number, exclude?: number, withRoot = false): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const raw = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
      // fields[1] = ppid; fields[11..14] = utime, stime, cutime, cstime
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks });
    } catch {
      // the process ended meanwhile
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, st] of stats) children.set(st.ppid, [...(children.get(st.ppid) ?? []), pid]);
  let total = withRoot ? (stats.get(root)?.ticks ?? 0) : 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (pid === exclude) continue;
    total += stats.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total * CLOCK_TICK_MS;
}
