import type Database from "better-sqlite3";
import type { SqlDriver, SqlStatement } from "./sql.js";

/** The SQL driver over one better-sqlite3 connection (the store's settings are applied by its opener). */
export function sqliteDriver(db: Database.Database): SqlDriver {
  return {
    backend: "sqlite",
    get open() {
      return db.open;
    },
    get readonly() {
      return db.readonly;
    },
    prepare(sql: string): SqlStatement {
      const stmt = db.prepare(sql);
      return {
        run: (...params) => ({ changes: stmt.run(...params).changes }),
        // A write (INSERT … RETURNING) is stepped to its end: `.get()` stops at the first row, and outside a
        // transaction SQLite then commits while resetting the statement, where an error (SQLITE_FULL: the
        // disk filled writing the WAL) is not reported: the row would be returned, and lost.
        get: (...params) => (stmt.readonly ? stmt.get(...params) : stmt.all(...params)[0]),
        all: (...params) => stmt.all(...params),
        iterate: (...params) => stmt.iterate(...params),
      };
    },
    // IMMEDIATE: the write lock is taken at BEGIN, so no write transaction fails half-way on SQLITE_BUSY
    // (which also serialises every exclusiveKey). Nested: better-sqlite3 makes it a savepoint.
    transaction: (fn) => db.transaction(fn).immediate(),
    exec: (sql) => {
      db.exec(sql);
    },
    schemaVersion: () => db.pragma("user_version", { simple: true }) as number,
    setSchemaVersion: (version) => {
      db.pragma(`user_version = ${Math.floor(version)}`);
    },
    close: () => {
      if (db.open) db.close();
    },
  };
}
