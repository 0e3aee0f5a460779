import { finishRun, lastCompletedFetch, type QueryPair, type Store, startExclusiveRun } from "../store/index.js";
import { type EngineStats, type HarvestStats, type PageCounts, RunCounters, type RunOutcome } from "./counters.js";
import type { EngineSetup } from "./engine-files.js";
import type { FetchMode } from "./engines.js";
import { DEFAULT_INTERPRET, type InterpretOptions } from "./interpret.js";
import { type PageLoader, type PageResult, type RecordClassifier, runPage } from "./page-runner.js";
import { type EngineState, type HarvestEvent, PagePolicy, type PageTask } from "./page-policy.js";
import type { BreakerOptions } from "./politeness.js";
import { schedule } from "../net/index.js";

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
  interpret?: InterpretOptions;
  classifier?: RecordClassifier | null;
  /** Recorded with the run (the command line's options). */
  runOptions?: unknown;
  signal?: AbortSignal;
  onEvent?: (event: HarvestEvent) => void;
  onProgress?: (stats: HarvestStats) => void;
}

export interface HarvestSummary extends HarvestStats {
  runId: number;
  status: RunOutcome;
  durationMs: number;
  /** Per-page timings (medians, ms): in the browser (navigation), in the page (evaluation), ours (interpret + store). */
  timing: { pages: number; navigateMs: number; evaluateMs: number; bodyMs: number; oursMs: number };
}

export async function harvest(store: Store, o: HarvestOptions): Promise<HarvestSummary> {
  const started = Date.now();
  const since = new Date(Date.now() - (o.maxAgeMs ?? 24 * 3600_000)).toISOString();

  const runId = startExclusiveRun(store, o.runOptions ?? {}); // refuses while another harvest runs on this store
  const counters = new RunCounters(
    o.engines.map((e) => e.name),
    o.queries.length,
  );
  const stats = counters.stats;
  const timings = new PageTimings();
  const emit = (e: HarvestEvent) => o.onEvent?.(e);
  const progress = () => o.onProgress?.(stats);
  const policy = new PagePolicy(counters, policyOptions(o), emit);
  const engines = o.engines.map((setup) => policy.engine(setup, o.queries));
  const ctx = {
    store,
    runId,
    loader: o.driver,
    http: o.http ?? null,
    fetchMode: o.fetchMode ?? null,
    keepHtml: o.keepHtml ?? false,
    interpret: o.interpret ?? DEFAULT_INTERPRET,
    classifier: o.classifier ?? null,
  };
  /** A page's result: timings and counts, then what comes next for its query and engine. */
  const afterPage = (e: EngineState, task: PageTask, r: PageResult) => {
    const v = r.verdict;
    timings.add(r.timings);
    counters.fetched(e.setup.name, v.status, v.cause);
    counters.records(e.setup.name, r.newRecords, r.seenAgain);
    counters.classified(r.classified);
    if (r.learned) {
      counters.relearned(e.setup.name);
      emit({ kind: "wrapper-learned", engine: e.setup.name, url: r.finalUrl, detail: v.detail, file: e.setup.file });
    }
    policy.afterPage(e, task, { status: v.status, cause: v.cause, detail: v.detail, url: r.url, records: v.records.length });
    progress();
  };

  progress();
  try {
    await schedule<PageTask>({
      lanes: engines,
      concurrency: Math.max(1, o.concurrency ?? 2),
      ...(o.signal ? { signal: o.signal } : {}),
      // In-flight loads end now; their pages are fetched by the next run.
      onAbort: () => o.driver.close(),
      start: (li, task, now) => {
        const e = engines[li]!;
        const fresh = lastCompletedFetch(store, { engine: e.setup.name, query: task.query, page: task.page }, since);
        if (fresh) {
          counters.skipped(e.setup.name);
          policy.nextPage(e, task, fresh.recordCount);
          progress();
          return null;
        }
        e.gate.start(now);
        return runPage(ctx, e, task, o.signal)
          .then((r) => {
            if (r === null) e.queue.unshift(task); // interrupted: not stored, the next run fetches it
            else afterPage(e, task, r);
          })
          .finally(() => e.gate.finish());
      },
    });
  } catch (err) {
    finishRun(store, runId, "failed", { ...stats, error: String(err) });
    throw err;
  }
  const interrupted = o.signal?.aborted ?? false;
  // Pages never started (interrupted, or an engine that could not be asked again) are left too.
  if (!interrupted) for (const e of engines) if (e.queue.length > 0) counters.left(e.setup.name, e.queue.splice(0).length);
  const summary: HarvestSummary = {
    ...stats,
    runId,
    status: counters.outcome(interrupted),
    durationMs: Date.now() - started,
    timing: timings.medians(),
  };
  finishRun(store, runId, summary.status, summary);
  return summary;
}

/** What the policy does after a page: the options' values, defaults filled in. */
function policyOptions(o: HarvestOptions): ConstructorParameters<typeof PagePolicy>[1] {
  return {
    pages: Math.max(1, o.pages ?? 1),
    retries: o.retries ?? 2,
    blockRetries: o.blockRetries ?? 2,
    downAfter: Math.max(1, o.downAfter ?? 3),
    backoff: o.backoff ?? { baseMs: 2000, maxMs: 60_000 },
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
      navigateMs: median(this.navigate),
      evaluateMs: median(this.evaluate),
      bodyMs: median(this.body),
      oursMs: median(this.ours),
    };
  }
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round((s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) * 10) / 10;
}
