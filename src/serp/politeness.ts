import pLimit, { type LimitFunction } from "p-limit";
import type { Politeness } from "./engines.js";

/**
 * Per-engine pacing and back-off, as pure state machines over an injected clock (milliseconds),
 * so the harvest scheduler can ask "when may this engine be asked next?" without sleeping in a slot.
 */

/**
 * Minimum delay between request starts and requests per minute (pacing, on the clock given), and requests in
 * flight (a p-limit of the engine's `maxConcurrent`), for one engine: the lane scheduler's view of when the
 * engine may take another page.
 */
export class EngineGate {
  private lastStart = Number.NEGATIVE_INFINITY;
  private previousStart = Number.NEGATIVE_INFINITY;
  private readonly starts: number[] = [];
  private readonly limit: LimitFunction;

  constructor(private readonly p: Politeness) {
    this.limit = pLimit(Math.max(1, p.maxConcurrent));
  }

  /** Milliseconds until a request may start (0: now; Infinity: wait for one in flight to finish). */
  waitMs(now: number): number {
    if (this.limit.activeCount + this.limit.pendingCount >= this.limit.concurrency) return Number.POSITIVE_INFINITY;
    let wait = Math.max(0, this.lastStart + this.p.minDelayMs - now);
    if (this.p.requestsPerMinute > 0) {
      while (this.starts.length > 0 && this.starts[0]! <= now - 60_000) this.starts.shift();
      if (this.starts.length >= this.p.requestsPerMinute) wait = Math.max(wait, this.starts[0]! + 60_000 - now);
    }
    return wait;
  }

  /** Run a page task started at `now`: it counts for pacing, and holds one of the engine's places in flight until it settles. */
  run<T>(now: number, task: () => Promise<T>): Promise<T> {
    this.previousStart = this.lastStart;
    this.lastStart = now;
    this.starts.push(now);
    return this.limit(task);
  }

  /** The task started at `at` sent no request after all (its page was fresh enough to skip): not counted for pacing. */
  cancel(at: number): void {
    if (this.lastStart === at) this.lastStart = this.previousStart;
    const i = this.starts.lastIndexOf(at);
    if (i >= 0) this.starts.splice(i, 1);
  }

  get active(): number {
    return this.limit.activeCount;
  }
}

export interface BreakerOptions {
  /** Consecutive blocks that pause the engine. */
  threshold: number;
  /** First pause; each further pause doubles it. */
  cooldownMs: number;
  /** Pauses before the engine is given up for the rest of the run. */
  maxTrips: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { threshold: 3, cooldownMs: 5 * 60_000, maxTrips: 3 };

/** A breaker's state, to keep it elsewhere (shared through Redis by the workers of a distributed harvest). */
export interface BreakerState {
  consecutive: number;
  trips: number;
  openUntil: number;
  halfOpen: boolean;
  gaveUp: boolean;
}

export type BreakerEvent = { kind: "paused"; untilMs: number; trip: number } | { kind: "gave-up"; trips: number };

/**
 * A circuit breaker per engine: after `threshold` consecutive blocks the engine pauses for a cooldown
 * (doubling each time) while other engines go on; after the pause one probe request is let through
 * (half-open): a success closes the breaker, a block pauses it again. After `maxTrips` pauses the
 * engine is given up for the run (its remaining queries are left for the next run).
 */
export class CircuitBreaker {
  private consecutive = 0;
  private trips = 0;
  private openUntil = 0;
  private halfOpen = false;
  private gaveUp = false;

  constructor(
    private readonly o: BreakerOptions,
    state?: BreakerState,
  ) {
    if (state)
      ({
        consecutive: this.consecutive,
        trips: this.trips,
        openUntil: this.openUntil,
        halfOpen: this.halfOpen,
        gaveUp: this.gaveUp,
      } = state);
  }

  get state(): BreakerState {
    return { consecutive: this.consecutive, trips: this.trips, openUntil: this.openUntil, halfOpen: this.halfOpen, gaveUp: this.gaveUp };
  }

  /** Milliseconds until the engine may be asked again (0: now; Infinity: given up). */
  waitMs(now: number): number {
    if (this.gaveUp) return Number.POSITIVE_INFINITY;
    return Math.max(0, this.openUntil - now);
  }

  /** After a pause, only one probe request at a time. */
  get probing(): boolean {
    return this.halfOpen;
  }

  get givenUp(): boolean {
    return this.gaveUp;
  }

  /** A page that was not blocked: the engine is answering again. */
  recordSuccess(): void {
    this.consecutive = 0;
    this.halfOpen = false;
    this.trips = 0;
  }

  /** Open at once, as if `threshold` blocks came in a row (a failure that leaves no doubt). */
  trip(now: number): BreakerEvent | null {
    if (!this.halfOpen) this.consecutive = Math.max(this.consecutive, this.o.threshold - 1);
    return this.recordBlock(now);
  }

  recordBlock(now: number): BreakerEvent | null {
    if (this.gaveUp) return null;
    this.consecutive++;
    if (!this.halfOpen && this.consecutive < this.o.threshold) return null;
    this.trips++;
    this.consecutive = 0;
    if (this.trips > this.o.maxTrips) {
      this.gaveUp = true;
      return { kind: "gave-up", trips: this.trips - 1 };
    }
    this.openUntil = now + this.o.cooldownMs * 2 ** (this.trips - 1);
    this.halfOpen = true;
    return { kind: "paused", untilMs: this.openUntil, trip: this.trips };
  }
}

/** Exponential back-off with full jitter: a delay in [base·2^(attempt−1) / 2, base·2^(attempt−1)], capped. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
