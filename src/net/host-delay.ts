/**
 * Spacing of requests per host: each caller reserves the next free start time of its host and waits for it,
 * so concurrent callers for one host start at least `delayMs` apart while other hosts proceed in parallel.
 */
export class HostDelay {
  private readonly nextStart = new Map<string, number>();

  /** Wait until a request to `host` may start, spaced `delayMs` after the previous reservation. */
  async wait(host: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextStart.get(host) ?? 0);
    this.nextStart.set(host, slot + delayMs);
    const wait = slot - now;
    if (wait > 0) await sleep(wait, signal);
  }
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
