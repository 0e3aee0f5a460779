import type { Job } from "bullmq";
import type { ScheduledRun, SchedulerEvent } from "../serp/index.js";
import { loadBullmq, type RedisAddress } from "./connection.js";
import { openQueue } from "./queues.js";

/**
 * The daemon's cron runs with a queue: each run is a BullMQ job scheduler on one schedule queue, so
 * that however many daemons run, each tick of a run's cron makes one job, taken by one daemon, which
 * enqueues the run's pages (`bitext worker`s fetch them). The tick's time names the queue run, so an
 * enqueue repeated for the same tick adds nothing.
 */

export const SCHEDULE_QUEUE = "bitext-schedule";

interface TickData {
  run: string;
}

export interface QueueScheduleOptions {
  redis: RedisAddress;
  runs: readonly ScheduledRun[];
  /** Enqueue the pages of one tick of `run` as the queue run `runName`. */
  enqueue: (run: ScheduledRun, runName: string) => Promise<unknown>;
  /** Enqueue every run once now and return (the daemon's --once). */
  once?: boolean;
  signal?: AbortSignal;
  onEvent: (e: SchedulerEvent) => void;
}

/** The queue run of a tick: the run's name and the tick's time. */
export function tickRunName(run: string, tickMs: number): string {
  return `${run}@${new Date(tickMs).toISOString()}`;
}

export async function runQueueSchedules(o: QueueScheduleOptions): Promise<void> {
  const bull = await loadBullmq();
  if (o.once) {
    for (const run of o.runs) await tick(o, run, Date.now());
    return;
  }
  const queue = await openQueue<TickData>(bull, SCHEDULE_QUEUE, o.redis, { waitMs: 10_000 });
  // This daemon's runs replace whatever schedules an earlier config left (the same config on every daemon).
  const wanted = new Set(o.runs.map((r) => r.name));
  for (const s of await queue.getJobSchedulers(0, -1)) if (s.key && !wanted.has(s.key)) await queue.removeJobScheduler(s.key);
  for (const run of o.runs) {
    const s = await queue.upsertJobScheduler(
      run.name,
      { pattern: run.cron, ...(run.timezone ? { tz: run.timezone } : {}) },
      { name: run.name, data: { run: run.name } },
    );
    o.onEvent({ kind: "scheduled", run: run.name, next: s?.opts.delay !== undefined ? new Date(Date.now() + s.opts.delay) : null });
  }
  const worker = new bull.Worker<TickData>(
    SCHEDULE_QUEUE,
    async (job: Job<TickData>) => {
      const run = o.runs.find((r) => r.name === job.data.run);
      if (!run) return { skipped: `no run ${job.data.run} in this daemon's config` };
      // A scheduler's job id ends with its tick's time (epoch ms): the same on every daemon.
      const tickMs = Number(/(\d+)$/.exec(job.id ?? "")?.[1] ?? job.timestamp);
      return tick(o, run, tickMs);
    },
    { connection: o.redis, concurrency: 1 },
  );
  await new Promise<void>((resolve) => {
    if (o.signal?.aborted) resolve();
    o.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await worker.close();
  await queue.close();
}

async function tick(o: QueueScheduleOptions, run: ScheduledRun, at: number): Promise<unknown> {
  const started = Date.now();
  o.onEvent({ kind: "started", run: run.name });
  try {
    const outcome = await o.enqueue(run, tickRunName(run.name, at));
    o.onEvent({ kind: "finished", run: run.name, ms: Date.now() - started, outcome });
    return outcome;
  } catch (err) {
    o.onEvent({ kind: "failed", run: run.name, ms: Date.now() - started, error: (err as Error).message });
    throw err;
  }
}
