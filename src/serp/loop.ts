import { median } from "../stats.js";
import { lastCompletedFetch, noteQueryOrigin, type QueryPair, type Store } from "../store/index.js";
import { type HarvestStats, RunCounters, type RunOutcome } from "./counters.js";
import type { EngineSetup } from "./engine-files.js";
import { type EngineState, type HarvestEvent, PagePolicy, type PageTask, type PolicyOptions } from "./page-policy.js";
import { type PageResult, type PageRunContext, runPage } from "./page-runner.js";

/**
 * The harvest loop, one for a local run and for the workers of a distributed one: for a page task,
 * skip it when it was fetched recently enough, else run it (fetch → interpret → store), count what
 * happened, and let the page policy decide what comes next — through a `PageQueue`, which is where
 * the run's page tasks wait: the engine lanes of this process, or BullMQ's queues shared by workers.
 * What drives the loop (the lane dispatcher, a BullMQ worker) only hands it tasks.
 */

/** Where a run's page tasks wait, and what becomes of the policy's decisions there. */
export interface PageQueue<D> {
  /**
   * Let `apply` (the policy) change the engine's state and queue (with the state other workers share, where
   * they share it), and hand on what it queued; resolves with what the driver needs to know of the decision.
   */
  decide(e: EngineState, apply: (e: EngineState) => void): Promise<D>;
}

/** The page tasks wait in this process's engine lanes: the policy's decisions stay there, for the dispatcher. */
export const IN_PROCESS: PageQueue<void> = {
  async decide(e, apply) {
    apply(e);
  },
};

export interface LoopOptions {
  store: Store;
  /** What the page runner needs (store, run, loaders, the wrapper registry, options). */
  page: PageRunContext;
  engines: readonly EngineSetup[];
  /** The run's queries, queued as every engine's first pages (none: tasks come from outside, as jobs). */
  queries: readonly QueryPair[];
  policy: PolicyOptions;
  /** Skip a page fetched successfully this recently (0: fetch it again). */
  maxAgeMs: number;
  onEvent?: (event: HarvestEvent) => void;
  onProgress?: (stats: HarvestStats) => void;
}

export type PageStep<D> =
  | { kind: "skipped"; records: number; decision: D }
  | { kind: "fetched"; result: PageResult; decision: D }
  /** The signal aborted during the load: nothing stored (the page is fetched again later). */
  | { kind: "interrupted" };

export class HarvestLoop<D> {
  readonly counters: RunCounters;
  readonly policy: PagePolicy;
  private readonly engines = new Map<string, EngineState>();
  private readonly timings = new PageTimings();

  constructor(
    private readonly o: LoopOptions,
    private readonly queue: PageQueue<D>,
  ) {
    this.counters = new RunCounters(
      o.engines.map((e) => e.name),
      o.queries.length,
    );
    this.policy = new PagePolicy(this.counters, o.policy, (e) => this.emit(e));
    for (const setup of o.engines) this.engines.set(setup.name, this.policy.engine(setup, o.queries));
  }

  /** The engines' states (their lanes of page tasks), in the order of the run's engines. */
  get lanes(): EngineState[] {
    return [...this.engines.values()];
  }

  engine(name: string): EngineState {
    const e = this.engines.get(name);
    if (!e) throw new Error(`HarvestLoop: unknown engine ${name}`);
    return e;
  }

  progress(): void {
    this.o.onProgress?.(this.counters.stats);
  }

  /** One page task: skipped when fresh, else fetched, counted and judged by the policy. */
  async step(e: EngineState, task: PageTask, signal?: AbortSignal): Promise<PageStep<D>> {
    const fresh = await this.freshFetch(e, task);
    if (fresh) {
      // Not fetched again, but where its query was read is kept all the same (a store from before origins were kept).
      await noteQueryOrigin(this.o.store, task.query);
      this.counters.skipped(e.setup.name);
      const decision = await this.queue.decide(e, (x) => this.policy.nextPage(x, task, fresh.recordCount));
      this.progress();
      return { kind: "skipped", records: fresh.recordCount, decision };
    }
    await this.o.page.wrappers.refresh(e);
    const r = await runPage(this.o.page, e, task, signal);
    if (r === null) return { kind: "interrupted" };
    this.count(e, r);
    const decision = await this.queue.decide(e, (x) => this.judge(x, task, r));
    this.progress();
    return { kind: "fetched", result: r, decision };
  }

  private async freshFetch(e: EngineState, task: PageTask): Promise<{ recordCount: number } | null> {
    if (this.o.maxAgeMs <= 0) return null;
    const since = new Date(Date.now() - this.o.maxAgeMs).toISOString();
    return await lastCompletedFetch(this.o.store, { engine: e.setup.name, query: task.query, page: task.page }, since);
  }

  private emit(e: HarvestEvent): void {
    this.o.onEvent?.(e);
  }

  /** A page's timings and counts, and the wrapper it taught. */
  private count(e: EngineState, r: PageResult): void {
    const v = r.verdict;
    const name = e.setup.name;
    this.timings.add(r.timings);
    this.counters.fetched(name, v.status, v.cause);
    this.counters.records(name, r.newRecords, r.seenAgain);
    this.counters.classified(r.classified);
    if (r.learned) {
      this.counters.relearned(name);
      this.emit({ kind: "wrapper-learned", engine: name, url: r.finalUrl, detail: v.detail, file: e.setup.file });
    }
  }

  /** What comes after a fetched page: a drift told (and past too many the engine stopped), then the policy. */
  private judge(e: EngineState, task: PageTask, r: PageResult): void {
    const v = r.verdict;
    if (r.drift) {
      const d = r.drift;
      this.counters.drift(e.setup.name);
      this.emit({ kind: "drift", engine: e.setup.name, url: r.finalUrl, detail: d.reason, action: d.action, streak: d.streak });
      if (d.action === "stopped")
        this.policy.giveUp(
          e,
          `wrapper drift: ${d.streak} pages in a row outside its health profile, none fixed by re-learning (last: ${d.reason})`,
        );
    }
    this.policy.afterPage(e, task, {
      status: v.status,
      cause: v.cause,
      detail: v.detail,
      url: r.url,
      records: v.records.length,
      permanent: v.permanent ?? false,
      retryAfterMs: r.retryAfterMs,
    });
  }

  /** The run's outcome and counts once its loop ended; pages still queued in the lanes are left for the next run. */
  finish(interrupted: boolean): { status: RunOutcome; stats: HarvestStats; timing: PageTimingMedians } {
    if (!interrupted)
      for (const e of this.engines.values()) if (e.queue.length > 0) this.counters.left(e.setup.name, e.queue.splice(0).length);
    return { status: this.counters.outcome(interrupted), stats: this.counters.stats, timing: this.timings.medians() };
  }
}

/** Per-page timings (medians, ms): in the browser (navigation), in the page (evaluation), ours (interpret + store). */
export interface PageTimingMedians {
  pages: number;
  navigateMs: number;
  evaluateMs: number;
  bodyMs: number;
  oursMs: number;
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

  medians(): PageTimingMedians {
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
