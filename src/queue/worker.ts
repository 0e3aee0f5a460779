import { hostname } from "node:os";
import type { Job, Queue, Worker } from "bullmq";
import { finishRun, lastCompletedFetch, type Store, startRun } from "../store/index.js";
import { RunCounters, type HarvestStats } from "../serp/index.js";
import type { EngineSetup } from "../serp/index.js";
import type { FetchMode } from "../serp/index.js";
import type { InterpretOptions } from "../serp/index.js";
import { type EngineWrappers, type PageLoader, type PageResult, type RecordClassifier, runPage } from "../serp/index.js";
import { type EngineState, type HarvestEvent, PagePolicy, type PageTask } from "../serp/index.js";
import { type BreakerOptions, CircuitBreaker, DEFAULT_BREAKER } from "../serp/index.js";
import { type Bullmq, describeRedis, loadBullmq, type RedisAddress } from "./connection.js";
import { type PageJob, pageJob, pageJobOptions, queueName } from "./jobs.js";
import { applyLimits, openQueue } from "./queues.js";
import { type RedisLike, SharedEngineState } from "./shared-state.js";
import { SharedWrapper } from "./shared-wrappers.js";
import { RedisPacer } from "./request-pacer.js";

/**
 * A harvest worker: takes page jobs from the engines' queues and runs each with the local harvest's
 * page runner (fetch → interpret → store, self-healing wrappers, classification), then applies the
 * local harvest's page policy to the outcome — with the circuit breaker, the failures in a row and
 * "given up" shared through Redis. What the policy asks for becomes BullMQ's: the next page of a
 * query a new job, a retry a failed attempt (BullMQ backs off), a page left for the next run a job
 * failed for good, an engine pause the engine queue's rate limit (every worker waits).
 *
 * Wrappers are shared through the store (`shared-wrappers.ts`): one learned or re-learned by a worker
 * reaches the others before their next page.
 *
 * Politeness holds over all workers through the engine queues' global rate limit and concurrency
 * (see `limits.ts`). A worker that dies mid-page loses its job lock; after the stall interval
 * another worker takes the job. A page is skipped when the store already holds a successful fetch
 * of it within the run's max age, so a job run twice (a worker killed after its commit, before
 * BullMQ heard of it) stores nothing twice.
 */

export interface QueueWorkerOptions {
  redis: RedisAddress;
  store: Store;
  engines: readonly EngineSetup[];
  /** The browser (started when a page needs it). */
  loader: PageLoader;
  http: PageLoader | null;
  fetchMode: FetchMode | null;
  /** Pages in flight at once in this worker, per engine (each engine's own limit over all workers still holds). */
  concurrency: number;
  interpret: InterpretOptions;
  classifier: RecordClassifier | null;
  breaker?: BreakerOptions;
  /** How long a job stays claimed by a worker that stopped answering before another takes it (ms). */
  stallMs?: number;
  /** Stop once every queue of this worker's engines is empty. */
  exitWhenDrained?: boolean;
  signal?: AbortSignal;
  /** How long the first connection to Redis may take before the worker gives up with the reason (default 10 s). */
  connectWaitMs?: number;
  onEvent?: (event: HarvestEvent & { run: string }) => void;
  /** A page stored (or skipped as fresh). */
  onPage?: (p: { run: string; engine: string; page: number; status: string; skipped: boolean }) => void;
  /** Trouble with Redis (reconnecting …). */
  onConnectionError?: (message: string) => void;
  /** A job failed with an exception (not a page outcome: the store or Redis failing under it); BullMQ retries it. */
  onJobError?: (message: string, willRetry: boolean) => void;
}

export interface QueueWorkerSummary {
  worker: string;
  durationMs: number;
  /** Per queue run: the store's run id this worker wrote its fetches under, and its counters. */
  runs: Record<string, { runId: number; status: string; stats: HarvestStats }>;
  /** The version of each engine's wrapper in the store that this worker used last (0: none stored). */
  wrappers: Record<string, number>;
}

interface RunState {
  runId: number;
  counters: RunCounters;
  policy: PagePolicy;
  engines: Map<string, EngineState>;
  events: HarvestEvent[];
}

/** What the worker's job handlers share: its options, its engines' queues and wrappers, the runs it has seen. */
interface WorkerContext {
  o: QueueWorkerOptions;
  bull: Bullmq;
  name: string;
  breakerOptions: BreakerOptions;
  wrappers: Map<string, EngineWrappers>;
  setups: Map<string, EngineSetup>;
  sharedWrappers: Map<string, SharedWrapper>;
  runs: Map<string, RunState>;
  queues: Map<string, Queue<PageJob>>;
  shared: SharedEngineState;
  /** Each engine's request lease, shared by every worker. */
  pacer: RedisPacer;
  /** Errors thrown to make BullMQ retry a page after its outcome (already reported as events). */
  pageFailures: WeakSet<Error>;
}

/** The policy's verdict on a page: the tasks it queued, the breaker's pause, and why the engine was given up. */
interface Verdict {
  queued: PageTask[];
  pauseMs: number;
  givenUp: string | null;
}

export async function runQueueWorker(o: QueueWorkerOptions): Promise<QueueWorkerSummary> {
  const started = Date.now();
  const cx = await openWorkerContext(o);
  const workers = o.engines.map((s) => startEngineWorker(cx, s));
  await until(o, cx.bull, [...cx.queues.values()]);
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all([...cx.queues.values()].map((q) => q.close()));
  return finishRuns(cx, started);
}

async function openWorkerContext(o: QueueWorkerOptions): Promise<WorkerContext> {
  const bull = await loadBullmq();
  const wrappers = new Map<string, EngineWrappers>(
    o.engines.map((s) => [s.name, { setup: s, wrapper: s.wrapper, earlier: [...s.previous] }]),
  );
  const queues = new Map<string, Queue<PageJob>>();
  try {
    for (const s of o.engines) {
      // At the start Redis must answer within the connect wait (a wrong address is named, not waited on forever),
      // and Ctrl-C stops the wait; once running, the worker waits through Redis restarts.
      const q = await openQueue<PageJob>(bull, queueName(s.name), o.redis, { waitMs: o.connectWaitMs ?? 10_000, signal: o.signal });
      queues.set(s.name, q);
      await applyLimits(q, s.definition.politeness);
    }
  } catch (err) {
    await Promise.all([...queues.values()].map((q) => q.close().catch(() => {})));
    throw err;
  }
  const client = (await queues.values().next().value!.backend.client) as unknown as RedisLike;
  const shared = new SharedEngineState(client);
  return {
    o,
    bull,
    name: `${hostname()}:${process.pid}`,
    breakerOptions: o.breaker ?? DEFAULT_BREAKER,
    wrappers,
    setups: new Map(o.engines.map((s) => [s.name, s])),
    sharedWrappers: new Map([...wrappers].map(([name, w]) => [name, new SharedWrapper(o.store, w)])),
    runs: new Map(),
    queues,
    shared,
    pacer: new RedisPacer(client),
    pageFailures: new WeakSet(),
  };
}

/** The run a job belongs to, started in the store (with its counters and page policy) on its first job here. */
function runState(cx: WorkerContext, d: PageJob): RunState {
  let rs = cx.runs.get(d.run);
  if (!rs) {
    const counters = new RunCounters(
      cx.o.engines.map((s) => s.name),
      0,
    );
    const events: HarvestEvent[] = [];
    const policy = new PagePolicy(
      counters,
      {
        pages: d.pages,
        retries: d.retries,
        blockRetries: d.blockRetries,
        downAfter: d.downAfter,
        backoff: { baseMs: d.backoffMs, maxMs: d.backoffMs * 32 },
        breaker: cx.breakerOptions,
      },
      (e) => events.push(e),
    );
    const runId = startRun(cx.o.store, { queue: describeRedis(cx.o.redis), run: d.run, worker: cx.name });
    rs = { runId, counters, policy, engines: new Map(), events };
    cx.runs.set(d.run, rs);
  }
  return rs;
}

function engineState(cx: WorkerContext, rs: RunState, engine: string): EngineState {
  let e = rs.engines.get(engine);
  if (!e) {
    e = rs.policy.engine(cx.setups.get(engine)!, []);
    rs.engines.set(engine, e);
  }
  return e;
}

function pageContext(cx: WorkerContext, runId: number, run: string, keepHtml: boolean) {
  const o = cx.o;
  return {
    pacer: cx.pacer,
    store: o.store,
    runId,
    harvest: run,
    loader: o.loader,
    http: o.http,
    fetchMode: o.fetchMode,
    keepHtml,
    interpret: o.interpret,
    classifier: o.classifier,
  };
}

function flushEvents(o: QueueWorkerOptions, rs: RunState, run: string): void {
  for (const e of rs.events.splice(0)) o.onEvent?.({ ...e, run });
}

/** The policy's verdict on a page, under the engine's shared lock: what it queued, and the breaker's pause. */
function decide(cx: WorkerContext, rs: RunState, d: PageJob, apply: (e: EngineState) => void): Promise<Verdict> {
  return cx.shared.update(d.run, d.engine, (s) => {
    const e = engineState(cx, rs, d.engine);
    e.breaker = new CircuitBreaker(cx.breakerOptions, s.breaker ?? undefined);
    e.downStreak = s.downStreak;
    const mine = rs.counters.engine(d.engine);
    if (s.givenUp !== null && !mine.givenUp) rs.counters.givenUp(d.engine, s.givenUp);
    e.queue = [];
    apply(e);
    const queued = e.queue.splice(0);
    return {
      state: { breaker: e.breaker.state, downStreak: e.downStreak, givenUp: mine.givenUpBecause },
      result: { queued, pauseMs: Math.max(0, e.breaker.state.openUntil - Date.now()), givenUp: mine.givenUpBecause },
    };
  });
}

/** One page job: fetched (or skipped as fresh), judged by the policy, its next page queued, its outcome told to BullMQ. */
async function processPageJob(cx: WorkerContext, job: Job<PageJob>): Promise<unknown> {
  const d = job.data;
  const queue = cx.queues.get(d.engine);
  const w = cx.wrappers.get(d.engine);
  if (!queue || !w) throw new cx.bull.UnrecoverableError(`engine ${d.engine} is not served by worker ${cx.name}`);
  const rs = runState(cx, d);
  const task: PageTask = { query: d.query, page: d.page, errors: d.errors, blocks: d.blocks, notBefore: 0 };
  if (d.page === 1 && job.attemptsMade === 0) rs.counters.stats.jobs++;
  await checkEngineOpen(cx, rs, d, queue);

  const since = new Date(Date.now() - d.maxAgeMs).toISOString();
  const fresh = d.maxAgeMs > 0 ? lastCompletedFetch(cx.o.store, { engine: d.engine, query: d.query, page: d.page }, since) : null;
  let r: PageResult | null = null;
  let verdict: Verdict;
  if (fresh) {
    rs.counters.skipped(d.engine);
    verdict = await decide(cx, rs, d, (e) => rs.policy.nextPage(e, task, fresh.recordCount));
  } else {
    r = await fetchPage(cx, rs, d, w, task);
    verdict = await judgeFetchedPage(cx, rs, d, task, r);
  }
  flushEvents(cx.o, rs, d.run);
  if (verdict.pauseMs > 0) await queue.rateLimit(verdict.pauseMs);
  const next = await queueNextPage(queue, d, verdict);
  const status = fresh ? "skipped" : r!.verdict.status;
  cx.o.onPage?.({ run: d.run, engine: d.engine, page: d.page, status, skipped: fresh !== null });
  if (fresh || r!.verdict.status === "ok" || r!.verdict.status === "empty") {
    return { status, records: fresh ? fresh.recordCount : r!.verdict.records.length, next: next !== undefined };
  }
  return failPage(cx, job, r!, verdict);
}

/** Throws when the engine is given up for the run (the job fails for good) or its shared breaker is open (rate limit). */
async function checkEngineOpen(cx: WorkerContext, rs: RunState, d: PageJob, queue: Queue<PageJob>): Promise<void> {
  const before = await cx.shared.read(d.run, d.engine);
  if (before.givenUp !== null) {
    rs.counters.left(d.engine);
    throw new cx.bull.UnrecoverableError(`${d.engine} given up for run ${d.run}: ${before.givenUp}`);
  }
  const pause = before.breaker ? new CircuitBreaker(cx.breakerOptions, before.breaker).waitMs(Date.now()) : 0;
  if (pause > 0) {
    await queue.rateLimit(pause);
    throw cx.bull.Worker.RateLimitError();
  }
}

/** Runs the page with the engine's wrapper (refreshed from the store first) and counts its outcome. */
async function fetchPage(cx: WorkerContext, rs: RunState, d: PageJob, w: EngineWrappers, task: PageTask): Promise<PageResult> {
  const sw = cx.sharedWrappers.get(d.engine)!;
  sw.refresh();
  const r = await runPage(pageContext(cx, rs.runId, d.run, d.keepHtml), w, task);
  if (r === null) throw new Error("page interrupted");
  if (r.learned) sw.learned();
  const v = r.verdict;
  const c = rs.counters;
  c.fetched(d.engine, v.status, v.cause);
  c.records(d.engine, r.newRecords, r.seenAgain);
  c.classified(r.classified);
  if (r.learned) {
    c.relearned(d.engine);
    rs.events.push({ kind: "wrapper-learned", engine: d.engine, url: r.finalUrl, detail: v.detail, file: w.setup.file });
  }
  return r;
}

function judgeFetchedPage(cx: WorkerContext, rs: RunState, d: PageJob, task: PageTask, page: PageResult): Promise<Verdict> {
  const v = page.verdict;
  return decide(cx, rs, d, (e) =>
    rs.policy.afterPage(e, task, {
      status: v.status,
      cause: v.cause,
      detail: v.detail,
      url: page.url,
      records: v.records.length,
      permanent: v.permanent ?? false,
      retryAfterMs: page.retryAfterMs,
    }),
  );
}

/** Queues the job of the query's next page when the policy asked for it; returns that task. */
async function queueNextPage(queue: Queue<PageJob>, d: PageJob, verdict: Verdict): Promise<PageTask | undefined> {
  const next = verdict.queued.find((t) => t.page === d.page + 1);
  if (next) {
    const j = pageJob(d, d.engine, d.query, next.page);
    await queue.add(j.name, j.data, pageJobOptions(d, j.jobId));
  }
  return next;
}

/** A page that failed: a retry (BullMQ backs off) when the policy queued one, else a job failed for good. */
async function failPage(cx: WorkerContext, job: Job<PageJob>, r: PageResult, verdict: Verdict): Promise<never> {
  const d = job.data;
  const retry = verdict.queued.find((t) => t.page === d.page);
  const detail = `${r.verdict.status}: ${r.verdict.detail}`;
  if (retry) {
    await job.updateData({ ...d, errors: retry.errors, blocks: retry.blocks });
    const err = new Error(detail);
    cx.pageFailures.add(err);
    throw err;
  }
  throw new cx.bull.UnrecoverableError(
    `${detail} (page left for the next run${verdict.givenUp ? `; ${d.engine} given up: ${verdict.givenUp}` : ""})`,
  );
}

/** The BullMQ worker of one engine's queue, reporting connection trouble and job exceptions. */
function startEngineWorker(cx: WorkerContext, s: EngineSetup): Worker<PageJob> {
  const { o, bull } = cx;
  const stallMs = o.stallMs ?? 30_000;
  const worker = new bull.Worker<PageJob>(queueName(s.name), (job) => processPageJob(cx, job), {
    connection: o.redis,
    name: cx.name,
    concurrency: Math.max(1, Math.min(o.concurrency, s.definition.politeness.maxConcurrent)),
    lockDuration: stallMs,
    stalledInterval: stallMs,
    maxStalledCount: 2,
  });
  worker.on("error", (err) => o.onConnectionError?.(`${s.name}: ${err.message}`));
  worker.on("failed", (job, err) => {
    // Page outcomes (blocked, errors) are reported by the policy's events; this is for exceptions.
    if (!job || err instanceof bull.UnrecoverableError || cx.pageFailures.has(err)) return;
    const attempts = job.opts.attempts ?? 1;
    o.onJobError?.(`${job.data.engine} "${job.data.query.source.text}" page ${job.data.page}: ${err.message}`, job.attemptsMade < attempts);
  });
  return worker;
}

/** Closes the worker's runs in the store and sums them up. */
function finishRuns(cx: WorkerContext, started: number): QueueWorkerSummary {
  const summary: QueueWorkerSummary = {
    worker: cx.name,
    durationMs: Date.now() - started,
    runs: {},
    wrappers: Object.fromEntries([...cx.sharedWrappers].map(([engine, sw]) => [engine, sw.storedVersion])),
  };
  for (const [run, rs] of cx.runs) {
    const status = rs.counters.outcome(false);
    finishRun(cx.o.store, rs.runId, status, rs.counters.stats);
    summary.runs[run] = { runId: rs.runId, status, stats: rs.counters.stats };
  }
  return summary;
}

/** Until the signal aborts, or — with `exitWhenDrained` — every queue is empty twice in a row. */
async function until(o: QueueWorkerOptions, _bull: Bullmq, queues: Queue<PageJob>[]): Promise<void> {
  const aborted = new Promise<void>((resolve) => {
    if (o.signal?.aborted) resolve();
    o.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  if (!o.exitWhenDrained) return aborted;
  let stop = false;
  void aborted.then(() => (stop = true));
  let emptyPolls = 0;
  while (!stop && emptyPolls < 2) {
    await Promise.race([aborted, new Promise((r) => setTimeout(r, 300))]);
    try {
      const counts = await Promise.all(
        queues.map((q) => q.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children")),
      );
      const pending = counts.reduce((n, c) => n + Object.values(c).reduce((a, b) => a + b, 0), 0);
      emptyPolls = pending === 0 ? emptyPolls + 1 : 0;
    } catch {
      emptyPolls = 0; // Redis away: wait for it
    }
  }
}
