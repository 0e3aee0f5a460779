/**
 * What runs next: one dispatcher for the project's three schedulers — the harvest (a lane per engine,
 * paced by its politeness and breaker), the site crawl (one lane, bounded by the page limit) and the
 * fetcher's per-host spacing (a lane per host). Tasks wait in lanes; the dispatcher starts them while
 * fewer than `concurrency` are in flight, choosing round-robin among lanes that may start one now (a
 * lane says when it is ready; a task may ask not to start before a time, for back-off), so a paused or
 * slow lane never holds a slot while others can go on. It reads the clock again after every wait, so
 * timers that fire late (a busy event loop) never let tasks start too close together.
 * It knows nothing of pages, hosts or browsers.
 */

export interface Timed {
  /** Epoch ms before which the task may not start (back-off); 0: any time. */
  notBefore: number;
}

export interface Lane<T extends Timed> {
  queue: T[];
  /** Milliseconds until the lane may start a task (0: now; Infinity: only after a task in flight ends). */
  readyIn(now: number): number;
  /** Milliseconds the lane is paused for (a blocked engine resting), its pacing aside; absent: never paused. */
  pausedFor?(now: number): number;
}

export type Pick = { lane: number; index: number } | { waitMs: number };

/**
 * The next task to start at `now`: the first due task of the first ready lane from `turn` on; or how
 * long to wait for one (Infinity: until a task in flight ends).
 */
export function pickNext<T extends Timed>(lanes: readonly Lane<T>[], now: number, turn: number): Pick {
  let soonest = Number.POSITIVE_INFINITY;
  for (let k = 0; k < lanes.length; k++) {
    const li = (turn + k) % lanes.length;
    const lane = lanes[li]!;
    if (lane.queue.length === 0) continue;
    const due = firstDue(lane.queue, now);
    const wait = Math.max(lane.readyIn(now), due.waitMs);
    if (wait <= 0) return { lane: li, index: due.index };
    soonest = Math.min(soonest, wait);
  }
  return { waitMs: soonest };
}

/** The first task of a queue that may start at `now` (index −1 and the wait for the soonest when none). */
function firstDue<T extends Timed>(queue: readonly T[], now: number): { index: number; waitMs: number } {
  let waitMs = Number.POSITIVE_INFINITY;
  for (const [i, t] of queue.entries()) {
    if (t.notBefore <= now) return { index: i, waitMs: 0 };
    waitMs = Math.min(waitMs, t.notBefore - now);
  }
  return { index: -1, waitMs };
}

export interface ScheduleOptions<T extends Timed> {
  /** The lanes; the array may grow or shrink between starts (the fetcher adds a lane per new host). */
  lanes: readonly Lane<T>[];
  concurrency: number;
  signal?: AbortSignal;
  /**
   * With nothing in flight, the longest pause worth waiting out: when every lane with tasks is paused longer
   * (`pausedFor`: blocked engines resting for many minutes; pacing does not count), the schedule ends and what is
   * queued stays queued.
   */
  maxIdleMs?: number;
  /**
   * Start a task taken off its lane's queue: a promise occupies a slot until it settles; null means the
   * task was dealt with at once (nothing in flight). Tasks put back on a queue are seen on the next turn.
   */
  start(lane: number, task: T, now: number): Promise<void> | null;
  /** Called once when the signal aborts, before waiting for the tasks in flight (e.g. close the browser). */
  onAbort?: () => Promise<void>;
  /** Clock (epoch ms). */
  now?: () => number;
}

/**
 * Runs the lanes' tasks until every queue is empty and nothing is in flight (or what is queued can never
 * start), or the signal aborts. A task whose promise rejects stops the dispatching; the rejection is
 * rethrown once the tasks in flight have settled (after an abort, rejections are expected — the browser
 * was closed under them — and ignored). `poke` makes a waiting dispatcher look again at once (a task was
 * queued or withdrawn from outside).
 */
export class Dispatcher<T extends Timed> {
  private readonly inflight = new Set<Promise<void>>();
  private wake: (() => void) | null = null;
  private failure: { error: unknown } | null = null;
  private turn = 0;
  private readonly now: () => number;

  constructor(private readonly o: ScheduleOptions<T>) {
    this.now = o.now ?? Date.now;
  }

  /** Look again now: a task was queued or withdrawn, a lane's readiness changed. */
  poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  async run(): Promise<{ interrupted: boolean }> {
    const onAbort = () => this.poke();
    this.o.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      while (!this.o.signal?.aborted && this.failure === null) {
        const step = this.step();
        if (step === "done") break;
        if (step !== "started") await this.waitFor(step);
      }
      const interrupted = this.o.signal?.aborted ?? false;
      if (interrupted) await this.o.onAbort?.();
      await Promise.all(this.inflight);
      if (this.failure !== null) throw (this.failure as { error: unknown }).error;
      return { interrupted };
    } finally {
      this.o.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Start the next task if one may start: "started", "done", or how long to wait (ms; Infinity: for a task to end). */
  private step(): "started" | "done" | number {
    const { lanes, concurrency } = this.o;
    if (this.inflight.size === 0 && lanes.every((l) => l.queue.length === 0)) return "done";
    if (this.inflight.size >= concurrency) return Number.POSITIVE_INFINITY;
    const t = this.now();
    const pick = pickNext(lanes, t, this.turn);
    if ("waitMs" in pick) {
      // Nothing in flight and no lane will ever be ready: what is queued stays queued (the caller's to count).
      if (this.inflight.size === 0 && (!Number.isFinite(pick.waitMs) || this.pausedTooLong(t))) return "done";
      return pick.waitMs;
    }
    this.turn = (pick.lane + 1) % lanes.length;
    const task = lanes[pick.lane]!.queue.splice(pick.index, 1)[0]!;
    const running = this.o.start(pick.lane, task, t);
    if (running !== null) this.track(running);
    return "started";
  }

  /** Is every lane with tasks paused for longer than the schedule waits? */
  private pausedTooLong(now: number): boolean {
    const max = this.o.maxIdleMs;
    if (max === undefined) return false;
    return this.o.lanes.every((l) => l.queue.length === 0 || (l.pausedFor?.(now) ?? 0) > max);
  }

  private track(running: Promise<void>): void {
    const p: Promise<void> = running
      .catch((error) => {
        if (!this.o.signal?.aborted) this.failure ??= { error };
      })
      .finally(() => {
        this.inflight.delete(p);
        this.poke();
      });
    this.inflight.add(p);
  }

  /** Sleep until `ms` pass or something pokes the dispatcher (a task ends, a task is queued, an abort). */
  private waitFor(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(resolve, Math.max(1, ms)) : null;
      this.wake = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Run the lanes' tasks to the end (see `Dispatcher`). */
export function schedule<T extends Timed>(o: ScheduleOptions<T>): Promise<{ interrupted: boolean }> {
  return new Dispatcher(o).run();
}
