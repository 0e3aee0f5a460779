import { randomUUID } from "node:crypto";
import type { BreakerState } from "../serp/index.js";

/**
 * What the workers of a run know together about an engine: its circuit breaker (blocks in a row,
 * pauses), its network failures in a row, and whether it is given up for the run. Kept in Redis and
 * changed under a short lock, so that blocks seen by three workers count as three blocks in a row,
 * as they would in one process.
 */

export interface EngineShared {
  breaker: BreakerState | null;
  downStreak: number;
  givenUp: string | null;
}

/** The Redis commands used here, as BullMQ's client offers them. */
export interface RedisLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: { PX?: number; EX?: number }): Promise<string | null>;
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
  runCommand(name: string, args: unknown[]): Promise<unknown>;
}

const LOCK = "bitextLock";
const UNLOCK = "bitextUnlock";
const LOCK_MS = 10_000;
/** Shared state outlives a run by this much (then Redis forgets it). */
const KEEP_S = 7 * 24 * 3600;

export class SharedEngineState {
  constructor(private readonly redis: RedisLike) {
    redis.defineCommand(LOCK, { numberOfKeys: 1, lua: "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])" });
    redis.defineCommand(UNLOCK, {
      numberOfKeys: 1,
      lua: "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
    });
  }

  async read(run: string, engine: string): Promise<EngineShared> {
    return parse(await this.redis.get(key(run, engine)));
  }

  /**
   * Change the state with `fn` (synchronous: the lock is held only for it) and return what it returns.
   * A lock left by a worker that died expires after a few seconds.
   */
  async update<T>(run: string, engine: string, fn: (s: EngineShared) => { state: EngineShared; result: T }): Promise<T> {
    const k = key(run, engine);
    const token = randomUUID();
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      if ((await this.redis.runCommand(LOCK, [`${k}:lock`, token, LOCK_MS])) === "OK") break;
      await new Promise((r) => setTimeout(r, wait));
    }
    try {
      const { state, result } = fn(parse(await this.redis.get(k)));
      await this.redis.set(k, JSON.stringify(state), { EX: KEEP_S });
      return result;
    } finally {
      await this.redis.runCommand(UNLOCK, [`${k}:lock`, token]);
    }
  }
}

function key(run: string, engine: string): string {
  return `bitext:engine-state:${run}:${engine}`;
}

function parse(raw: string | null): EngineShared {
  return raw ? (JSON.parse(raw) as EngineShared) : { breaker: null, downStreak: 0, givenUp: null };
}
