import { existsSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { Cron } from "croner";
import { scheduleSchema } from "../config/index.js";
import { resolveResource } from "../config/index.js";
import { UserError } from "../errors.js";
import { type LanguagePair, parseLanguagePair } from "../text/index.js";
import { isPostgresUrl } from "../store/index.js";
import { readJsonFile, validated } from "../io/index.js";
import { parseDuration } from "../duration.js";
import { sleep } from "../sleep.js";

/**
 * Recurring harvests (`bitext daemon`): a JSON config lists runs, each a cron expression with the
 * query lists and engines to harvest. The scheduler never overlaps runs: a run that comes due while
 * another is in progress waits for it (at most once in the queue).
 */

// One schema for the daemon's schedule and the config file's `schedule` key (src/config/schema.ts).
const configSchema = scheduleSchema;

export interface ScheduledRun {
  name: string;
  cron: string;
  timezone: string | null;
  /** Absolute paths. */
  queries: string[];
  engines: string[];
  pages: number;
  concurrency: number;
  maxAgeMs: number;
  keepHtml: boolean;
  retries: number;
  timeoutMs: number;
  model: string | null | undefined;
  /** The languages of the query lists' columns; null: the daemon's (its --pair, else the config file's). */
  pair: LanguagePair | null;
}

export interface ScheduleConfig {
  file: string;
  db: string | null;
  wrappers: string | null;
  chromium: string | null;
  runs: ScheduledRun[];
}

/** Read and check a schedule config; paths in it are relative to the config file. */
export function readScheduleConfig(file: string): ScheduleConfig {
  return scheduleFromValue(readJsonFile(file, "schedule config"), file);
}

/**
 * A schedule from its parsed content: a schedule file's, or the `schedule` key of the config file
 * (`where` names it in errors, e.g. `bitext.config.json: schedule`); paths are relative to `file`'s folder.
 */
export function scheduleFromValue(value: unknown, file: string, where = file): ScheduleConfig {
  const config = validated(configSchema, value, where);
  const base = dirname(file);
  const rel = (p: string) => (isAbsolute(p) ? p : join(base, p));
  const names = new Set<string>();
  const runs = config.runs.map((r, i): ScheduledRun => {
    const at = `${where}: runs.${i}`;
    if (names.has(r.name)) throw new UserError(`${at}.name: "${r.name}" is used twice`);
    names.add(r.name);
    try {
      new Cron(r.cron, { paused: true, ...(r.timezone ? { timezone: r.timezone } : {}) }).stop();
    } catch (err) {
      throw new UserError(`${at}.cron: ${(err as Error).message}`);
    }
    // A query list beside the config, else a shipped (or the user's) list of that name: `queries/demo.tsv` from any folder.
    const queryFile = (q: string) => (existsSync(rel(q)) ? rel(q) : (knownQueryList(q) ?? rel(q)));
    for (const q of r.queries) if (!existsSync(queryFile(q))) throw new UserError(`${at}.queries: no such file ${rel(q)}`);
    return {
      name: r.name,
      cron: r.cron,
      timezone: r.timezone ?? null,
      queries: r.queries.map(queryFile),
      engines: r.engines,
      pages: r.pages,
      concurrency: r.concurrency,
      maxAgeMs: parseDuration(r.maxAge, `${at}.maxAge`),
      keepHtml: r.keepHtml,
      retries: r.retries,
      timeoutMs: r.timeoutSeconds * 1000,
      model: r.model === undefined ? undefined : r.model === null ? null : rel(r.model),
      pair: r.pair === undefined ? null : runPair(r.pair, `${at}.pair`),
    };
  });
  return {
    file,
    db: config.db ? (isPostgresUrl(config.db) ? config.db : rel(config.db)) : null,
    wrappers: config.wrappers ? rel(config.wrappers) : null,
    chromium: config.chromium ?? null,
    runs,
  };
}

/** A run's `pair`, checked as `--pair` is (a code no script is known for is refused here, not at its first tick). */
function runPair(text: string, at: string): LanguagePair {
  try {
    return parseLanguagePair(text);
  } catch (err) {
    throw new UserError(`${at}: ${(err as Error).message}`);
  }
}

export type SchedulerEvent =
  | { kind: "scheduled"; run: string; next: Date | null }
  | { kind: "queued"; run: string; behind: string }
  | { kind: "waiting"; run: string; reason: string }
  | { kind: "started"; run: string }
  | { kind: "finished"; run: string; ms: number; outcome: unknown }
  | { kind: "failed"; run: string; ms: number; error: string };

export interface SchedulerOptions {
  /** Runs one harvest; resolves when it is over. */
  execute: (run: ScheduledRun, signal: AbortSignal) => Promise<unknown>;
  /** Is a run going on elsewhere (another process on the same store)? Returns a reason to wait, or null. */
  busyElsewhere?: () => string | null | Promise<string | null>;
  /** How often to look again when busy elsewhere. */
  pollMs?: number;
  onEvent?: (e: SchedulerEvent) => void;
}

/** Fires runs on their cron schedule, one at a time. */
export class Scheduler {
  private readonly jobs: Cron[] = [];
  private readonly queue: ScheduledRun[] = [];
  private current: { run: ScheduledRun; done: Promise<void> } | null = null;
  private readonly controller = new AbortController();
  private pollTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Asking `busyElsewhere` (asynchronously). */
  private checking = false;
  /** The store being asked whether the next run may start (settles once it has started or been told to wait). */
  private check: Promise<void> | null = null;

  constructor(
    private readonly runs: readonly ScheduledRun[],
    private readonly o: SchedulerOptions,
  ) {}

  start(): void {
    for (const run of this.runs) {
      const job = new Cron(run.cron, { ...(run.timezone ? { timezone: run.timezone } : {}) }, () => this.due(run));
      this.jobs.push(job);
      this.o.onEvent?.({ kind: "scheduled", run: run.name, next: job.nextRun() });
    }
  }

  /** Run every configured run once, now, in order (for `--once`). */
  async runAllOnce(): Promise<void> {
    for (const run of this.runs) this.due(run);
    // A run in progress, or the store being asked whether the next may start: wait for it, not for a poll.
    while (this.current || this.queue.length > 0) await (this.current?.done ?? this.check ?? sleep(this.o.pollMs ?? 60_000));
  }

  /** Stop scheduling, abort the run in progress and wait for it to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const j of this.jobs) j.stop();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.queue.length = 0;
    this.controller.abort();
    await this.current?.done;
  }

  get running(): string | null {
    return this.current?.run.name ?? null;
  }

  private due(run: ScheduledRun): void {
    if (this.stopped) return;
    if (this.current || this.queue.length > 0) {
      if (this.current?.run !== run && !this.queue.includes(run)) {
        this.queue.push(run);
        this.o.onEvent?.({ kind: "queued", run: run.name, behind: this.current?.run.name ?? this.queue[0]!.name });
      }
      return;
    }
    this.queue.push(run);
    this.next();
  }

  private next(): void {
    if (this.stopped || this.current || this.checking || this.queue.length === 0) return;
    const busy = this.o.busyElsewhere?.() ?? null;
    if (typeof busy === "string" || busy === null) {
      this.startNext(busy);
      return;
    }
    // Asked of the store: nothing starts until the answer is in (a failure to ask is a reason to wait).
    this.checking = true;
    this.check = busy
      .catch((err: unknown) => `cannot tell whether a run is in progress elsewhere (${err instanceof Error ? err.message : String(err)})`)
      .then((reason) => {
        this.checking = false;
        this.check = null;
        if (!this.stopped && !this.current && this.queue.length > 0) this.startNext(reason);
      });
  }

  /** Start the next queued run, or wait `pollMs` and ask again while `busy` gives a reason. */
  private startNext(busy: string | null): void {
    if (busy) {
      this.o.onEvent?.({ kind: "waiting", run: this.queue[0]!.name, reason: busy });
      this.pollTimer = setTimeout(() => {
        this.pollTimer = null;
        this.next();
      }, this.o.pollMs ?? 60_000);
      return;
    }
    const run = this.queue.shift()!;
    const started = Date.now();
    this.o.onEvent?.({ kind: "started", run: run.name });
    const done = this.o
      .execute(run, this.controller.signal)
      .then(
        (outcome) => this.o.onEvent?.({ kind: "finished", run: run.name, ms: Date.now() - started, outcome }),
        (err: unknown) =>
          this.o.onEvent?.({
            kind: "failed",
            run: run.name,
            ms: Date.now() - started,
            error: err instanceof Error ? err.message : String(err),
          }),
      )
      .finally(() => {
        this.current = null;
        this.next();
      });
    this.current = { run, done };
  }
}

/** `queries/NAME.tsv` as the user's or the shipped list of that name, if there is one. */
function knownQueryList(path: string): string | null {
  const m = /^queries[\\/]([^\\/]+)$/.exec(path);
  const file = m ? resolveResource("queries", m[1]!) : null;
  return file && existsSync(file) ? file : null;
}
