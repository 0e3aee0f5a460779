import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { StoreError, UserError } from "../errors.js";
import { assertWritable } from "../paths.js";
import { environmentError } from "./errors.js";
import { MIGRATIONS, migrationSql } from "./migrations.js";
import { isPostgresUrl, shownUrl } from "./location.js";
import { postgresDriver } from "./postgres-driver.js";
import type { SqlDriver, TransactionOptions } from "./sql.js";
import { sqliteDriver } from "./sqlite-driver.js";

/** Where commands keep the store unless `--db` says otherwise (relative to the working directory). */
export const DEFAULT_STORE_PATH = "data/bitext.db";

/** An open store. Pass it to the accessor functions (`listRecords`, `upsertPage`, …); close it when done. */
export interface Store {
  /** The connection the accessors use, whichever the backend. */
  readonly sql: SqlDriver;
  readonly backend: "sqlite" | "postgres";
  /** The SQLite file, or the PostgreSQL URL (without its password). */
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Open (and create or migrate) the store at `location`: a PostgreSQL URL (`postgres://user@host:5432/db`,
 * see `openPostgresStore`) or the path of a SQLite file (`:memory:` for a throwaway one).
 *
 * WAL mode lets a reader (`bitext export records`) run beside a writer (`bitext harvest`), and
 * `synchronous = NORMAL` in WAL keeps every committed transaction across a process crash
 * (`kill -9`); only an operating-system crash could lose the last commits, never corrupt the file.
 * A busy timeout makes a second process (`classify --db` beside a harvest) wait for the writer's
 * short transactions instead of failing with SQLITE_BUSY; every write transaction is IMMEDIATE, so
 * none can fail half-way on a lock.
 *
 * `readonly` opens for reading only. A WAL store on read-only media cannot be read in place (SQLite needs
 * to create its `-shm` file beside it): it is then read from a private temporary copy, removed on close.
 */
export async function openStore(path: string = DEFAULT_STORE_PATH, options: { readonly?: boolean } = {}): Promise<Store> {
  if (isPostgresUrl(path)) return openPostgresStore(path, options);
  const readonly = options.readonly ?? false;
  if (path !== ":memory:" && !readonly) {
    assertWritable(path);
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw (
        environmentError(err, dirname(path)) ??
        new UserError(`${path}: cannot create the store's folder (${(err as NodeJS.ErrnoException).code})`)
      );
    }
  }
  if (readonly && path !== ":memory:" && !existsSync(path)) {
    throw new StoreError(path, "no store here yet", { kind: "store-missing" });
  }
  let opened: { sql: SqlDriver; cleanup: () => void };
  try {
    opened = readonly ? await openReadonly(path) : { sql: await openDatabase(path, false), cleanup: () => {} };
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw environmentError(err, path) ?? new UserError(`${path}: cannot open the store (${(err as Error).message})`);
  }
  const { sql, cleanup } = opened;
  return {
    sql,
    backend: "sqlite",
    path,
    async close() {
      if (!sql.open) return;
      await sql.close();
      cleanup();
    },
  };
}

/**
 * A PostgreSQL store: the same schema and migrations (applied by whichever process opens it first),
 * for many workers on many machines, over a pool of connections (node-postgres); the server must be reachable.
 */
async function openPostgresStore(url: string, options: { readonly?: boolean }): Promise<Store> {
  const shown = shownUrl(url);
  const sql = await postgresDriver(url, options);
  try {
    await migrate(sql, shown, options.readonly ?? false);
  } catch (err) {
    await sql.close();
    if (err instanceof UserError) throw err;
    const code = (err as { code?: string }).code ?? "";
    if (code.startsWith("08") || code.startsWith("28") || code === "3D000")
      throw new StoreError(shown, `cannot connect to the PostgreSQL store (${(err as Error).message})`, {
        kind: "store-unreachable",
        code,
      });
    throw environmentError(err, shown) ?? err;
  }
  return { sql, backend: "postgres", path: shown, close: () => sql.close() };
}

/** Open `file` (the store at `path`, or a private copy of it) with the store's settings. */
async function openDatabase(file: string, readonly: boolean, path: string = file): Promise<SqlDriver> {
  const db = new Database(file, { readonly, fileMustExist: readonly });
  try {
    // SQLite quietly opens a file it cannot write read-only: say so now, not at the first write.
    if (!readonly && db.readonly)
      throw Object.assign(new Error("store opened read-only"), { name: "SqliteError", code: "SQLITE_READONLY" });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!readonly) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    db.pragma("foreign_keys = ON");
    const sql = sqliteDriver(db, path);
    await migrate(sql, path, readonly);
    return sql;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** How long a statement waits for another process's lock before giving up (SQLITE_BUSY). */
const BUSY_TIMEOUT_MS = 30_000;

async function openReadonly(path: string): Promise<{ sql: SqlDriver; cleanup: () => void }> {
  try {
    return { sql: await openDatabase(path, true), cleanup: () => {} };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // (SQLite's error, or the store error the driver made of it: both carry SQLite's code.)
    if (typeof code !== "string" || !/^SQLITE_(CANTOPEN|READONLY|IOERR)/u.test(code)) throw err;
  }
  // Read-only media: read a private copy (with its -wal, which holds the last commits).
  const dir = mkdtempSync(join(tmpdir(), "bitext-readonly-"));
  const copy = join(dir, basename(path));
  try {
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    return { sql: await openDatabase(copy, true, path), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The schema version of an open store (the number of migrations applied). */
export function schemaVersion(store: Store): Promise<number> {
  return store.sql.schemaVersion();
}

async function migrate(db: SqlDriver, path: string, readonly: boolean): Promise<void> {
  const current = await db.schemaVersion();
  if (current > MIGRATIONS.length) {
    throw new UserError(
      `${path}: the store has schema version ${current}, newer than this bitext understands (${MIGRATIONS.length}); upgrade bitext`,
    );
  }
  if (current === MIGRATIONS.length) return;
  if (readonly) throw new StoreError(path, "the store needs migrating", { kind: "store-needs-migration" });
  // Exclusive: two processes opening a new store at once must not both migrate it.
  await db.transaction(
    async () => {
      const again = await db.schemaVersion();
      for (let v = again; v < MIGRATIONS.length; v++) await db.exec(migrationSql(MIGRATIONS[v]!, db.backend));
      await db.setSchemaVersion(MIGRATIONS.length);
    },
    { exclusiveKey: "bitext migrate" },
  );
}

/**
 * Run `fn` in one transaction on the store (committed when its promise resolves, rolled back when it
 * rejects; nested calls are savepoints): what belongs together — a fetch, its records and how it was
 * fetched — is stored together or not at all. The accessors `fn` calls (awaited, in its async context) use
 * the transaction without being told; other contexts' statements never interleave with it.
 */
export function inTransaction<T>(store: Store, fn: () => Promise<T>, options?: TransactionOptions): Promise<T> {
  return store.sql.transaction(fn, options);
}

/** Now, as the ISO-8601 UTC text every timestamp column uses (they sort as text). */
export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * Is there a store at `location`? A SQLite file must exist; a PostgreSQL database is taken to (opening it
 * checks the server, and creates the schema in an empty database).
 */
export function storeExists(location: string): boolean {
  return isPostgresUrl(location) || existsSync(location);
}

/** Run `fn` with the store at `path` open, and close it afterwards whatever happens. */
export async function withStore<T>(path: string, fn: (store: Store) => T | Promise<T>, options: { readonly?: boolean } = {}): Promise<T> {
  const store = await openStore(path, options);
  try {
    return await fn(store);
  } catch (err) {
    throw environmentError(err, store.path) ?? err; // named while the path is known
  } finally {
    await store.close();
  }
}
