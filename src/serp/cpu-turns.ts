import { setImmediate as nextTurn } from "node:timers/promises";
import pLimit from "p-limit";

/**
 * Reading a page (parse, wrappers, classifier) is CPU work on the event loop. When several pages' answers arrive
 * together, reading them back to back holds the loop for all of them, and timers (a queue job's lock renewal, the
 * pacer's leases, a run's heartbeat) fire late. Here such work runs one piece at a time, each in an event-loop turn
 * of its own (an immediate queued while immediates run waits for the next turn), so timers fire between pages.
 */
export class CpuTurns {
  private readonly one = pLimit(1);

  /** `work` in a turn of its own, after the work queued before it. */
  run<T>(work: () => T): Promise<T> {
    return this.one(async () => {
      await nextTurn();
      return work();
    });
  }
}

/** `work` in a turn of `turns` (absent: at once, in this turn). */
export function inTurn<T>(turns: CpuTurns | null | undefined, work: () => T): Promise<T> {
  return turns ? turns.run(work) : Promise.resolve().then(work);
}
