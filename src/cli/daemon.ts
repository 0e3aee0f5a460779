import { Cron } from "croner";
import { type Command, Option } from "commander";
import { type ScheduledRun, Scheduler, type SchedulerEvent, readScheduleConfig, scheduleFromValue } from "../serp/schedule.js";
import { runHarvest } from "../serp/run.js";
import { activeRuns, openStore } from "../store/index.js";
import { displayPath, loadSettings, storePath } from "../config/index.js";
import { browserFlags, EXIT_INCOMPLETE, logEvent } from "./harvest.js";
import { printJsonLine, printLine } from "./output.js";
import { formatSeconds } from "./progress.js";

interface DaemonFlags {
  config?: string;
  once?: boolean;
  dryRun?: boolean;
  chromium?: string;
  profile: string | boolean;
  acceptConsent?: boolean;
  trace?: string;
  proxy?: string[];
  proxies?: string;
  json?: boolean;
}

export function registerDaemonCommand(program: Command): void {
  program
    .command("daemon")
    .option("--config <file>", "schedule config (JSON: runs with cron, queries, engines, …; default: the config file's schedule, else bitext.schedule.json)")
    .option("--once", "run every configured run once, now, and exit (1 if a run failed, 75 if pages were left for the next run)")
    .option("--dry-run", "check the config and print each run's next times, then exit")
    .addOption(new Option("--chromium <path>", "Chromium executable").env("BITEXT_CHROMIUM"))
    .option("--profile <dir>", "per-engine browser profiles, cookies kept between runs (default: the user data folder's profiles/)")
    .option("--no-profile", "keep no cookies between runs")
    .option("--accept-consent", "accept cookie-consent interstitials through the page's own button")
    .option("--trace <dir>", "write a Playwright trace of every failed page into DIR")
    .option("--proxy <url>", "proxy (http, https or socks5); repeat for several", (v: string, p: string[]) => [...p, v], [])
    .option("--proxies <file>", "proxy list file, one URL a line")
    .option("--json", "log events as JSON lines")
    .addHelpText(
      "after",
      `
Config example (paths relative to the config file):
  { "db": "data/bitext.db",
    "runs": [ { "name": "tatoeba-nightly", "cron": "0 3 * * *", "timezone": "Asia/Shanghai",
                "queries": ["queries/tatoeba-cmn-eng.tsv"], "engines": ["bing", "baidu"],
                "pages": 2, "maxAge": "20h" } ] }`,
    )
    .action(async (flags: DaemonFlags) => {
      // --config, else the `schedule` of the config file (bitext.config.json: one schema for both), else bitext.schedule.json.
      const settings = loadSettings();
      const inline = flags.config === undefined && settings.config.schedule && settings.home.config;
      const config = inline
        ? scheduleFromValue(settings.config.schedule, inline, `${displayPath(inline)}: schedule`)
        : readScheduleConfig(flags.config ?? "bitext.schedule.json");
      const browser = browserFlags(flags);
      const db = config.db ?? storePath();
      let incomplete = false;
      let failed = false;
      const log = (e: SchedulerEvent) => {
        if (e.kind === "failed") failed = true;
        logSchedulerEvent(e, flags.json ?? false);
      };
      if (flags.dryRun) {
        for (const run of config.runs) {
          const next = new Cron(run.cron, { paused: true, ...(run.timezone ? { timezone: run.timezone } : {}) }).nextRuns(3);
          if (flags.json) printJsonLine({ run: run.name, cron: run.cron, next });
          else printLine(`${run.name}  ${run.cron}${run.timezone ? ` (${run.timezone})` : ""}  next: ${next.map((d) => d.toISOString()).join(", ")}`);
        }
        return;
      }
      const execute = (run: ScheduledRun, signal: AbortSignal) =>
        runHarvest({
          queryFiles: run.queries,
          engines: run.engines,
          db,
          ...(config.wrappers ? { wrappersDir: config.wrappers } : {}),
          pages: run.pages,
          concurrency: run.concurrency,
          maxAgeMs: run.maxAgeMs,
          keepHtml: run.keepHtml,
          retries: run.retries,
          timeoutMs: run.timeoutMs,
          model: run.model,
          ...((flags.chromium ?? config.chromium) ? { chromium: (flags.chromium ?? config.chromium)! } : {}),
          ...browser,
          signal,
          runOptions: { schedule: config.file, run: run.name },
          onEvent: (e) => (flags.json ? printJsonLine({ at: new Date().toISOString(), run: run.name, ...e }) : logEvent(e)),
        }).then((r) => {
          if (r.left > 0) incomplete = true;
          return { runId: r.runId, status: r.status, fetched: r.fetched, skipped: r.skipped, newRecords: r.newRecords, blocked: r.blocked, errors: r.errors, left: r.left };
        });
      const scheduler = new Scheduler(config.runs, {
        execute,
        busyElsewhere: () => {
          const store = openStore(db);
          try {
            const other = activeRuns(store).find((r) => r.pid !== process.pid);
            return other ? `harvest run ${other.id} (pid ${other.pid}) is in progress on ${db}` : null;
          } finally {
            store.close();
          }
        },
        onEvent: log,
      });
      let signalled: NodeJS.Signals | null = null;
      const finished = new Promise<void>((resolve) => {
        const onSignal = (sig: NodeJS.Signals) => {
          if (signalled) process.exit(sig === "SIGINT" ? 130 : 143);
          signalled = sig;
          log({ kind: "waiting", run: scheduler.running ?? "-", reason: `${sig}: stopping (the run in progress ends at its next page)` });
          void scheduler.stop().then(resolve);
        };
        process.on("SIGINT", onSignal);
        process.on("SIGTERM", onSignal);
        if (flags.once) void scheduler.runAllOnce().then(resolve);
      });
      if (!flags.once) scheduler.start();
      await finished;
      if (signalled === "SIGINT") process.exitCode = 130;
      // With --once, the exit status tells cron / systemd how it went (as bitext harvest's does).
      else if (flags.once && failed) process.exitCode = 1;
      else if (flags.once && incomplete) process.exitCode = EXIT_INCOMPLETE;
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
