import { lastCompletedFetch, markCrashedRuns, type QueryPair, type Store, finishRun, startRun } from "../store/index.js";
import { type EngineStats, type HarvestStats, type PageCounts, RunCounters, type RunOutcome } from "./counters.js";
import type { EngineSetup } from "./engine-files.js";
import { type FetchMode, supportsPaging } from "./engines.js";
import { type FailureKind, isNetworkLevel } from "./failures.js";
import { DEFAULT_INTERPRET, type InterpretOptions } from "./interpret.js";
import { type EngineWrappers, type PageLoader, type PageResult, type RecordClassifier, runPage } from "./page-runner.js";
import { type BreakerOptions, backoffMs, CircuitBreaker, DEFAULT_BREAKER, EngineGate } from "./politeness.js";
import { type Lane, schedule } from "./scheduler.js";

export type { EngineStats, HarvestStats, PageCounts, RecordClassifier, RunOutcome };

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

export type HarvestEvent =
  | { kind: "wrapper-learned"; engine: string; url: string; detail: string; file: string }
  | { kind: "blocked"; engine: string; url: string; detail: string; cause: FailureKind }
  | { kind: "engine-paused"; engine: string; seconds: number; trip: number }
  | { kind: "engine-given-up"; engine: string; left: number; reason: string }
  | { kind: "error"; engine: string; url: string; detail: string; cause: FailureKind; willRetry: boolean };

export interface HarvestSummary extends HarvestStats {
  runId: number;
  status: RunOutcome;
  durationMs: number;
  /** Per-page timings (medians, ms): in the browser (navigation), in the page (evaluation), ours (interpret + store). */
  timing: { pages: number; navigateMs: number; evaluateMs: number; bodyMs: number; oursMs: number };
}

interface PageTask {
  query: QueryPair;
  page: number;
  errors: number;
  blocks: number;
  notBefore: number;
}

interface EngineState extends EngineWrappers, Lane<PageTask> {
  gate: EngineGate;
  breaker: CircuitBreaker;
  maxPages: number;
  /** Network-level failures in a row (reset by any answer from the engine). */
  downStreak: number;
}

export async function harvest(store: Store, o: HarvestOptions): Promise<HarvestSummary> {
  const started = Date.now();
  const pages = Math.max(1, o.pages ?? 1);
  const retries = o.retries ?? 2;
  const blockRetries = o.blockRetries ?? 2;
  const downAfter = Math.max(1, o.downAfter ?? 3);
  const backoff = o.backoff ?? { baseMs: 2000, maxMs: 60_000 };
  const since = new Date(Date.now() - (o.maxAgeMs ?? 24 * 3600_000)).toISOString();

  markCrashedRuns(store);
  const runId = startRun(store, o.runOptions ?? {});
  const engines: EngineState[] = o.engines.map((setup) => {
    const gate = new EngineGate(setup.definition.politeness);
    const breaker = new CircuitBreaker(o.breaker ?? DEFAULT_BREAKER);
    return {
      setup,
      wrapper: setup.wrapper,
      earlier: [...setup.previous],
      gate,
      breaker,
      queue: o.queries.map((query) => ({ query, page: 1, errors: 0, blocks: 0, notBefore: 0 })),
      readyIn: (now) => (breaker.probing && gate.active > 0 ? Number.POSITIVE_INFINITY : Math.max(gate.waitMs(now), breaker.waitMs(now))),
      maxPages: supportsPaging(setup.definition) ? pages : 1,
      downStreak: 0,
    };
  });
  const counters = new RunCounters(
    engines.map((e) => e.setup.name),
    o.queries.length,
  );
  const stats = counters.stats;
  const timings = { navigate: [] as number[], evaluate: [] as number[], body: [] as number[], ours: [] as number[] };
  const emit = (e: HarvestEvent) => o.onEvent?.(e);
  const progress = () => o.onProgress?.(stats);
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
  // A page this full suggests more results follow (engines fill a page with 8–10 organic results of 10).
  const continueAt = (e: EngineState) => Math.ceil(e.setup.definition.resultsPerPage * 0.7);

  /** After page `task.page` of a query: fetch its next page, or finish the job. */
  const givenUp = (e: EngineState) => counters.engine(e.setup.name).givenUp;
  const nextPage = (e: EngineState, task: PageTask, records: number) => {
    if (task.page < e.maxPages && records >= continueAt(e)) {
      if (givenUp(e)) counters.left(e.setup.name);
      else e.queue.unshift({ query: task.query, page: task.page + 1, errors: 0, blocks: 0, notBefore: 0 });
    } else {
      counters.jobDone();
    }
  };

  /** Put a failed page back for a later attempt, unless the engine is given up (then it is left). */
  const retryLater = (e: EngineState, task: PageTask) => {
    if (givenUp(e)) counters.left(e.setup.name);
    else e.queue.push(task);
  };

  const giveUp = (e: EngineState, reason: string) => {
    if (givenUp(e)) return;
    const left = e.queue.length;
    e.queue = [];
    counters.left(e.setup.name, left);
    counters.givenUp(e.setup.name, reason);
    emit({ kind: "engine-given-up", engine: e.setup.name, left, reason });
  };

  /** What a page's result means for the run: counts, and what comes next for its query and engine. */
  const afterPage = (e: EngineState, task: PageTask, r: PageResult) => {
    const name = e.setup.name;
    const v = r.verdict;
    timings.navigate.push(r.timings.navigateMs);
    timings.evaluate.push(r.timings.evaluateMs);
    timings.body.push(r.timings.bodyMs);
    timings.ours.push(r.timings.oursMs);
    counters.fetched(name, v.status, v.cause);
    counters.records(name, r.newRecords, r.seenAgain);
    counters.classified(r.classified);
    if (r.learned) {
      counters.relearned(name);
      emit({ kind: "wrapper-learned", engine: name, url: r.finalUrl, detail: v.detail, file: e.setup.file });
    }
    const cause = v.cause ?? "layout";
    // An engine unreachable, or showing a consent wall on every page, is not helped by waiting: count them in a row.
    const unusable = (v.status === "error" && isNetworkLevel(cause)) || cause === "consent";
    e.downStreak = unusable ? e.downStreak + 1 : 0;
    const now = Date.now();
    if (v.status === "ok" || v.status === "empty") {
      e.breaker.recordSuccess();
      nextPage(e, task, v.records.length);
    } else if (v.status === "blocked") {
      emit({ kind: "blocked", engine: name, url: r.url, detail: v.detail, cause });
      // A consent wall is not a rate limit: pausing does not lift it, so it does not trip the breaker.
      const b = cause === "consent" ? null : e.breaker.recordBlock(now);
      if (b?.kind === "paused") emit({ kind: "engine-paused", engine: name, seconds: Math.round((b.untilMs - now) / 1000), trip: b.trip });
      const walled = cause === "consent" && e.downStreak >= downAfter;
      if (task.blocks < blockRetries && !walled) {
        retryLater(e, { ...task, blocks: task.blocks + 1, notBefore: now + backoffMs(task.blocks + 1, backoff.baseMs, backoff.maxMs) });
      } else {
        counters.left(name);
      }
      if (walled) giveUp(e, `${e.downStreak} consent pages in a row (accept it once: --accept-consent, kept in the profile)`);
      else if (b?.kind === "gave-up") giveUp(e, `blocked ${b.trips + 1} times in a row after pauses (${v.detail})`);
    } else {
      const down = e.downStreak >= downAfter;
      const willRetry = task.errors < retries && !down;
      emit({ kind: "error", engine: name, url: r.url, detail: v.detail, cause, willRetry });
      if (willRetry) {
        retryLater(e, { ...task, errors: task.errors + 1, notBefore: now + backoffMs(task.errors + 1, backoff.baseMs, backoff.maxMs) });
      } else {
        counters.left(name);
      }
      if (down) giveUp(e, `unreachable: ${e.downStreak} network failures in a row (last: ${v.detail})`);
    }
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
          nextPage(e, task, fresh.recordCount);
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
    timing: {
      pages: timings.navigate.length,
      navigateMs: median(timings.navigate),
      evaluateMs: median(timings.evaluate),
      bodyMs: median(timings.body),
      oursMs: median(timings.ours),
    },
  };
  finishRun(store, runId, summary.status, summary);
  return summary;
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round((s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) * 10) / 10;
}
