/**
 * Spacing of requests per host: requests to one host go one after another, each starting at least
 * `delayMs` after the previous one *actually started*, while other hosts proceed in parallel.
 *
 * The spacing is measured from the moment a request is let go, not from when its slot was booked: if
 * the process was busy meanwhile (a long parse blocks the event loop), timers booked earlier all fire
 * at once, and slot booking would send them back to back. Here each waiter, once woken, checks the
 * clock against the previous start and sleeps again if needed.
 */
export class HostDelay {
  private readonly lastStart = new Map<string, number>();
  /** Per host, the promise that settles when the latest waiter has been let go (or gave up). */
  private readonly tail = new Map<string, Promise<void>>();

  /** Wait until a request to `host` may start, then record that it starts now. */
  async wait(host: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    const previous = this.tail.get(host) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const next = previous.then(() => mine);
    this.tail.set(host, next);
    try {
      await abortable(previous, signal);
      for (;;) {
        const last = this.lastStart.get(host);
        const ms = last === undefined ? 0 : last + delayMs - Date.now();
        if (ms <= 0) break;
        await sleep(ms, signal);
      }
      this.lastStart.set(host, Date.now());
    } finally {
      release();
      if (this.tail.get(host) === next) void next.then(() => this.tail.get(host) === next && this.tail.delete(host));
    }
  }
}

function abortable(p: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
