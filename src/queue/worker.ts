import { hostname } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Job, Queue, Worker } from "bullmq";
import { finishRun, type Store, startRun } from "../store/index.js";
import type { EngineSetup, EngineState, FetchMode, HarvestEvent, HarvestStats, InterpretOptions, PageTask } from "../serp/index.js";
import {
  HarvestLoop,
  type PageLoader,
  type PageQueue,
  type PageResult,
  type PageRunContext,
  type RecordClassifier,
  type RunCounters,
} from "../serp/index.js";
import { type BreakerOptions, CircuitBreaker, CpuTurns, DEFAULT_BREAKER } from "../serp/index.js";
import { type Bullmq, describeRedis, loadBullmq, type RedisAddress } from "./connection.js";
import { type PageJob, pageJob, pageJobOptions, queueName } from "./jobs.js";
import { applyLimits, openQueue } from "./queues.js";
import { RedisPacer } from "./request-pacer.js";
import { type RedisLike, SharedEngineState } from "./shared-state.js";
import { StoreWrappers } from "./shared-wrappers.js";

/**
 * A harvest worker: the harvest loop (`serp/loop.ts`, the local run's) fed by BullMQ. Each page job is
 * one step of the loop — skip when fresh, else fetch → interpret → store, count, and the page policy —
 * with the page tasks waiting in BullMQ's queues (`BullPageQueue`): the policy decides over the circuit
 * breaker, the failures in a row and "given up" shared through Redis, and what it asks for becomes
 * BullMQ's: the next page of a query a new job, a retry a failed attempt (BullMQ backs off), a page
 * left for the next run a job failed for good, an engine pause the engine queue's rate limit.
 *
 * Wrappers are shared through the store (`shared-wrappers.ts`): one learned or re-learned by a worker
 * reaches the others before their next page.
 *
 * Politeness holds over all workers through the request lease each page takes (`request-pacer.ts`),
 * with the engine queues' global concurrency and a coarse rate limit (`limits.ts`). A worker that dies mid-page loses its job lock; after the stall interval
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
  /** The worker's queues are open and it takes jobs. */
  onReady?: () => void;
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
  /** The 99th percentile of the worker's event-loop delay over its life (ms): what held its timers and lock renewals. */
  eventLoopLagP99Ms: number;
}

interface RunState {
  runId: number;
  loop: HarvestLoop<Verdict>;
  wrappers: StoreWrappers;
}

/** What the worker's job handlers share: its options, its engines' queues, the runs it has seen. */
interface WorkerContext {
  o: QueueWorkerOptions;
  bull: Bullmq;
  name: string;
  breakerOptions: BreakerOptions;
  setups: Map<string, EngineSetup>;
  /** The runs seen here, each started once however many of its jobs arrive together. */
  runs: Map<string, Promise<RunState>>;
  queues: Map<string, Queue<PageJob>>;
  shared: SharedEngineState;
  /** Each engine's request lease, shared by every worker. */
  pacer: RedisPacer;
  /** This process's turns for reading pages, shared by its runs. */
  cpu: CpuTurns;
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
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const cx = await openWorkerContext(o);
  const workers = o.engines.map((s) => startEngineWorker(cx, s));
  o.onReady?.();
  await until(o, cx.bull, [...cx.queues.values()]);
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all([...cx.queues.values()].map((q) => q.close()));
  lag.disable();
  return { ...(await finishRuns(cx, started)), eventLoopLagP99Ms: Math.round(lag.percentile(99) / 1e5) / 10 };
}

async function openWorkerContext(o: QueueWorkerOptions): Promise<WorkerContext> {
  const bull = await loadBullmq();
  const queues = new Map<string, Queue<PageJob>>();
  try {
    for (const s of o.engines) {
      // At the start Redis must answer within the connect wait (a wrong address is named, not waited on forever),
      // and Ctrl-C stops the wait; once running, the worker waits through Redis restarts.
      const q = await openQueue<PageJob>(bull, queueName(s.name), o.redis, { waitMs: o.connectWaitMs ?? 10_000, signal: o.signal });
      queues.set(s.name, q);
      // Once running, trouble seen on the queue's connection (which the leases use too) is reported as the
      // BullMQ worker's is: whichever connection notices Redis going away first, the user is told.
      q.on("error", connectionTrouble(o, s.name));
      await applyLimits(q, s.definition.politeness);
    }
  } catch (err) {
    await Promise.all([...queues.values()].map((q) => q.close().catch(() => {})));
    throw err;
  }
  const client = (await queues.values().next().value!.backend.client) as unknown as RedisLike;
  return {
    o,
    bull,
    name: `${hostname()}:${process.pid}`,
    breakerOptions: o.breaker ?? DEFAULT_BREAKER,
    setups: new Map(o.engines.map((s) => [s.name, s])),
    runs: new Map(),
    queues,
    shared: new SharedEngineState(client),
    pacer: new RedisPacer(client),
    cpu: new CpuTurns(),
    pageFailures: new WeakSet(),
  };
}

/**
 * The run a job belongs to, started in the store on its first job here: the harvest loop of a local run, its
 * page tasks in BullMQ's queues (`BullPageQueue`), its wrappers shared through the store.
 */
function runState(cx: WorkerContext, d: PageJob): Promise<RunState> {
  let rs = cx.runs.get(d.run);
  if (!rs) {
    rs = startRunState(cx, d);
    cx.runs.set(d.run, rs);
  }
  return rs;
}

async function startRunState(cx: WorkerContext, d: PageJob): Promise<RunState> {
  const o = cx.o;
  const runId = await startRun(o.store, { queue: describeRedis(o.redis), run: d.run, worker: cx.name });
  const wrappers = new StoreWrappers(o.store);
  const page: PageRunContext = {
    store: o.store,
    runId,
    harvest: d.run,
    loader: o.loader,
    http: o.http,
    fetchMode: o.fetchMode,
    keepHtml: d.keepHtml,
    interpret: o.interpret,
    classifier: o.classifier,
    wrappers,
    pacer: cx.pacer,
    cpu: cx.cpu,
  };
  const loop: HarvestLoop<Verdict> = new HarvestLoop<Verdict>(
    {
      store: o.store,
      page,
      engines: o.engines,
      queries: [],
      policy: {
        pages: d.pages,
        retries: d.retries,
        blockRetries: d.blockRetries,
        downAfter: d.downAfter,
        backoff: { baseMs: d.backoffMs, maxMs: d.backoffMs * 32 },
        breaker: cx.breakerOptions,
      },
      maxAgeMs: d.maxAgeMs,
      onEvent: (e) => o.onEvent?.({ ...e, run: d.run }),
    },
    new BullPageQueue(cx, d.run, (): RunCounters => loop.counters),
  );
  return { runId, loop, wrappers };
}

/**
 * A distributed run's page tasks wait in BullMQ: the policy decides under the engine's shared lock, over the
 * breaker, failures in a row and "given up" that every worker shares; what it queued is handed back (the
 * worker makes jobs of it) and the engine's lane stays empty.
 */
class BullPageQueue implements PageQueue<Verdict> {
  constructor(
    private readonly cx: WorkerContext,
    private readonly run: string,
    private readonly counters: () => RunCounters,
  ) {}

  decide(e: EngineState, apply: (e: EngineState) => void): Promise<Verdict> {
    const engine = e.setup.name;
    return this.cx.shared.update(this.run, engine, (s) => {
      e.breaker = new CircuitBreaker(this.cx.breakerOptions, s.breaker ?? undefined);
      e.downStreak = s.downStreak;
      const mine = this.counters().engine(engine);
      if (s.givenUp !== null && !mine.givenUp) this.counters().givenUp(engine, s.givenUp);
      e.queue = [];
      apply(e);
      const queued = e.queue.splice(0);
      return {
        state: { breaker: e.breaker.state, downStreak: e.downStreak, givenUp: mine.givenUpBecause },
        result: { queued, pauseMs: Math.max(0, e.breaker.state.openUntil - Date.now()), givenUp: mine.givenUpBecause },
      };
    });
  }
}

/** One page job: the harvest loop's step on it, its next page queued, its outcome told to BullMQ. */
async function processPageJob(cx: WorkerContext, job: Job<PageJob>): Promise<unknown> {
  const d = job.data;
  const queue = cx.queues.get(d.engine);
  if (!queue || !cx.setups.has(d.engine)) throw new cx.bull.UnrecoverableError(`engine ${d.engine} is not served by worker ${cx.name}`);
  const rs = await runState(cx, d);
  const task: PageTask = { query: d.query, page: d.page, errors: d.errors, blocks: d.blocks, notBefore: 0 };
  if (d.page === 1 && job.attemptsMade === 0) rs.loop.counters.stats.jobs++;
  await checkEngineOpen(cx, rs, d, queue);

  const step = await rs.loop.step(rs.loop.engine(d.engine), task);
  if (step.kind === "interrupted") throw new Error("page interrupted");
  const verdict = step.decision;
  if (verdict.pauseMs > 0) await queue.rateLimit(verdict.pauseMs);
  const next = await queueNextPage(queue, d, verdict);
  const skipped = step.kind === "skipped";
  const status = skipped ? "skipped" : step.result.verdict.status;
  cx.o.onPage?.({ run: d.run, engine: d.engine, page: d.page, status, skipped });
  if (skipped) return { status, records: step.records, next: next !== undefined };
  const r = step.result;
  if (r.verdict.status === "ok" || r.verdict.status === "empty")
    return { status, records: r.verdict.records.length, next: next !== undefined };
  return failPage(cx, job, r, verdict);
}

/** Throws when the engine is given up for the run (the job fails for good) or its shared breaker is open (rate limit). */
async function checkEngineOpen(cx: WorkerContext, rs: RunState, d: PageJob, queue: Queue<PageJob>): Promise<void> {
  const before = await cx.shared.read(d.run, d.engine);
  if (before.givenUp !== null) {
    rs.loop.counters.left(d.engine);
    throw new cx.bull.UnrecoverableError(`${d.engine} given up for run ${d.run}: ${before.givenUp}`);
  }
  const pause = before.breaker ? new CircuitBreaker(cx.breakerOptions, before.breaker).waitMs(Date.now()) : 0;
  if (pause > 0) {
    await queue.rateLimit(pause);
    throw cx.bull.Worker.RateLimitError();
  }
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

/** A listener for an engine's Redis connection errors (queue or BullMQ worker): the user is told, once per kind. */
function connectionTrouble(o: QueueWorkerOptions, engine: string): (err: Error) => void {
  return (err) => o.onConnectionError?.(`${engine}: ${err.message}`);
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
  worker.on("error", connectionTrouble(o, s.name));
  worker.on("failed", (job, err) => {
    // Page outcomes (blocked, errors) are reported by the policy's events; this is for exceptions.
    if (!job || err instanceof bull.UnrecoverableError || cx.pageFailures.has(err)) return;
    const attempts = job.opts.attempts ?? 1;
    o.onJobError?.(`${job.data.engine} "${job.data.query.source.text}" page ${job.data.page}: ${err.message}`, job.attemptsMade < attempts);
  });
  return worker;
}

/** Closes the worker's runs in the store and sums them up. */
async function finishRuns(cx: WorkerContext, started: number): Promise<Omit<QueueWorkerSummary, "eventLoopLagP99Ms">> {
  const summary: Omit<QueueWorkerSummary, "eventLoopLagP99Ms"> = {
    worker: cx.name,
    durationMs: Date.now() - started,
    runs: {},
    wrappers: {},
  };
  for (const [run, running] of cx.runs) {
    const rs = await running;
    const { status, stats } = rs.loop.finish(false);
    await finishRun(cx.o.store, rs.runId, status, stats);
    summary.runs[run] = { runId: rs.runId, status, stats };
    Object.assign(summary.wrappers, rs.wrappers.used);
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
