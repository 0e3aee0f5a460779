import { type Politeness, requestGapMs } from "../serp/index.js";

/**
 * An engine's politeness (engine definition, or the config file over it) as BullMQ's limits on the
 * engine's queue, kept in Redis so that they hold over all workers together.
 *
 * BullMQ's limiter lets `max` jobs start per window of `duration`, a fixed window: with `max` > 1,
 * twice `max` could start within one window's length across a window boundary. So every limit is
 * turned into one start per interval — the minimum delay, or a minute over the requests per
 * minute, whichever is longer. This is only a coarse guard (jobs do not pile up waiting in workers):
 * the limiter spaces job *starts*, not requests; what the engine sees is spaced by the request lease
 * each page takes right before its request (`serp/request-pacer.ts`, `queue/request-pacer.ts`).
 */
export interface QueueLimits {
  /** One job start per this many ms over all workers (null: no limit). */
  intervalMs: number | null;
  /** Jobs in flight over all workers. */
  concurrency: number;
}

export function queueLimits(p: Politeness): QueueLimits {
  const interval = requestGapMs(p);
  return { intervalMs: interval > 0 ? interval : null, concurrency: Math.max(1, p.maxConcurrent) };
}
