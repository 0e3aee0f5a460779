import { HARVEST_DEFAULTS } from "../config/index.js";
import { median } from "../stats.js";
import { finishRun, lastCompletedFetch, type QueryPair, type Store, startExclusiveRun } from "../store/index.js";
import { type EngineStats, type HarvestStats, type PageCounts, RunCounters, type RunOutcome } from "./counters.js";
import type { EngineSetup } from "./engine-files.js";
import type { FetchMode } from "./engines.js";
import type { HealthOptions } from "../health/index.js";
import { HealthWatch } from "./health-watch.js";
import { DEFAULT_INTERPRET, type InterpretOptions } from "./interpret.js";
import { type PageLoader, type PageResult, type PageRunContext, type RecordClassifier, runPage } from "./page-runner.js";
import { type EngineState, type HarvestEvent, PagePolicy, type PageTask } from "./page-policy.js";
import type { BreakerOptions } from "./politeness.js";
import { schedule } from "../net/index.js";
import { LocalPacer, type RequestPacer } from "./request-pacer.js";

export type { EngineStats, HarvestEvent, HarvestStats, PageCounts, RecordClassifier, RunOutcome };

/**
 * The harvest (feng2010 §3.2, §4.1): submit every query pair to every engine, page after page,
 * extract the result records with the engine's wrapper inside the loaded page, and store each fetch
 * with its records in one transaction. Resumable and idempotent: an (engine, query, page) fetched
 * successfully within `maxAgeMs` is skipped, so a rerun after a crash fetches only what is missing.
 *
 * Three parts: the scheduler (`scheduler.ts`: what runs next, within concurrency and each engine's
 * politeness), the page runner (`page-runner.ts`: one page, fetch → interpret → store) and the run's
 * counters (`counters.ts`). This file holds the policy between them: after a page, retry it, ask for
 * the next page, leave it for the next run, pause the engine or give it up.
 */

export interface HarvestOptions {
  /** The run, already started with `startExclusiveRun` (the caller took the store's lock first); absent: started here. */
  runId?: number;
  queries: readonly QueryPair[];
  engines: readonly EngineSetup[];
  /** Loads result pages (the SerpDriver). */
  driver: PageLoader & { close(): Promise<void> };
  /** The plain HTTP client for engines fetched with `http` or `auto` (absent: every engine through the browser). */
  http?: PageLoader | null;
  /** One fetch mode for every engine, overriding their definitions. */
  fetchMode?: FetchMode | null;
  /** Result pages per query (later pages only while pages come back full enough). */
  pages?: number;
  /** Page loads in flight at once, over all engines. */
  concurrency?: number;
  /** Skip an (engine, query, page) fetched successfully this recently (0: fetch everything again). */
  maxAgeMs?: number;
  /** Keep each result page's HTML (compressed) in the store. */
  keepHtml?: boolean;
  /** Retries of a page after a network error, timeout or unrecognised page. */
  retries?: number;
  /** Retries of a page after a block (each waits for the engine's breaker). */
  blockRetries?: number;
  /**
   * Consecutive network-level failures (DNS, refused, timeout, TLS, reset) after which an engine is
   * taken as down and given up for the run, its pages left for the next.
   */
  downAfter?: number;
  backoff?: { baseMs: number; maxMs: number };
  breaker?: BreakerOptions;
  /**
   * The longest the run waits with nothing to do (every engine left paused by its breaker or its Retry-After):
   * beyond it the run stops now, its pages left for the next run, rather than hold the store and a browser idle.
   */
  maxWaitMs?: number;
  interpret?: InterpretOptions;
  classifier?: RecordClassifier | null;
  /** Judge pages against their engine's health profile (issue 30); false: do not. */
  health?: HealthOptions | false;
  /** Recorded with the run (the command line's options). */
  runOptions?: unknown;
  /** Spaces the requests to each engine (default: this process's clock; a distributed harvest shares one through Redis). */
  pacer?: RequestPacer;
  signal?: AbortSignal;
  onEvent?: (event: HarvestEvent) => void;
  onProgress?: (stats: HarvestStats) => void;
}

export interface HarvestSummary extends HarvestStats {
  runId: number;
  status: RunOutcome;
  durationMs: number;
  /** Why the run stopped with pages still queued (every engine paused past the longest wait); null: it did not. */
  stoppedBecause: string | null;
  /** Per-page timings (medians, ms): in the browser (navigation), in the page (evaluation), ours (interpret + store). */
  timing: { pages: number; navigateMs: number; evaluateMs: number; bodyMs: number; oursMs: number };
}

export async function harvest(store: Store, o: HarvestOptions): Promise<HarvestSummary> {
  const started = Date.now();
  const since = new Date(Date.now() - (o.maxAgeMs ?? HARVEST_DEFAULTS.maxAgeMs)).toISOString();

  const runId = o.runId ?? startExclusiveRun(store, o.runOptions ?? {}); // refuses while another harvest runs on this store
  const run = new HarvestRun(o);
  const ctx = pageContext(store, runId, o);
  run.progress();
  try {
    await schedule<PageTask>({
      lanes: run.engines,
      concurrency: Math.max(1, o.concurrency ?? HARVEST_DEFAULTS.concurrency),
      maxIdleMs: o.maxWaitMs ?? HARVEST_DEFAULTS.maxWaitMs,
      ...(o.signal ? { signal: o.signal } : {}),
      // In-flight loads end now; their pages are fetched by the next run.
      onAbort: () => o.driver.close(),
      start: (li, task, now) => {
        const e = run.engines[li]!;
        const fresh = lastCompletedFetch(store, { engine: e.setup.name, query: task.query, page: task.page }, since);
        if (fresh) {
          run.skipped(e, task, fresh.recordCount);
          return null;
        }
        e.gate.start(now);
        return runPage(ctx, e, task, o.signal)
          .then((r) => {
            if (r === null)
              e.queue.unshift(task); // interrupted: not stored, the next run fetches it
            else run.afterPage(e, task, r);
          })
          .finally(() => e.gate.finish());
      },
    });
  } catch (err) {
    finishRun(store, runId, "failed", { ...run.counters.stats, error: String(err) });
    throw err;
  }
  const summary = run.summary(runId, o.signal?.aborted ?? false, Date.now() - started);
  finishRun(store, runId, summary.status, summary);
  return summary;
}

/** What the page runner needs of the run: the store, the loaders and the options, defaults filled in. */
function pageContext(store: Store, runId: number, o: HarvestOptions): PageRunContext {
  return {
    store,
    runId,
    harvest: `local run ${runId}`,
    loader: o.driver,
    http: o.http ?? null,
    fetchMode: o.fetchMode ?? null,
    keepHtml: o.keepHtml ?? false,
    interpret: o.interpret ?? DEFAULT_INTERPRET,
    classifier: o.classifier ?? null,
    health: o.health === false ? null : new HealthWatch(store, o.health),
    pacer: o.pacer ?? new LocalPacer(),
  };
}

/** One run's bookkeeping between pages: its counters and timings, the policy and its engines, the events. */
class HarvestRun {
  readonly counters: RunCounters;
  readonly engines: EngineState[];
  private readonly timings = new PageTimings();
  private readonly policy: PagePolicy;

  constructor(private readonly o: HarvestOptions) {
    this.counters = new RunCounters(
      o.engines.map((e) => e.name),
      o.queries.length,
    );
    this.policy = new PagePolicy(this.counters, policyOptions(o), (e) => this.emit(e));
    this.engines = o.engines.map((setup) => this.policy.engine(setup, o.queries));
  }

  private emit(e: HarvestEvent): void {
    this.o.onEvent?.(e);
  }

  progress(): void {
    this.o.onProgress?.(this.counters.stats);
  }

  /** A page fetched recently enough (by an earlier run): not fetched again, its query goes on from it. */
  skipped(e: EngineState, task: PageTask, recordCount: number): void {
    this.counters.skipped(e.setup.name);
    this.policy.nextPage(e, task, recordCount);
    this.progress();
  }

  /** A page's result: timings and counts, then what comes next for its query and engine. */
  afterPage(e: EngineState, task: PageTask, r: PageResult): void {
    const v = r.verdict;
    const counters = this.counters;
    this.timings.add(r.timings);
    counters.fetched(e.setup.name, v.status, v.cause);
    counters.records(e.setup.name, r.newRecords, r.seenAgain);
    counters.classified(r.classified);
    if (r.learned) {
      counters.relearned(e.setup.name);
      this.emit({ kind: "wrapper-learned", engine: e.setup.name, url: r.finalUrl, detail: v.detail, file: e.setup.file });
    }
    if (r.drift) this.drifted(e, r);
    this.policy.afterPage(e, task, {
      status: v.status,
      cause: v.cause,
      detail: v.detail,
      url: r.url,
      records: v.records.length,
      permanent: v.permanent ?? false,
      retryAfterMs: r.retryAfterMs,
    });
    this.progress();
  }

  /** A page outside its engine's health profile: counted, told, and after too many in a row the engine stopped. */
  private drifted(e: EngineState, r: PageResult): void {
    const d = r.drift!;
    this.counters.drift(e.setup.name);
    this.emit({ kind: "drift", engine: e.setup.name, url: r.finalUrl, detail: d.reason, action: d.action, streak: d.streak });
    if (d.action === "stopped")
      this.policy.giveUp(
        e,
        `wrapper drift: ${d.streak} pages in a row outside its health profile, none fixed by re-learning (last: ${d.reason})`,
      );
  }

  /** Why the schedule ended with pages queued: every engine left waits longer than the run waits. */
  private pausedTooLong(): string | null {
    const waiting = restingEngines(this.engines, Date.now());
    if (waiting.length === 0) return null;
    const limit = Math.round((this.o.maxWaitMs ?? HARVEST_DEFAULTS.maxWaitMs) / 1000);
    return `every engine left is paused longer than the run waits (${limit} s): ${waiting.join(", ")}`;
  }

  /** The run's summary once the schedule ended. */
  summary(runId: number, interrupted: boolean, durationMs: number): HarvestSummary {
    const stoppedBecause = interrupted ? null : this.pausedTooLong();
    // Pages never started (interrupted, or an engine that could not be asked again) are left too.
    if (!interrupted) for (const e of this.engines) if (e.queue.length > 0) this.counters.left(e.setup.name, e.queue.splice(0).length);
    return {
      ...this.counters.stats,
      runId,
      status: this.counters.outcome(interrupted),
      stoppedBecause,
      durationMs,
      timing: this.timings.medians(),
    };
  }
}

/** Resting engines with pages still queued, when their wait passed the longest the run waits: "sim-list 5 min, …". */
function restingEngines(engines: readonly EngineState[], now: number): string[] {
  return engines
    .filter((e) => e.queue.length > 0)
    .map((e) => {
      const wait = e.pausedFor?.(now) ?? 0;
      return `${e.setup.name} ${Number.isFinite(wait) ? `${Math.ceil(wait / 1000)} s` : "until a page ends"}`;
    });
}

/** What the policy does after a page: the options' values, defaults filled in. */
function policyOptions(o: HarvestOptions): ConstructorParameters<typeof PagePolicy>[1] {
  return {
    pages: Math.max(1, o.pages ?? HARVEST_DEFAULTS.pages),
    retries: o.retries ?? HARVEST_DEFAULTS.retries,
    blockRetries: o.blockRetries ?? HARVEST_DEFAULTS.blockRetries,
    downAfter: Math.max(1, o.downAfter ?? HARVEST_DEFAULTS.downAfter),
    backoff: o.backoff ?? HARVEST_DEFAULTS.backoff,
    ...(o.breaker ? { breaker: o.breaker } : {}),
  };
}

/** Where pages' time went, for the summary's medians. */
class PageTimings {
  private readonly navigate: number[] = [];
  private readonly evaluate: number[] = [];
  private readonly body: number[] = [];
  private readonly ours: number[] = [];

  add(t: PageResult["timings"]): void {
    this.navigate.push(t.navigateMs);
    this.evaluate.push(t.evaluateMs);
    this.body.push(t.bodyMs);
    this.ours.push(t.oursMs);
  }

  medians(): HarvestSummary["timing"] {
    return {
      pages: this.navigate.length,
      navigateMs: medianMs(this.navigate),
      evaluateMs: medianMs(this.evaluate),
      bodyMs: medianMs(this.body),
      oursMs: medianMs(this.ours),
    };
  }
}

/** A summary's median: to a tenth of a millisecond, 0 when no page was timed. */
function medianMs(xs: number[]): number {
  return xs.length === 0 ? 0 : Math.round(median(xs) * 10) / 10;
}
