import { Cron } from "croner";
import { type Command, Option } from "commander";
import { withBrowserOptions } from "./browser-options.js";
import { type ScheduledRun, Scheduler, type SchedulerEvent, readScheduleConfig, scheduleFromValue } from "../serp/index.js";
import { runHarvest } from "../serp/index.js";
import { activeRuns, withStore } from "../store/index.js";
import { displayPath, loadSettings, storePath } from "../config/index.js";
import { type BrowserFlags, browserFlags, EXIT_INCOMPLETE, logEvent } from "./harvest.js";
import { printJsonLine, printLine } from "./output.js";
import { formatSeconds } from "./progress.js";
import { pairOption, resolvePair } from "./shared-options.js";
import { type Interrupt, stopOnInterrupt } from "./signals.js";
import type { LanguagePair } from "../text/index.js";

interface DaemonFlags extends BrowserFlags {
  config?: string;
  once?: boolean;
  dryRun?: boolean;
  queue?: string;
  pair?: LanguagePair;
  json?: boolean;
}

export function registerDaemonCommand(program: Command): void {
  withBrowserOptions(
    program
      .command("daemon")
      .option(
        "--config <file>",
        "schedule config (JSON: runs with cron, queries, engines, …; default: the config file's schedule, else bitext.schedule.json)",
      )
      .option("--once", "run every configured run once, now, and exit (1 if a run failed, 75 if pages were left for the next run)")
      .option("--dry-run", "check the config and print each run's next times, then exit"),
  )
    .addOption(
      new Option(
        "--queue <url>",
        "enqueue each run's pages on this Redis (redis://host:port) for bitext workers; the schedules live in Redis, so one enqueue per tick however many daemons run",
      ).env("BITEXT_QUEUE"),
    )
    .option(...pairOption())
    .option("--json", "log events as JSON lines")
    .addHelpText(
      "after",
      `
Config example (paths relative to the config file):
  { "db": "data/bitext.db",
    "runs": [ { "name": "tatoeba-nightly", "cron": "0 3 * * *", "timezone": "Asia/Shanghai",
                "queries": ["queries/tatoeba-cmn-eng.tsv"], "engines": ["bing", "baidu"],
                "pages": 2, "maxAge": "20h" } ] }
A run's "pair" (e.g. "en-ja") names its lists' languages; without one, --pair's (a list's own
"# languages:" header wins).`,
    )
    .action(runDaemon);
}

type ScheduleConfig = ReturnType<typeof readScheduleConfig>;

/** How the runs went, for --once's exit status; and the log of the scheduler's events. */
interface DaemonOutcome {
  failed: boolean;
  incomplete: boolean;
  log: (e: SchedulerEvent) => void;
}

async function runDaemon(flags: DaemonFlags): Promise<void> {
  // --config, else the `schedule` of the config file (bitext.config.json: one schema for both), else bitext.schedule.json.
  const settings = loadSettings();
  const inline = flags.config === undefined && settings.config.schedule && settings.home.config;
  const config = inline
    ? scheduleFromValue(settings.config.schedule, inline, `${displayPath(inline)}: schedule`)
    : readScheduleConfig(flags.config ?? "bitext.schedule.json");
  const browser = browserFlags(flags);
  const db = config.db ?? storePath();
  const outcome: DaemonOutcome = {
    failed: false,
    incomplete: false,
    log: (e) => {
      if (e.kind === "failed") outcome.failed = true;
      logSchedulerEvent(e, flags.json ?? false);
    },
  };
  if (flags.dryRun) printNextRuns(config, flags.json ?? false);
  else if (flags.queue) await runQueueMode(flags.queue, flags, config, outcome);
  else await runLocally(flags, config, { browser, db }, outcome);
}

function printNextRuns(config: ScheduleConfig, json: boolean): void {
  for (const run of config.runs) {
    const next = new Cron(run.cron, { paused: true, ...(run.timezone ? { timezone: run.timezone } : {}) }).nextRuns(3);
    if (json) printJsonLine({ run: run.name, cron: run.cron, next });
    else
      printLine(
        `${run.name}  ${run.cron}${run.timezone ? ` (${run.timezone})` : ""}  next: ${next.map((d) => d.toISOString()).join(", ")}`,
      );
  }
}

/** Queue mode: the cron runs are BullMQ job schedulers; the pages go to the workers. */
async function runQueueMode(queue: string, flags: DaemonFlags, config: ScheduleConfig, outcome: DaemonOutcome): Promise<void> {
  const { parseRedisUrl, runQueueSchedules } = await import("../queue/index.js");
  const { enqueueScheduledRun } = await import("./queue.js");
  const pair = resolvePair(flags.pair);
  const interrupt = stopOnInterrupt("stopping the schedules");
  await runQueueSchedules({
    redis: parseRedisUrl(queue),
    runs: config.runs,
    once: flags.once ?? false,
    signal: interrupt.signal,
    enqueue: (run, runName) => enqueueScheduledRun(queue, run, runName, { wrappersDir: config.wrappers, pair }),
    onEvent: outcome.log,
  }).finally(() => interrupt.dispose());
  if (flags.once && outcome.failed) process.exitCode = 1;
}

/** The runs harvested in this process, one at a time, none while another process harvests into the store. */
async function runLocally(
  flags: DaemonFlags,
  config: ScheduleConfig,
  { browser, db }: { browser: ReturnType<typeof browserFlags>; db: string },
  outcome: DaemonOutcome,
): Promise<void> {
  const scheduler = new Scheduler(config.runs, {
    execute: (run, signal) => harvestScheduledRun(run, signal, { flags, config, browser, db, outcome }),
    busyElsewhere: () =>
      withStore(db, async (store) => {
        const other = (await activeRuns(store)).find((r) => r.pid !== process.pid);
        return other ? `harvest run ${other.id} (pid ${other.pid}) is in progress on ${db}` : null;
      }),
    onEvent: outcome.log,
  });
  let interrupt: Interrupt | undefined;
  const finished = new Promise<void>((resolve) => {
    interrupt = stopOnInterrupt((sig) => {
      outcome.log({
        kind: "waiting",
        run: scheduler.running ?? "-",
        reason: `${sig}: stopping (the run in progress ends at its next page)`,
      });
      void scheduler.stop().then(resolve);
    });
    if (flags.once) void scheduler.runAllOnce().then(resolve);
  });
  if (!flags.once) scheduler.start();
  await finished;
  interrupt?.dispose();
  if (interrupt?.received === "SIGINT") process.exitCode = 130;
  // With --once, the exit status tells cron / systemd how it went (as bitext harvest's does).
  else if (flags.once && outcome.failed) process.exitCode = 1;
  else if (flags.once && outcome.incomplete) process.exitCode = EXIT_INCOMPLETE;
}

function harvestScheduledRun(
  run: ScheduledRun,
  signal: AbortSignal,
  d: { flags: DaemonFlags; config: ScheduleConfig; browser: ReturnType<typeof browserFlags>; db: string; outcome: DaemonOutcome },
) {
  const { flags, config } = d;
  return runHarvest({
    queryFiles: run.queries,
    pair: run.pair ?? resolvePair(flags.pair),
    engines: run.engines,
    db: d.db,
    ...(config.wrappers ? { wrappersDir: config.wrappers } : {}),
    pages: run.pages,
    concurrency: run.concurrency,
    maxAgeMs: run.maxAgeMs,
    keepHtml: run.keepHtml,
    retries: run.retries,
    timeoutMs: run.timeoutMs,
    model: run.model,
    ...((flags.chromium ?? config.chromium) ? { chromium: (flags.chromium ?? config.chromium)! } : {}),
    ...d.browser,
    signal,
    runOptions: { schedule: config.file, run: run.name },
    onEvent: (e) => (flags.json ? printJsonLine({ at: new Date().toISOString(), run: run.name, ...e }) : logEvent(e)),
  }).then((r) => {
    if (r.left > 0) d.outcome.incomplete = true;
    return {
      runId: r.runId,
      status: r.status,
      fetched: r.fetched,
      skipped: r.skipped,
      newRecords: r.newRecords,
      blocked: r.blocked,
      errors: r.errors,
      left: r.left,
    };
  });
}

function logSchedulerEvent(e: SchedulerEvent, json: boolean): void {
  if (json) {
    printJsonLine({ at: new Date().toISOString(), ...e });
    return;
  }
  const at = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  let text: string;
  switch (e.kind) {
    case "scheduled":
      text = `${e.run}: scheduled, next at ${e.next?.toISOString() ?? "never"}`;
      break;
    case "queued":
      text = `${e.run}: due, waiting for ${e.behind} to finish`;
      break;
    case "waiting":
      text = `${e.run}: waiting: ${e.reason}`;
      break;
    case "started":
      text = `${e.run}: started`;
      break;
    case "finished":
      text = `${e.run}: finished in ${formatSeconds(e.ms / 1000)}: ${JSON.stringify(e.outcome)}`;
      break;
    case "failed":
      text = `${e.run}: failed after ${formatSeconds(e.ms / 1000)}: ${e.error}`;
      break;
  }
  printLine(`${at} ${text}`);
}
