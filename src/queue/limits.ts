import type { Politeness } from "../serp/index.js";

/**
 * An engine's politeness (engine definition, or the config file over it) as BullMQ's limits on the
 * engine's queue, kept in Redis so that they hold over all workers together.
 *
 * BullMQ's limiter lets `max` jobs start per window of `duration`, a fixed window: with `max` > 1,
 * twice `max` could start within one window's length across a window boundary. So every limit is
 * turned into one start per interval — the minimum delay, or a minute over the requests per
 * minute, whichever is longer — plus a tenth: the limiter spaces job *starts*, and the time from a
 * job's start to its request varies by some milliseconds between workers; the tenth absorbs that,
 * so the requests the engine sees keep both limits over any window.
 */
export interface QueueLimits {
  /** One job start per this many ms over all workers (null: no limit). */
  intervalMs: number | null;
  /** Jobs in flight over all workers. */
  concurrency: number;
}

/** Job starts are spaced by the engine's interval times this (see above). */
export const START_MARGIN = 1.1;

export function queueLimits(p: Politeness): QueueLimits {
  const perMinute = p.requestsPerMinute > 0 ? Math.ceil(60_000 / p.requestsPerMinute) : 0;
  const interval = Math.max(p.minDelayMs, perMinute);
  return { intervalMs: interval > 0 ? Math.ceil(interval * START_MARGIN) : null, concurrency: Math.max(1, p.maxConcurrent) };
}
