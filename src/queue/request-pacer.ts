import { leaseLoop, type RequestPacer, sendSlackMs } from "../serp/index.js";
import type { RedisLike } from "./shared-state.js";

/**
 * The request pacer of a distributed harvest: each engine's next free time kept in Redis and read on
 * Redis' clock, so the workers of every machine share one lease per engine (see `serp/request-pacer.ts`).
 * The script grants the lease when the engine is free now and moves its next free time `gap` on; else
 * it answers how long until then. One atomic step: two workers never both get the same slot.
 *
 * The lease is granted on Redis' clock, the request leaves on the worker's: between them lie the answer's
 * way back and whatever holds the worker's event loop (a page being read, a store write). So the slot is
 * `gap + sendSlackMs(gap)` long, and a grant that took longer than `LATE_GRANT_MS` to come back is not used
 * (its slot is spent, the worker asks again, up to twice). A worker stalled after its grant came back still
 * sends late (see `serp/request-pacer.ts`).
 */

/** A grant that took longer than this to reach the worker (ms) is not used: the request would leave late in its slot. */
export const LATE_GRANT_MS = 50;
/** Late grants a request passes up before it takes one anyway. */
const MAX_STALE = 2;

const LEASE = "bitextRequestLease";
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < free then return free - now end
local gap = tonumber(ARGV[1])
redis.call('SET', KEYS[1], now + gap, 'PX', gap + 60000)
return 0`;

export class RedisPacer implements RequestPacer {
  constructor(private readonly redis: RedisLike) {
    redis.defineCommand(LEASE, { numberOfKeys: 1, lua: SCRIPT });
  }

  take(engine: string, gapMs: number, signal?: AbortSignal): Promise<void> {
    if (gapMs <= 0) return Promise.resolve();
    let stale = 0;
    return leaseLoop(async () => {
      const asked = performance.now();
      const wait = Number(await this.redis.runCommand(LEASE, [`bitext:request-lease:${engine}`, gapMs + sendSlackMs(gapMs)]));
      // Granted too long ago: ask again — a few times only, so that a worker whose every answer comes late
      // (an overloaded machine) still gets its turn rather than spend every slot.
      if (wait === 0 && performance.now() - asked > LATE_GRANT_MS && stale < MAX_STALE) {
        stale++;
        return 1;
      }
      return wait;
    }, signal);
  }
}
