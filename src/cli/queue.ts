import { basename, extname } from "node:path";
import { type Command, Option } from "commander";
import { UserError } from "../errors.js";
import { checkQueryLengths, readQueryFiles } from "../serp/index.js";
import type { ScheduledRun } from "../serp/index.js";
import { HARVEST_DEFAULTS } from "../config/index.js";
import { loadConfiguredEngines, resolveQueryFile } from "../serp/index.js";
import { type EnqueueResult, describeRedis, enqueueHarvest, parseRedisUrl, queueStatus, type RunSettings } from "../queue/index.js";
import type { LanguagePair } from "../text/index.js";
import { formatTable, printJson, printLine } from "./output.js";

/** The harvest's block retries, give-up count and back-off base, as every enqueued run carries them. */
const QUEUE_RETRY_POLICY = {
  blockRetries: HARVEST_DEFAULTS.blockRetries,
  downAfter: HARVEST_DEFAULTS.downAfter,
  backoffMs: HARVEST_DEFAULTS.backoff.baseMs,
} as const;

export function registerQueueCommands(program: Command): void {
  const queue = program.command("queue");
  queue
    .command("status")
    .description("page jobs waiting, active, done and failed, per engine and per run")
    .addOption(new Option("--queue <url>", "the Redis of the queue (redis://host:port)").env("BITEXT_QUEUE").makeOptionMandatory())
    .option("--json", "print the counts as JSON (the default when stdout is not a terminal)")
    .action(async (flags: { queue: string; json?: boolean }) => {
      const redis = parseRedisUrl(flags.queue);
      const s = await queueStatus(redis);
      if (flags.json ?? !process.stdout.isTTY) {
        printJson(s);
        return;
      }
      if (s.engines.length === 0) {
        printLine(`${describeRedis(redis)}: no harvest queue yet (bitext harvest QUERIES --queue ${describeRedis(redis)} makes them)`);
        return;
      }
      const head = ["waiting", "active", "done", "failed"];
      printLine(formatTable([["engine", ...head], ...s.engines.map((e) => [e.engine, e.waiting, e.active, e.done, e.failed])]));
      printLine("");
      printLine(formatTable([["run", "engine", ...head], ...s.runs.map((r) => [r.run, r.engine, r.waiting, r.active, r.done, r.failed])]));
    });
}

/** The part of `bitext harvest`'s flags an enqueue uses. */
export interface EnqueueFlags {
  queue: string;
  run?: string;
  engines: string;
  wrappers?: string;
  pages: number;
  maxAgeMs: number;
  keepHtml: boolean;
  retries: number;
  /** The languages of the lists' columns (a list's own `# languages:` header wins): every job carries its query's. */
  pair: LanguagePair;
}

/**
 * `bitext harvest QUERIES --queue URL`: the pages as jobs for `bitext worker`s. The run is named by
 * `--run`, else by the query lists and the day (UTC): enqueuing the same lists again the same day adds
 * nothing, the next day makes a new run (as --max-age 24h would fetch again).
 */
export async function enqueueFromHarvest(files: readonly string[], f: EnqueueFlags): Promise<EnqueueResult> {
  if (files.length === 0) throw new UserError("harvest: give at least one query list (QUERIES.tsv)");
  const redis = parseRedisUrl(f.queue);
  const queries = readQueryFiles(files.map(resolveQueryFile), f.pair);
  if (queries.length === 0) throw new UserError(`${files.join(", ")}: no queries (only comments or blank lines)`);
  const engines = loadConfiguredEngines(
    f.engines
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean),
    f.wrappers,
  );
  if (engines.length === 0) throw new UserError("--engines: give at least one engine");
  checkQueryLengths(queries, engines);
  const settings: RunSettings = {
    run: f.run ?? defaultRunName(files),
    pages: f.pages,
    maxAgeMs: f.maxAgeMs,
    keepHtml: f.keepHtml,
    retries: f.retries,
    ...QUEUE_RETRY_POLICY,
  };
  return enqueueHarvest(redis, settings, engines, queries);
}

/**
 * One tick of a daemon's scheduled run, enqueued as the queue run `runName` (see `runQueueSchedules`); its lists'
 * columns in the run's `pair`, else in `pair` (the daemon's).
 */
export async function enqueueScheduledRun(
  queue: string,
  run: ScheduledRun,
  runName: string,
  defaults: { wrappersDir: string | null; pair: LanguagePair },
): Promise<EnqueueResult> {
  const settings: RunSettings = {
    run: runName,
    pages: run.pages,
    maxAgeMs: run.maxAgeMs,
    keepHtml: run.keepHtml,
    retries: run.retries,
    ...QUEUE_RETRY_POLICY,
  };
  return enqueueHarvest(
    parseRedisUrl(queue),
    settings,
    loadConfiguredEngines(run.engines, defaults.wrappersDir ?? undefined),
    readQueryFiles(run.queries.map(resolveQueryFile), run.pair ?? defaults.pair),
  );
}

export function defaultRunName(files: readonly string[], now = new Date()): string {
  return `${files.map((f) => basename(f, extname(f))).join("+")}@${now.toISOString().slice(0, 10)}`;
}

export function formatEnqueued(r: EnqueueResult, queue: string): string {
  return (
    `run ${r.run}: ${r.added} page jobs added (${r.offered - r.added} already queued or done) for ${r.queries} queries × ${r.engines.join(", ")} ` +
    `on ${describeRedis(parseRedisUrl(queue))}; start workers with: bitext worker --queue ${describeRedis(parseRedisUrl(queue))} --engines ${r.engines.join(",")}`
  );
}
