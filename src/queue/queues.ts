import type { Queue } from "bullmq";
import { SettingError, UserError } from "../errors.js";
import type { Politeness } from "../serp/index.js";
import { type Bullmq, describeRedis, type RedisAddress } from "./connection.js";
import { queueLimits } from "./limits.js";

/**
 * Opening an engine's queue, and setting its limits. A command fails with one line when Redis cannot be reached
 * within `waitMs` (a worker too, at its start: once running, it waits through Redis restarts instead).
 */

/** Opening a queue was stopped by the signal (Ctrl-C) before Redis answered. */
export class QueueOpenAborted extends Error {}

export async function openQueue<T>(
  bull: Bullmq,
  name: string,
  redis: RedisAddress,
  options: { waitMs?: number; signal?: AbortSignal } = {},
): Promise<Queue<T>> {
  const queue = new bull.Queue<T>(name, { connection: redis });
  let lastError: Error | null = null;
  queue.on("error", (err: Error) => {
    lastError = err;
  });
  const waitMs = options.waitMs ?? Number.POSITIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      queue.waitUntilReady(),
      new Promise((_, reject) => {
        if (Number.isFinite(waitMs)) timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(waitMs / 1000)} s`)), waitMs);
        if (options.signal?.aborted) reject(new QueueOpenAborted());
        options.signal?.addEventListener("abort", () => reject(new QueueOpenAborted()), { once: true });
      }),
    ]);
  } catch (err) {
    // Closing a queue that never connected waits for the connection: let it go in the background.
    void queue.close().catch(() => {});
    if (err instanceof QueueOpenAborted) throw err;
    const why = (lastError as Error | null)?.message ?? (err as Error).message;
    if (/could not load the optional 'ioredis'/.test(why))
      throw new SettingError("queue", "needs the optional package ioredis beside bullmq (npm install ioredis)", { kind: "queue-packages" });
    throw new UserError(`${describeRedis(redis)}: cannot reach Redis (${why.split("\n")[0]})`);
  } finally {
    clearTimeout(timer);
  }
  return queue;
}

/** The engine's politeness as its queue's limits over all workers (kept in Redis: the last writer's stand). */
export async function applyLimits(queue: Queue<unknown>, p: Politeness): Promise<void> {
  const limits = queueLimits(p);
  await queue.setGlobalConcurrency(limits.concurrency);
  if (limits.intervalMs !== null) await queue.setGlobalRateLimit(1, limits.intervalMs);
  else await queue.removeGlobalRateLimit();
}
