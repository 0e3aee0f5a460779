import type { FailureKind } from "./failures.js";
import { isNetworkLevel } from "./failures.js";
import type { RunCounters } from "./counters.js";
import type { EngineSetup } from "./engine-files.js";
import { supportsPaging } from "./engines.js";
import type { EngineWrappers } from "./page-runner.js";
import { type BreakerOptions, backoffMs, CircuitBreaker, DEFAULT_BREAKER, EngineGate } from "./politeness.js";
import type { QueryPair } from "../store/index.js";
import type { Lane } from "../net/index.js";

/**
 * What comes after a page: its query's next page, a retry after a back-off, the page left for the next
 * run, the engine paused (circuit breaker) or given up (blocked again and again, a consent wall, or
 * unreachable). Pure bookkeeping over the engines' queues and the run's counters: no I/O.
 */

export type HarvestEvent =
  | { kind: "wrapper-learned"; engine: string; url: string; detail: string; file: string }
  | { kind: "blocked"; engine: string; url: string; detail: string; cause: FailureKind }
  | { kind: "engine-paused"; engine: string; seconds: number; trip: number }
  | { kind: "engine-given-up"; engine: string; left: number; reason: string; cause?: "consent" }
  | { kind: "error"; engine: string; url: string; detail: string; cause: FailureKind; willRetry: boolean }
  | { kind: "drift"; engine: string; url: string; detail: string; action: "relearned" | "drift" | "stopped"; streak: number };

export interface PageTask {
  query: QueryPair;
  page: number;
  errors: number;
  blocks: number;
  /** Attempts that failed at their proxy (asked again through another, not counted as the engine's errors). */
  proxyErrors?: number;
  notBefore: number;
}

export interface EngineState extends EngineWrappers, Lane<PageTask> {
  gate: EngineGate;
  breaker: CircuitBreaker;
  maxPages: number;
  /** Network failures (or consent walls) in a row, reset by any other answer. */
  downStreak: number;
  /** Epoch ms before which the engine is not asked (its `Retry-After`). */
  restUntil: number;
}

export interface PolicyOptions {
  /** Result pages per query. */
  pages: number;
  /** Retries of a page after an error. */
  retries: number;
  /** Retries of a page after a block. */
  blockRetries: number;
  /** Network failures in a row after which an engine is taken as down. */
  downAfter: number;
  backoff: { baseMs: number; maxMs: number };
  breaker?: BreakerOptions;
  /** Attempts of a page through other proxies after its proxy failed (default 3). */
  proxyRetries?: number;
}

/** The outcome of one page, as the policy needs it. */
export interface PageOutcome {
  status: "ok" | "empty" | "blocked" | "error";
  cause: FailureKind | null;
  detail: string;
  url: string;
  /** Records found on the page. */
  records: number;
  /** Asking again would fail the same way (an HTTP 4xx other than 408/429): not retried. */
  permanent?: boolean;
  /** The wait the engine asked for (`Retry-After`, ms): nothing goes to it before. */
  retryAfterMs?: number | null;
}

export class PagePolicy {
  constructor(
    private readonly counters: RunCounters,
    private readonly o: PolicyOptions,
    private readonly emit: (e: HarvestEvent) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** An engine's state at the start of a run: every query's first page queued. */
  engine(setup: EngineSetup, queries: readonly QueryPair[]): EngineState {
    const gate = new EngineGate(setup.definition.politeness);
    const breaker = new CircuitBreaker(this.o.breaker ?? DEFAULT_BREAKER);
    const e: EngineState = {
      setup,
      wrapper: setup.wrapper,
      earlier: [...setup.previous],
      gate,
      breaker,
      queue: queries.map((query) => ({ query, page: 1, errors: 0, blocks: 0, notBefore: 0 })),
      readyIn: (now) =>
        breaker.probing && gate.active > 0 ? Number.POSITIVE_INFINITY : Math.max(gate.waitMs(now), breaker.waitMs(now), e.restUntil - now),
      // Paused by blocks: its breaker, or the wait its Retry-After asked (its politeness pacing is not a pause).
      pausedFor: (now) => Math.max(breaker.waitMs(now), e.restUntil - now),
      maxPages: supportsPaging(setup.definition) ? this.o.pages : 1,
      downStreak: 0,
      restUntil: 0,
    };
    return e;
  }

  /** After page `task.page` of a query gave `records`: ask for its next page, or finish the job. */
  nextPage(e: EngineState, task: PageTask, records: number): void {
    // A page this full suggests more results follow (engines fill a page with 8–10 organic results of 10).
    const continueAt = Math.ceil(e.setup.definition.resultsPerPage * 0.7);
    if (task.page < e.maxPages && records >= continueAt) {
      if (this.givenUp(e)) this.counters.left(e.setup.name);
      else e.queue.unshift({ query: task.query, page: task.page + 1, errors: 0, blocks: 0, notBefore: 0 });
    } else {
      this.counters.jobDone();
    }
  }

  /** What a page's outcome means for its query and engine. */
  afterPage(e: EngineState, task: PageTask, p: PageOutcome): void {
    const name = e.setup.name;
    const cause = p.cause ?? "layout";
    // An engine unreachable, or showing a consent wall on every page, is not helped by waiting: count them in a row.
    const unusable = (p.status === "error" && isNetworkLevel(cause)) || cause === "consent";
    // A proxy's failure says nothing of the engine: its streak stays as it was.
    if (cause !== "proxy") e.downStreak = unusable ? e.downStreak + 1 : 0;
    const now = this.now();
    const { baseMs, maxMs } = this.o.backoff;
    if (p.status === "ok" || p.status === "empty") {
      e.breaker.recordSuccess();
      this.nextPage(e, task, p.records);
    } else if (p.status === "blocked") {
      this.emit({ kind: "blocked", engine: name, url: p.url, detail: p.detail, cause });
      // The engine said how long to stay away: nothing goes to it before (more than the breaker would wait).
      const askedUntil = p.retryAfterMs ? now + p.retryAfterMs : 0;
      e.restUntil = Math.max(e.restUntil, askedUntil);
      // A consent wall is not a rate limit: pausing does not lift it, so it does not trip the breaker.
      const b = cause === "consent" ? null : e.breaker.recordBlock(now);
      if (b?.kind === "paused")
        this.emit({ kind: "engine-paused", engine: name, seconds: Math.round((b.untilMs - now) / 1000), trip: b.trip });
      const walled = cause === "consent" && e.downStreak >= this.o.downAfter;
      if (task.blocks < this.o.blockRetries && !walled) {
        const notBefore = Math.max(now + backoffMs(task.blocks + 1, baseMs, maxMs), askedUntil);
        this.retryLater(e, { ...task, blocks: task.blocks + 1, notBefore });
      } else {
        this.counters.left(name);
      }
      if (walled) this.giveUp(e, `${e.downStreak} consent pages in a row (the engine asks for cookie consent first)`, "consent");
      else if (b?.kind === "gave-up") this.giveUp(e, `blocked ${b.trips + 1} times in a row after pauses (${p.detail})`);
    } else if (cause === "proxy") {
      // The page goes again at once, through another proxy (the failed one is rested); the engine is not blamed.
      const tries = task.proxyErrors ?? 0;
      const willRetry = tries < (this.o.proxyRetries ?? 3);
      this.emit({ kind: "error", engine: name, url: p.url, detail: p.detail, cause, willRetry });
      if (willRetry) this.retryLater(e, { ...task, proxyErrors: tries + 1, notBefore: now });
      else this.counters.left(name);
    } else {
      const down = e.downStreak >= this.o.downAfter;
      const willRetry = task.errors < this.o.retries && !down && !p.permanent;
      this.emit({ kind: "error", engine: name, url: p.url, detail: p.detail, cause, willRetry });
      if (willRetry) {
        this.retryLater(e, { ...task, errors: task.errors + 1, notBefore: now + backoffMs(task.errors + 1, baseMs, maxMs) });
      } else {
        this.counters.left(name);
      }
      if (down) this.giveUp(e, `unreachable: ${e.downStreak} network failures in a row (last: ${p.detail})`);
    }
  }

  /** Give the engine up for the run: every page still queued is left for the next run. */
  giveUp(e: EngineState, reason: string, cause?: "consent"): void {
    if (this.givenUp(e)) return;
    const left = e.queue.length;
    e.queue = [];
    this.counters.left(e.setup.name, left);
    this.counters.givenUp(e.setup.name, reason);
    this.emit({ kind: "engine-given-up", engine: e.setup.name, left, reason, ...(cause ? { cause } : {}) });
  }

  private givenUp(e: EngineState): boolean {
    return this.counters.engine(e.setup.name).givenUp;
  }

  /** Put a failed page back for a later attempt, unless the engine is given up (then it is left). */
  private retryLater(e: EngineState, task: PageTask): void {
    if (this.givenUp(e)) this.counters.left(e.setup.name);
    else e.queue.push(task);
  }
}
