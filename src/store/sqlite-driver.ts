import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import { environmentError } from "./errors.js";
import { render, type SqlDriver, type SqlQuery } from "./sql.js";

/** Rows read from a statement at a time when iterating (between batches, other contexts may run). */
const ITERATE_BATCH = 256;

/**
 * The SQL driver over one better-sqlite3 connection (the store's settings are applied by its opener).
 *
 * better-sqlite3 is synchronous and fast, so statements simply run; what the async interface adds is the
 * transaction: while one context's transaction awaits between its statements, another context must not
 * write into it. So transactions queue on a lock (one at a time in this process; other processes wait on
 * SQLite's own lock, taken at BEGIN IMMEDIATE), and a statement outside a transaction waits while another
 * context's transaction is open. The context that owns the transaction is carried by AsyncLocalStorage.
 */
export function sqliteDriver(db: Database.Database, path: string): SqlDriver {
  const lock = new Lock();
  /**
   * The transaction of the current async context. `open` turns false when it ends: a timer or promise started
   * inside it and still running afterwards is outside it.
   */
  const context = new AsyncLocalStorage<{ depth: number; open: boolean }>();
  const inside = () => context.getStore()?.open === true;

  const prepare = statementCache(db);
  /** Run `fn` now if this context may use the connection, else once the open transaction has ended. */
  const use = async <T>(fn: () => T): Promise<T> => {
    // Checked again after each wait: the statement runs synchronously once no other transaction is open.
    while (!inside() && lock.busy) await lock.idle();
    try {
      return fn();
    } catch (err) {
      throw named(err);
    }
  };
  /** SQLite's errors do not say which file they are about: the environment's (disk full, …) name it. */
  const named = (err: unknown) => environmentError(err, path) ?? err;

  return {
    backend: "sqlite",
    get open() {
      return db.open;
    },
    get readonly() {
      return db.readonly;
    },
    run: (query) => use(() => ({ changes: prepare(query).run(...query.values).changes })),
    // A write (INSERT … RETURNING) is stepped to its end: `.get()` stops at the first row, and outside a
    // transaction SQLite then commits while resetting the statement, where an error (SQLITE_FULL: the disk
    // filled writing the WAL) is not reported: the row would be returned, and lost.
    get: <T>(query: SqlQuery) =>
      use(() => {
        const stmt = prepare(query);
        return (stmt.readonly ? stmt.get(...query.values) : stmt.all(...query.values)[0]) as T | undefined;
      }),
    all: <T>(query: SqlQuery) => use(() => prepare(query).all(...query.values) as T[]),
    iterate: <T>(query: SqlQuery): AsyncIterable<T> =>
      inBatches(() => use(() => prepare(query).iterate(...query.values) as IterableIterator<T>)),
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      const outer = context.getStore();
      // Nested: a savepoint, in the same context (and under the lock the outer transaction holds).
      if (outer?.open) return savepoint(db, context, outer.depth, fn);
      // IMMEDIATE: the write lock is taken at BEGIN, so no write transaction fails half-way on SQLITE_BUSY
      // (which also serialises every exclusiveKey).
      return lock.hold(async () => {
        try {
          return await outermost(db, context, fn);
        } catch (err) {
          throw named(err);
        }
      });
    },
    exec: (text) => use(() => void db.exec(text)),
    schemaVersion: () => use(() => db.pragma("user_version", { simple: true }) as number),
    setSchemaVersion: (version) => use(() => void db.pragma(`user_version = ${Math.floor(version)}`)),
    close: async () => {
      if (lock.busy) await lock.idle();
      if (db.open) db.close();
    },
  };
}

/** Statements prepared once per text (bounded: statements built with literal numbers, LIMIT, vary). */
function statementCache(db: Database.Database): (query: SqlQuery) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (query) => {
    const text = render(query, "sqlite");
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = db.prepare(text);
      if (statements.size >= 500) statements.clear();
      statements.set(text, stmt);
    }
    return stmt;
  };
}

/** An outermost transaction, run once the lock is held. */
async function outermost<T>(
  db: Database.Database,
  context: AsyncLocalStorage<{ depth: number; open: boolean }>,
  fn: () => Promise<T>,
): Promise<T> {
  db.exec(db.readonly ? "BEGIN" : "BEGIN IMMEDIATE");
  const tx = { depth: 1, open: true };
  try {
    const result = await context.run(tx, fn);
    db.exec("COMMIT");
    return result;
  } catch (err) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw err;
  } finally {
    tx.open = false;
  }
}

/**
 * A statement's rows, read in batches synchronously: no other statement can slip in while better-sqlite3's
 * iterator is open (the connection refuses it), and the rows read so far are yielded between batches.
 */
function inBatches<T>(open: () => Promise<IterableIterator<T>>): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      const it = await open();
      let done = false;
      try {
        while (!done) {
          const batch: T[] = [];
          for (let i = 0; i < ITERATE_BATCH; i++) {
            const next = it.next();
            if (next.done) {
              done = true;
              break;
            }
            batch.push(next.value);
          }
          yield* batch;
        }
      } finally {
        if (!done) it.return?.();
      }
    },
  };
}

/** A nested transaction: a savepoint on the outer transaction's connection, in a context of its own depth. */
async function savepoint<T>(
  db: Database.Database,
  context: AsyncLocalStorage<{ depth: number; open: boolean }>,
  depth: number,
  fn: () => Promise<T>,
): Promise<T> {
  const name = `bitext_sp_${depth}`;
  db.exec(`SAVEPOINT ${name}`);
  const tx = { depth: depth + 1, open: true };
  try {
    const result = await context.run(tx, fn);
    db.exec(`RELEASE ${name}`);
    return result;
  } catch (err) {
    if (db.inTransaction) {
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
    }
    throw err;
  } finally {
    tx.open = false;
  }
}

/** A FIFO lock for async work: one holder at a time, the others queue. */
export class Lock {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  get busy(): boolean {
    return this.holders > 0;
  }

  /** Run `fn` once every earlier holder has finished; the lock is held until `fn`'s promise settles. */
  hold<T>(fn: () => Promise<T>): Promise<T> {
    this.holders++;
    const run = this.tail.then(fn);
    this.tail = run.then(
      () => this.release(),
      () => this.release(),
    );
    return run;
  }

  /** Resolves when no one holds or waits for the lock. */
  async idle(): Promise<void> {
    while (this.holders > 0) await this.tail;
  }

  private release(): void {
    this.holders--;
  }
}
