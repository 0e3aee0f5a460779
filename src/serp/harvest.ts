import { CpuTurns } from "./cpu-turns.js";
import { type HarvestConfig, type HarvestConfigInput, harvestConfig } from "../config/index.js";
import { finishRun, type QueryPair, type Store, startExclusiveRun } from "../store/index.js";
import type { EngineStats, HarvestStats, PageCounts, RunOutcome } from "./counters.js";
import type { EngineSetup } from "./engine-files.js";
import type { FetchMode } from "./engines.js";
import type { HealthOptions } from "../health/index.js";
import { HealthWatch } from "./health-watch.js";
import { DEFAULT_INTERPRET, type InterpretOptions } from "./interpret.js";
import { HarvestLoop, IN_PROCESS, type PageTimingMedians } from "./loop.js";
import type { PageLoader, PageRunContext, RecordClassifier } from "./page-runner.js";
import type { EngineState, HarvestEvent, PageTask, PolicyOptions } from "./page-policy.js";
import { FileWrappers } from "./wrapper-registry.js";
import { schedule } from "../net/index.js";
import { LocalPacer, type RequestPacer } from "./request-pacer.js";

export type { EngineStats, HarvestEvent, HarvestStats, PageCounts, RecordClassifier, RunOutcome };

/**
 * The harvest (feng2010 §3.2, §4.1): submit every query pair to every engine, page after page,
 * extract the result records with the engine's wrapper inside the loaded page, and store each fetch
 * with its records in one transaction. Resumable and idempotent: an (engine, query, page) fetched
 * successfully within `maxAgeMs` is skipped, so a rerun after a crash fetches only what is missing.
 *
 * The local run drives the harvest loop (`loop.ts`: one page task — skip, fetch, count, judge) from
 * the lane dispatcher (`net/scheduler.ts`: what runs next, within concurrency and each engine's
 * politeness), the page tasks waiting in this process's engine lanes. A distributed run drives the
 * same loop from BullMQ (`queue/worker.ts`).
 */

/** A harvest's inputs; its settings (`HarvestConfigInput`: pages, concurrency, retries, …) default in `config/harvest.ts`. */
export interface HarvestOptions extends HarvestConfigInput {
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
  timing: PageTimingMedians;
}

export async function harvest(store: Store, o: HarvestOptions): Promise<HarvestSummary> {
  const started = Date.now();
  const c = harvestConfig(o);
  const runId = o.runId ?? (await startExclusiveRun(store, o.runOptions ?? {})); // refuses while another harvest runs on this store
  const loop = new HarvestLoop(
    {
      store,
      page: pageContext(store, runId, o, c),
      engines: o.engines,
      queries: o.queries,
      policy: policyOptions(c),
      maxAgeMs: c.maxAgeMs,
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    },
    IN_PROCESS,
  );
  const lanes = loop.lanes;
  loop.progress();
  try {
    await schedule<PageTask>({
      lanes,
      concurrency: c.concurrency,
      maxIdleMs: c.maxWaitMs,
      ...(o.signal ? { signal: o.signal } : {}),
      // In-flight loads end now; their pages are fetched by the next run.
      onAbort: () => o.driver.close(),
      start: (li, task, now) => {
        const e = lanes[li]!;
        // The gate is taken at once (the dispatcher's next pick sees it); a page skipped as fresh is not paced.
        return e.gate
          .run(now, () => loop.step(e, task, o.signal))
          .then((step) => {
            if (step.kind === "skipped") e.gate.cancel(now);
            if (step.kind === "interrupted") e.queue.unshift(task); // not stored: the next run fetches it
          });
      },
    });
  } catch (err) {
    await finishRun(store, runId, "failed", { ...loop.counters.stats, error: String(err) });
    throw err;
  }
  const interrupted = o.signal?.aborted ?? false;
  // Why the schedule ended with pages queued (before they are counted as left).
  const stoppedBecause = interrupted ? null : pausedTooLong(lanes, c.maxWaitMs);
  const end = loop.finish(interrupted);
  const summary: HarvestSummary = {
    ...end.stats,
    runId,
    status: end.status,
    stoppedBecause,
    durationMs: Date.now() - started,
    timing: end.timing,
  };
  await finishRun(store, runId, summary.status, summary);
  return summary;
}

/** What the page runner needs of the run: the store, the loaders and the options, defaults filled in. */
function pageContext(store: Store, runId: number, o: HarvestOptions, c: HarvestConfig): PageRunContext {
  return {
    store,
    runId,
    harvest: `local run ${runId}`,
    loader: o.driver,
    http: o.http ?? null,
    fetchMode: o.fetchMode ?? null,
    keepHtml: c.keepHtml,
    interpret: o.interpret ?? DEFAULT_INTERPRET,
    classifier: o.classifier ?? null,
    health: o.health === false ? null : new HealthWatch(store, o.health),
    wrappers: new FileWrappers(),
    pacer: o.pacer ?? new LocalPacer(),
    cpu: new CpuTurns(),
  };
}

/** Why the schedule ended with pages queued: every engine left waits longer than the run waits (null: it did not). */
function pausedTooLong(engines: readonly EngineState[], maxWaitMs: number): string | null {
  const waiting = restingEngines(engines, Date.now());
  if (waiting.length === 0) return null;
  return `every engine left is paused longer than the run waits (${Math.round(maxWaitMs / 1000)} s): ${waiting.join(", ")}`;
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

/** What the policy does after a page, from the run's settings. */
function policyOptions(c: HarvestConfig): PolicyOptions {
  return {
    pages: c.pages,
    retries: c.retries,
    blockRetries: c.blockRetries,
    downAfter: c.downAfter,
    backoff: c.backoff,
    breaker: c.breaker,
  };
}
