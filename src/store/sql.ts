/**
 * The little SQL the store's accessors need, behind one synchronous interface with two implementations:
 * SQLite (better-sqlite3, the zero-setup default) and PostgreSQL (pg-native, for many machines). Accessors
 * write SQLite-flavoured SQL (`?` or `@name` placeholders); the PostgreSQL driver translates it (dialect.ts).
 */

/** Parameters: positional values, or one object whose keys fill `@name` placeholders. */
export type SqlParams = unknown[];

export interface SqlStatement {
  /** Run a statement that returns no rows; `changes`: rows inserted, updated or deleted. */
  run(...params: SqlParams): { changes: number };
  /** The first row, or undefined. */
  get(...params: SqlParams): unknown;
  all(...params: SqlParams): unknown[];
  /** Rows one at a time, without holding them all in memory (PostgreSQL: a cursor in a transaction). */
  iterate(...params: SqlParams): IterableIterator<unknown>;
}

export interface TransactionOptions {
  /**
   * Serialise this transaction against every other one given the same key, on any connection: a
   * check-then-insert (only one harvest run at a time) cannot be raced. SQLite's write transactions are
   * already serialised (IMMEDIATE); PostgreSQL holds an advisory lock from before BEGIN to after COMMIT.
   */
  exclusiveKey?: string;
}

export interface SqlDriver {
  readonly backend: "sqlite" | "postgres";
  /** False once closed. */
  readonly open: boolean;
  /** Opened for reading only. */
  readonly readonly: boolean;
  prepare(sql: string): SqlStatement;
  /**
   * Run `fn` in one transaction (a write transaction from the start, so it cannot fail half-way on a lock):
   * committed when `fn` returns, rolled back when it throws. Nested calls are savepoints.
   */
  transaction<T>(fn: () => T, options?: TransactionOptions): T;
  /** Run statements without parameters (DDL, migrations). */
  exec(sql: string): void;
  /** The number of migrations applied to this database. */
  schemaVersion(): number;
  setSchemaVersion(version: number): void;
  close(): void;
}
