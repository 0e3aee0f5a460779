import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import type { Pool, PoolClient, PoolConfig, QueryResult } from "pg";
import { StoreError } from "../errors.js";
import { shownUrl } from "./location.js";
import { render, type SqlDriver, type SqlQuery, type TransactionOptions } from "./sql.js";

/** Rows a cursor fetches per round trip when iterating. */
const CURSOR_BATCH = 500;
/** Whole transactions retried on a deadlock or serialisation failure (concurrent workers). */
const MAX_ATTEMPTS = 5;
const RETRYABLE = new Set(["40P01", "40001"]);
/** Connections a process keeps at most (a worker's page, its heartbeat and an export at once fit). */
const POOL_SIZE = 4;

/** The part of pg-cursor this driver uses (the package has no type declarations). */
interface Cursor<T> {
  read(rows: number): Promise<T[]>;
  close(): Promise<void>;
}
type CursorClass = new <T>(text: string, values: unknown[]) => Cursor<T>;

/** The transaction of an async context: its client, depth, and whether it is still open. */
interface Tx {
  client: PoolClient;
  depth: number;
  open: boolean;
}

/**
 * An asynchronous SQL driver over a pool of PostgreSQL connections (node-postgres, loaded only when a
 * PostgreSQL store is opened, so the SQLite default needs nothing of it). Statements outside a transaction
 * take any pooled connection; a transaction holds one until it ends, and the statements issued in its async
 * context (AsyncLocalStorage) go to that connection. Nothing here blocks the event loop. A dropped
 * connection fails the operation in progress; the pool replaces it for the next one.
 */
export async function postgresDriver(url: string, options: { readonly?: boolean } = {}): Promise<SqlDriver> {
  const shown = shownUrl(url);
  const { Pool, Cursor } = await loadPg();
  const readonly = options.readonly ?? false;
  const config: PoolConfig = {
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: 10_000,
    types: { getTypeParser: typeParser },
    // Every connection reads only, for a read-only store.
    options: `-c client_min_messages=warning${readonly ? " -c default_transaction_read_only=on" : ""}`,
  };
  const pool: Pool = new Pool(config);
  // An idle connection that breaks (server restart) is dropped by the pool; without a listener, its error
  // would end the process.
  pool.on("error", () => {});
  const context = new AsyncLocalStorage<Tx>();
  const current = () => {
    const tx = context.getStore();
    return tx?.open ? tx : undefined;
  };
  let open = true;
  const watched = new WeakSet<PoolClient>();

  const query = async <T>(q: SqlQuery): Promise<QueryResult<T & Record<string, unknown>>> => {
    if (!open) throw new Error(`${shown}: the store is closed`);
    const text = render(q, "postgres");
    // Named: prepared once per connection (the name stands for the text).
    const config = { name: statementName(text), text, values: q.values as unknown[] };
    try {
      return await (current()?.client ?? pool).query<T & Record<string, unknown>>(config);
    } catch (err) {
      throw pgError(err);
    }
  };
  const plain = async (client: PoolClient | Pool, text: string, values?: unknown[]): Promise<QueryResult> => {
    try {
      return await client.query(text, values);
    } catch (err) {
      throw pgError(err);
    }
  };
  const connect = () => checkOut(pool, shown, () => open, watched);

  return {
    backend: "postgres",
    get open() {
      return open;
    },
    readonly,
    run: async (q) => ({ changes: (await query(q)).rowCount ?? 0 }),
    get: async <T>(q: SqlQuery) => (await query<T>(q)).rows[0] as T | undefined,
    all: async <T>(q: SqlQuery) => (await query<T>(q)).rows as T[],
    iterate: <T>(q: SqlQuery): AsyncIterable<T> => cursorRows<T>(q, current, connect, Cursor),
    async transaction<T>(fn: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const outer = current();
      if (outer) return savepoint(outer, context, plain, fn);
      for (let n = 1; ; n++) {
        try {
          return await attempt(connect, plain, context, fn, options);
        } catch (err) {
          // Two workers writing the same rows in another order: PostgreSQL aborts one; run it again.
          if (n < MAX_ATTEMPTS && RETRYABLE.has((err as { code?: string }).code ?? "")) continue;
          throw err;
        }
      }
    },
    async exec(text: string): Promise<void> {
      await plain(current()?.client ?? pool, text);
    },
    schemaVersion: () => schemaVersion(current()?.client ?? pool, plain),
    setSchemaVersion: (version: number) => setSchemaVersion(current()?.client ?? pool, plain, version),
    async close(): Promise<void> {
      if (!open) return;
      open = false;
      await pool.end();
    },
  };
}

/** One attempt of an outermost transaction on its own connection. */
async function attempt<T>(
  connect: () => Promise<PoolClient>,
  plain: Plain,
  context: AsyncLocalStorage<Tx>,
  fn: () => Promise<T>,
  options: TransactionOptions,
): Promise<T> {
  const client = await connect();
  let broken = false;
  const key = options.exclusiveKey ? [options.exclusiveKey] : null;
  try {
    // The lock is the session's, taken before BEGIN: a transaction begun before another's commit could
    // still see the catalog as it was (a table just created missing), so it begins once the lock is held.
    if (key) await plain(client, "SELECT pg_advisory_lock(hashtext($1))", key);
    const tx: Tx = { client, depth: 1, open: true };
    try {
      await plain(client, "BEGIN");
      const result = await context.run(tx, fn);
      await plain(client, "COMMIT");
      return result;
    } catch (err) {
      await plain(client, "ROLLBACK").catch(() => {});
      throw err;
    } finally {
      tx.open = false;
    }
  } catch (err) {
    broken = isConnectionError(err);
    throw err;
  } finally {
    if (key && !broken) await plain(client, "SELECT pg_advisory_unlock(hashtext($1))", key).catch(() => {});
    client.release(broken);
  }
}

/** A pooled connection, checked out; one that breaks while out fails the statement under way, not the process. */
async function checkOut(pool: Pool, shown: string, isOpen: () => boolean, watched: WeakSet<PoolClient>): Promise<PoolClient> {
  if (!isOpen()) throw new Error(`${shown}: the store is closed`);
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw pgError(err);
  }
  if (!watched.has(client)) {
    watched.add(client);
    client.on("error", () => {});
  }
  return client;
}

type Plain = (client: PoolClient | Pool, text: string, values?: unknown[]) => Promise<QueryResult>;

/** A statement's rows through a cursor, which needs a connection of its own for its lifetime (or the transaction's). */
function cursorRows<T>(
  q: SqlQuery,
  current: () => Tx | undefined,
  connect: () => Promise<PoolClient>,
  Cursor: CursorClass,
): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      const tx = current();
      const client = tx?.client ?? (await connect());
      const cursor = client.query(new Cursor<T>(render(q, "postgres"), q.values as unknown[]) as never) as unknown as Cursor<T>;
      let broken = false;
      try {
        for (;;) {
          const rows = await cursor.read(CURSOR_BATCH).catch((err: unknown) => {
            throw pgError(err);
          });
          yield* rows;
          if (rows.length < CURSOR_BATCH) break;
        }
      } catch (err) {
        broken = isConnectionError(err);
        throw err;
      } finally {
        if (!broken) await cursor.close().catch(() => {});
        if (!tx) client.release(broken);
      }
    },
  };
}

/** A nested transaction: a savepoint on the outer transaction's connection, in a context of its own depth. */
async function savepoint<T>(outer: Tx, context: AsyncLocalStorage<Tx>, plain: Plain, fn: () => Promise<T>): Promise<T> {
  const name = `bitext_sp_${outer.depth}`;
  await plain(outer.client, `SAVEPOINT ${name}`);
  const tx: Tx = { client: outer.client, depth: outer.depth + 1, open: true };
  try {
    const result = await context.run(tx, fn);
    await plain(outer.client, `RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (err) {
    await plain(outer.client, `ROLLBACK TO SAVEPOINT ${name}`).catch(() => {});
    throw err;
  } finally {
    tx.open = false;
  }
}

async function schemaVersion(c: PoolClient | Pool, plain: Plain): Promise<number> {
  const exists = (await plain(c, "SELECT to_regclass('bitext_schema') IS NOT NULL AS e")).rows[0].e === true;
  if (!exists) return 0;
  return Number((await plain(c, "SELECT coalesce(max(version), 0) AS v FROM bitext_schema")).rows[0].v);
}

/** One row per migration applied, with when (the SQLite store keeps the number in PRAGMA user_version). */
async function setSchemaVersion(c: PoolClient | Pool, plain: Plain, version: number): Promise<void> {
  await plain(c, "CREATE TABLE IF NOT EXISTS bitext_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  await plain(
    c,
    "INSERT INTO bitext_schema (version, applied_at) SELECT v, $2 FROM generate_series((SELECT coalesce(max(version), 0) + 1 FROM bitext_schema), $1::int) v",
    [version, new Date().toISOString()],
  );
}

/** A prepared statement's name for its text: the same on every connection, unique per text. */
function statementName(text: string): string {
  return `bitext_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
}

/** Rows in the shapes SQLite gives them: numbers for int8 and numeric (ids and counts, well within 2^53), JSON as text. */
function typeParser(oid: number, format?: string): (text: string) => unknown {
  switch (oid) {
    case 20: // int8
    case 1700: // numeric
      return Number;
    case 114: // json, jsonb: kept as text, as SQLite's json functions give it
    case 3802:
      return (text: string) => text;
    default:
      return baseParser!(oid, format);
  }
}
let baseParser: ((oid: number, format?: string) => (text: string) => unknown) | null = null;

/** node-postgres and pg-cursor, loaded on first use. */
async function loadPg(): Promise<{ Pool: typeof Pool; Cursor: CursorClass }> {
  const pg = (await import("pg")).default;
  const Cursor = (await import("pg-cursor")).default as unknown as CursorClass;
  baseParser = pg.types.getTypeParser as (oid: number, format?: string) => (text: string) => unknown;
  return { Pool: pg.Pool, Cursor };
}

/** Errors of the connection itself (the server went away, the network broke), not of a statement. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? "";
  return code.startsWith("08") || code.startsWith("57P");
}

/**
 * node-postgres's error as the store's: PostgreSQL's SQLSTATE as `code`, and 08006 for a connection that
 * could not be made or broke (node-postgres reports those as socket errors or plain messages).
 */
function pgError(err: unknown): Error {
  if (err instanceof StoreError) return err;
  const e = err as { code?: string; message?: string };
  const message = firstLine(err);
  let code = typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined;
  if (code === undefined && (typeof e.code === "string" || /connection|terminat|timeout|ECONN/i.test(message))) code = "08006";
  const out = new Error(message);
  out.name = "PostgresError";
  if (code) Object.assign(out, { code });
  return out;
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message
    .replace(/^(ERROR|FATAL):\s+/, "")
    .split("\n")[0]!
    .trim();
}
