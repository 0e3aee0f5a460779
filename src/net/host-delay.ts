import { Dispatcher, type Lane } from "./scheduler.js";

/**
 * Spacing of requests per host: requests to one host go one after another, each starting at least
 * `delayMs` after the previous one *actually started*, while other hosts proceed in parallel.
 *
 * A lane per host in the shared dispatcher (`scheduler.ts`): a waiter is a task, let go (started) when its
 * host's lane is ready. The spacing is measured from the moment a request is let go, not from when its
 * slot was booked: if the process was busy meanwhile (a long parse blocks the event loop), timers booked
 * earlier all fire at once; the dispatcher reads the clock again before letting each one go.
 */

interface Waiter {
  notBefore: number;
  delayMs: number;
  /** Let the waiter go; resolves once it has resumed and recorded its start. */
  go(): Promise<void>;
}

interface HostLane extends Lane<Waiter> {
  /** When the last request to the host actually started (its waiter resumed). */
  lastStart: number;
  /** A waiter was let go and has not resumed yet: the next one waits for its start time. */
  releasing: boolean;
}

export class HostDelay {
  private readonly hosts = new Map<string, HostLane>();
  /** Hosts with waiters (a host's lane leaves when its queue empties, so many hosts cost nothing). */
  private readonly lanes: HostLane[] = [];
  private dispatcher: Dispatcher<Waiter> | null = null;

  /** Wait until a request to `host` may start, then record that it starts now. */
  async wait(host: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    const lane = this.laneOf(host);
    let resumed!: () => void;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = lane.queue.indexOf(waiter);
        if (i < 0) return;
        lane.queue.splice(i, 1);
        reject(signal?.reason);
        this.dispatcher?.poke(); // the next waiter may now be ready
      };
      const waiter: Waiter = {
        notBefore: 0,
        delayMs,
        go: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
          return new Promise<void>((r) => {
            resumed = r;
          });
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      lane.queue.push(waiter);
      if (!this.lanes.includes(lane)) this.lanes.push(lane);
      this.dispatch();
    });
    // The start is when the caller actually goes on, which a busy event loop may delay past the moment it was let go.
    lane.lastStart = Date.now();
    resumed();
  }

  private laneOf(host: string): HostLane {
    let lane = this.hosts.get(host);
    if (!lane) {
      const created: HostLane = {
        queue: [],
        lastStart: Number.NEGATIVE_INFINITY,
        releasing: false,
        readyIn: (now) => (created.releasing ? Number.POSITIVE_INFINITY : created.lastStart + (created.queue[0]?.delayMs ?? 0) - now),
      };
      lane = created;
      this.hosts.set(host, lane);
    }
    return lane;
  }

  /** Run the dispatcher while waiters are queued (started on demand; it ends when they are all let go). */
  private dispatch(): void {
    if (this.dispatcher) {
      this.dispatcher.poke();
      return;
    }
    const dispatcher = new Dispatcher<Waiter>({
      lanes: this.lanes,
      concurrency: Number.POSITIVE_INFINITY,
      start: (li, waiter) => {
        const lane = this.lanes[li]!;
        if (lane.queue.length === 0) this.lanes.splice(li, 1);
        lane.releasing = true;
        return waiter.go().finally(() => {
          lane.releasing = false;
        });
      },
    });
    this.dispatcher = dispatcher;
    void dispatcher.run().finally(() => {
      this.dispatcher = null;
      for (let i = this.lanes.length - 1; i >= 0; i--) if (this.lanes[i]!.queue.length === 0) this.lanes.splice(i, 1);
      if (this.lanes.length > 0) this.dispatch();
    });
  }
}
