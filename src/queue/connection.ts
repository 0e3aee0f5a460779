import { SettingError } from "../errors.js";

/**
 * The queue's Redis, and BullMQ loaded only when a queue is used: the embedded default (one process,
 * SQLite) needs neither Redis nor BullMQ installed.
 */

export type Bullmq = typeof import("bullmq");

/** BullMQ's connection options from `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). */
export interface RedisAddress {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  /** BullMQ workers need commands to wait for a reconnection, never to fail after a few tries. */
  maxRetriesPerRequest: null;
}

export function parseRedisUrl(url: string): RedisAddress {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SettingError("queue", `expected redis://host:port, got "${url}"`);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:")
    throw new SettingError("queue", `expected a redis:// or rediss:// URL, got "${url}"`);
  const port = u.port === "" ? 6379 : Number(u.port);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0)
    throw new SettingError("queue", `the database number after the slash must be a whole number, got "${u.pathname.slice(1)}"`);
  return {
    host: u.hostname || "127.0.0.1",
    port,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === "rediss:" ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

let loaded: Promise<Bullmq> | null = null;

/** BullMQ (an optional dependency), or a one-line error saying what to install. */
export function loadBullmq(): Promise<Bullmq> {
  loaded ??= import("bullmq").catch((err: unknown) => {
    loaded = null;
    const why = (err as Error).message.split("\n")[0];
    throw new SettingError("queue", `needs the optional packages bullmq and ioredis (npm install bullmq ioredis): ${why}`, {
      kind: "queue-packages",
    });
  });
  return loaded;
}

/** The address without its password, for messages. */
export function describeRedis(a: RedisAddress): string {
  return `redis://${a.host}:${a.port}${a.db ? `/${a.db}` : ""}`;
}
