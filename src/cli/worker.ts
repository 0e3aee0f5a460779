import { type Command, Option } from "commander";
import { withBrowserOptions } from "./browser-options.js";
import { defaultEngines, loadSettings, storePath } from "../config/index.js";
import { UserError } from "../errors.js";
import type { FetchMode } from "../serp/index.js";
import { HttpLoader } from "../serp/index.js";
import { defaultProfileDir } from "../serp/index.js";
import { ProxyPool } from "../serp/index.js";
import { loadConfiguredEngines, loadRecordClassifier } from "../serp/index.js";
import { stopOnInterrupt } from "./signals.js";
import { openStore } from "../store/index.js";
import { describeRedis, LazyBrowser, parseRedisUrl, QueueOpenAborted, type QueueWorkerSummary, runQueueWorker } from "../queue/index.js";
import { positiveDurationMs, wholeNumber } from "./flags.js";
import { type BrowserFlags, browserFlags, harvestModel, logEvent } from "./harvest.js";
import { printJson, printJsonLine, printLine } from "./output.js";
import { formatSeconds } from "./progress.js";
import { splitList } from "./shared-options.js";

interface WorkerFlags extends BrowserFlags {
  queue: string;
  engines: string;
  db?: string;
  wrappers?: string;
  concurrency: string;
  timeout: string;
  stall: string;
  fetch?: string;
  model?: string;
  classify: boolean;
  learn: boolean;
  exitWhenDrained?: boolean;
  json?: boolean;
}

export function registerWorkerCommand(program: Command): void {
  const settings = loadSettings();
  addWorkerOptions(program.command("worker"), settings)
    .addHelpText(
      "after",
      `
Takes the page jobs that bitext harvest --queue enqueued and runs them as a local harvest would (same
page runner, wrappers, classification and store), on as many machines as you start workers. Each engine's
politeness (requests per minute, minimum delay, pages in flight) holds over all workers together; blocks
pause the engine for every worker. SIGTERM or Ctrl-C lets the pages in flight finish (again to quit now:
their jobs go to another worker after --stall). A worker has no --pair: each job carries its query's
languages (the enqueuer's --pair or list header) and the list, line and note it was read from.`,
    )
    .action((flags: WorkerFlags) => runWorker(flags, settings));
}

type Settings = ReturnType<typeof loadSettings>;

function addWorkerOptions(command: Command, settings: Settings): Command {
  return withBrowserOptions(
    command
      .addOption(new Option("--queue <url>", "the Redis of the queue (redis://host:port)").env("BITEXT_QUEUE").makeOptionMandatory())
      .option("--engines <list>", "engines whose queues this worker serves (wrappers/<engine>.json)", defaultEngines(settings).join(","))
      .addOption(
        new Option(
          "--db <store>",
          "the store the pages are written to: a SQLite file, or postgres://user@host:5432/db for workers on many machines (default: the config file's store, else data/bitext.db in your home; bitext where shows it)",
        ).env("BITEXT_DB"),
      )
      .option("--wrappers <dir>", "folder of engine wrapper files (default: the shipped wrappers/)")
      .option(
        "--concurrency <n>",
        "pages in flight at once in this worker, per engine (each engine's limit over all workers still holds)",
        "2",
      )
      .option("--timeout <duration>", "page load timeout (30s, 1m)", "30s")
      .option("--stall <duration>", "a job held by a worker that stopped answering goes to another after this long", "30s")
      .addOption(
        new Option(
          "--fetch <mode>",
          "fetch result pages with the browser, a plain HTTP client, or HTTP first (default: each engine's definition)",
        ).choices(["browser", "http", "auto"]),
      )
      .option("--model <file>", "classifier model for classifying records as they are stored (default: models/default.json if present)")
      .option("--no-classify", "store records unclassified even if a model is present")
      .option("--no-learn", "never learn or re-learn wrappers from harvested pages"),
  )
    .option("--exit-when-drained", "stop once the queues of its engines are empty (default: serve until Ctrl-C / SIGTERM)")
    .option("--json", "log events as JSON lines and print the summary as JSON");
}

async function runWorker(flags: WorkerFlags, settings: Settings): Promise<void> {
  const redis = parseRedisUrl(flags.queue);
  const engines = loadConfiguredEngines(splitList(flags.engines), flags.wrappers);
  if (engines.length === 0) throw new UserError("--engines: give at least one engine");
  const timeoutMs = positiveDurationMs("--timeout", flags.timeout);
  const stallMs = positiveDurationMs("--stall", flags.stall);
  const concurrency = wholeNumber("--concurrency", flags.concurrency, 1);
  const fetchMode = (flags.fetch as FetchMode | undefined) ?? null;
  const browser = browserFlags(flags, settings);
  const classifier = await loadRecordClassifier(harvestModel(flags, settings));
  const { loader, http } = await pageLoaders(flags, browser, engines, fetchMode, timeoutMs);
  const db = storePath(flags.db, settings);
  const store = await openStore(db);
  const interrupt = stopOnInterrupt(() =>
    process.stderr.write("\nbitext worker: stopping: letting the pages in flight finish (again to quit now)\n"),
  );
  const json = flags.json ?? false;
  let lastTrouble = "";
  // Said before Redis is asked (it may not answer: the worker names it within the connect wait, Ctrl-C stops it).
  if (!json) printLine(`bitext worker ${process.pid}: connecting to ${describeRedis(redis)}`);
  try {
    const summary = await runQueueWorker({
      redis,
      store,
      engines,
      loader,
      http,
      fetchMode,
      concurrency,
      interpret: { learn: flags.learn, healShare: 0.5, minLearnedRecords: 3 },
      classifier,
      stallMs,
      exitWhenDrained: flags.exitWhenDrained ?? false,
      signal: interrupt.signal,
      // Said once Redis answered and the queues are open (a bench or a supervisor waits for it).
      onReady: () =>
        json
          ? printJsonLine({ at: new Date().toISOString(), kind: "ready", worker: process.pid })
          : printLine(
              `bitext worker ${process.pid}: serving ${engines.map((e) => e.name).join(", ")} from ${describeRedis(redis)} into ${db}`,
            ),
      onEvent: (e) => (json ? printJsonLine({ at: new Date().toISOString(), ...e }) : logEvent(e)),
      onJobError: (message, willRetry) =>
        process.stderr.write(`bitext worker: ${message}${willRetry ? " (retried by the queue)" : " (job failed)"}\n`),
      onConnectionError: (message) => {
        // Redis away: BullMQ reconnects by itself; say so once per kind of trouble, not per retry.
        if (message === lastTrouble) return;
        lastTrouble = message;
        process.stderr.write(`bitext worker: ${message} (reconnecting)\n`);
      },
    });
    if (json) printJson(summary);
    else printWorkerSummary(summary);
  } catch (err) {
    if (!(err instanceof QueueOpenAborted)) throw err;
    process.stderr.write(`bitext worker: stopped before ${describeRedis(redis)} answered\n`);
    process.exitCode = interrupt.received === "SIGTERM" ? 143 : 130;
  } finally {
    interrupt.dispose();
    await http?.close();
    await loader.close();
    await store.close();
  }
}

/** The browser (started when a page needs it), and the HTTP client when some engine may fetch without it. */
async function pageLoaders(
  flags: WorkerFlags,
  browser: ReturnType<typeof browserFlags>,
  engines: ReturnType<typeof loadConfiguredEngines>,
  fetchMode: FetchMode | null,
  timeoutMs: number,
) {
  const profileDir = browser.profileDir === undefined ? defaultProfileDir() : browser.profileDir;
  const proxies = browser.proxies && browser.proxies.length > 0 ? new ProxyPool(browser.proxies) : null;
  const loader = new LazyBrowser({
    timeoutMs,
    ...(flags.chromium ? { executablePath: flags.chromium } : {}),
    profileDir,
    acceptConsent: browser.acceptConsent,
    traceDir: browser.traceDir,
    proxies,
  });
  const needsHttp = fetchMode !== "browser" && (fetchMode !== null || engines.some((e) => e.definition.fetch !== "browser"));
  const http = needsHttp ? new HttpLoader({ timeoutMs, identity: await loader.identity(), profileDir, proxies }) : null;
  return { loader, http };
}

function printWorkerSummary(summary: QueueWorkerSummary): void {
  for (const [run, r] of Object.entries(summary.runs)) {
    const s = r.stats;
    printLine(
      `run ${run} (store run ${r.runId}, ${r.status}): ${s.fetched} pages fetched, ${s.skipped} skipped, ${s.newRecords} new records, ` +
        `${s.seenAgain} seen again, ${s.blocked} blocked, ${s.errors} errors, ${s.left} left`,
    );
  }
  printLine(
    `wrappers used (store versions): ${Object.entries(summary.wrappers)
      .map(([e, v]) => `${e} v${v}`)
      .join(", ")}`,
  );
  printLine(`bitext worker ${process.pid}: stopped after ${formatSeconds(summary.durationMs / 1000)}`);
}
