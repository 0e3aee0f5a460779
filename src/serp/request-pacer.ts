import type { Politeness } from "./engines.js";

/**
 * The engine-side rate limit, held at the request: a lease per engine, taken by the loader right before
 * the request leaves (`LoadOptions.beforeSend`: after the browser, the context and the tab are ready), so
 * that the requests the engine sees are spaced by its gap however many tasks (or workers) are in flight.
 * The schedulers (the lane dispatcher, BullMQ) only decide what starts; the lease is what spaces what the
 * engine receives.
 *
 * A lease is granted only when the engine's slot is free *now* (then the next is `gap + sendSlackMs(gap)`
 * later), never reserved ahead: a reserved slot would be used when its timer fires, and a timer that fires
 * late on a busy event loop would put two requests closer than the gap. The wait between asks is a hint.
 *
 * What it cannot hold: a process stalled *between* its grant and the request's bytes leaving (a starved
 * worker on an overloaded machine) sends late, next to the following grant's request. The slack covers the
 * loader's usual way to the network, not a stall of seconds.
 */
export interface RequestPacer {
  /** Resolves when a request to `engine` may leave now (the next one no sooner than `gapMs` later). */
  take(engine: string, gapMs: number, signal?: AbortSignal): Promise<void>;
}

/**
 * How unevenly requests take their way from the lease to the engine (ms): a browser navigation reaches the
 * server 57–170 ms after it is asked for (30 loads of a local page, median 65: Playwright, then Chromium), and a
 * shared pacer's grant takes its way back. Each slot is longer than the engine's gap by this much, so that the
 * gap holds at the engine — or by a quarter of the gap when that is less: a slot of 40 ms made 140 would slow a
 * fast engine 3.5 times, where against engines' delays of seconds the slack costs a few per cent of the rate.
 */
export const SEND_SLACK_MS = 100;

/** The slack added to a slot of `gapMs` (see `SEND_SLACK_MS`). */
export function sendSlackMs(gapMs: number): number {
  return Math.min(SEND_SLACK_MS, Math.round(gapMs / 4));
}

/** The shortest gap between two requests to an engine: its minimum delay, or a minute over its requests per minute. */
export function requestGapMs(p: Politeness): number {
  const perMinute = p.requestsPerMinute > 0 ? Math.ceil(60_000 / p.requestsPerMinute) : 0;
  return Math.max(p.minDelayMs, perMinute);
}

/**
 * Ask for the lease until it is granted: `ask` returns 0 when granted, else the milliseconds before
 * asking again makes sense. One loop for every pacer (local clock, Redis).
 */
export async function leaseLoop(ask: () => Promise<number> | number, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const wait = await ask();
    if (wait <= 0) return;
    if (signal?.aborted) return; // the caller drops the request (its page is left for the next run)
    await pause(wait, signal);
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(1, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The pacer of one process: the engines' next free times on the local clock. */
export class LocalPacer implements RequestPacer {
  private readonly next = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  take(engine: string, gapMs: number, signal?: AbortSignal): Promise<void> {
    if (gapMs <= 0) return Promise.resolve();
    return leaseLoop(() => {
      const t = this.now();
      const free = this.next.get(engine) ?? Number.NEGATIVE_INFINITY;
      if (t < free) return free - t;
      this.next.set(engine, t + gapMs + sendSlackMs(gapMs));
      return 0;
    }, signal);
  }
}
