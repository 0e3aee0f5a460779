/**
 * What runs next: a dispatcher over lanes (the harvest's engines), each with a queue of tasks and its
 * own pacing. It starts tasks while fewer than `concurrency` are in flight, choosing round-robin among
 * lanes that may start one now (the lane's gate and breaker say when; a task may ask not to start
 * before a time, for back-off), so a paused or slow lane never holds a slot while others can go on.
 * It knows nothing of pages or browsers.
 */

export interface Timed {
  /** Epoch ms before which the task may not start (back-off). */
  notBefore: number;
}

export interface Lane<T extends Timed> {
  queue: T[];
  /** Milliseconds until the lane may start a task (0: now; Infinity: only after a task in flight ends). */
  readyIn(now: number): number;
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
    let index = -1;
    let taskWait = Number.POSITIVE_INFINITY;
    for (const [i, t] of lane.queue.entries()) {
      if (t.notBefore <= now) {
        index = i;
        taskWait = 0;
        break;
      }
      taskWait = Math.min(taskWait, t.notBefore - now);
    }
    const wait = Math.max(lane.readyIn(now), taskWait);
    if (wait <= 0) return { lane: li, index };
    soonest = Math.min(soonest, wait);
  }
  return { waitMs: soonest };
}

export interface ScheduleOptions<T extends Timed> {
  lanes: readonly Lane<T>[];
  concurrency: number;
  signal?: AbortSignal;
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
 * Run until every queue is empty and nothing is in flight (or what is queued can never start), or the
 * signal aborts. A task whose promise
 * rejects stops the dispatching; the rejection is rethrown once the tasks in flight have settled
 * (after an abort, rejections are expected — the browser was closed under them — and ignored).
 */
export async function schedule<T extends Timed>(o: ScheduleOptions<T>): Promise<{ interrupted: boolean }> {
  const now = o.now ?? Date.now;
  const inflight = new Set<Promise<void>>();
  let wake: (() => void) | null = null;
  const signalWake = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const waitForEvent = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(resolve, Math.max(1, ms)) : null;
      wake = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  o.signal?.addEventListener("abort", signalWake, { once: true });
  let failure: { error: unknown } | null = null;
  let turn = 0;
  try {
    while (!o.signal?.aborted && failure === null) {
      if (inflight.size === 0 && o.lanes.every((l) => l.queue.length === 0)) break;
      if (inflight.size >= o.concurrency) {
        await waitForEvent(Number.POSITIVE_INFINITY);
        continue;
      }
      const t = now();
      const pick = pickNext(o.lanes, t, turn);
      if ("waitMs" in pick) {
        // Nothing in flight and no lane will ever be ready: what is queued stays queued (the caller's to count).
        if (inflight.size === 0 && !Number.isFinite(pick.waitMs)) break;
        await waitForEvent(pick.waitMs);
        continue;
      }
      turn = (pick.lane + 1) % o.lanes.length;
      const task = o.lanes[pick.lane]!.queue.splice(pick.index, 1)[0]!;
      const running = o.start(pick.lane, task, t);
      if (running === null) continue;
      const p: Promise<void> = running
        .catch((error) => {
          if (!o.signal?.aborted) failure ??= { error };
        })
        .finally(() => {
          inflight.delete(p);
          signalWake();
        });
      inflight.add(p);
    }
    const interrupted = o.signal?.aborted ?? false;
    if (interrupted) await o.onAbort?.();
    await Promise.all(inflight);
    if (failure !== null) throw (failure as { error: unknown }).error;
    return { interrupted };
  } finally {
    o.signal?.removeEventListener("abort", signalWake);
  }
}
