import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { UserError } from "../errors.js";
import { environmentError, noteStoreOpened } from "./errors.js";
import { MIGRATIONS } from "./migrations.js";

/** Where commands keep the store unless `--db` says otherwise (relative to the working directory). */
export const DEFAULT_STORE_PATH = "data/bitext.db";

/** An open store. Pass it to the accessor functions (`listRecords`, `upsertPage`, …); close it when done. */
export interface Store {
  readonly db: Database.Database;
  readonly path: string;
  close(): void;
}

/**
 * Open (and create or migrate) the SQLite store at `path` (`:memory:` for a throwaway one).
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
export function openStore(path: string = DEFAULT_STORE_PATH, options: { readonly?: boolean } = {}): Store {
  const readonly = options.readonly ?? false;
  if (path !== ":memory:" && !readonly) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw environmentError(err, dirname(path)) ?? new UserError(`${path}: cannot create the store's folder (${(err as NodeJS.ErrnoException).code})`);
    }
  }
  if (readonly && path !== ":memory:" && !existsSync(path)) {
    throw new UserError(`${path}: no store here yet (run bitext harvest first, or pass --db FILE)`);
  }
  let opened: { db: Database.Database; cleanup: () => void };
  try {
    opened = readonly ? openReadonly(path) : { db: openDatabase(path, false), cleanup: () => {} };
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw environmentError(err, path) ?? new UserError(`${path}: cannot open the store (${(err as Error).message})`);
  }
  const { db, cleanup } = opened;
  noteStoreOpened(path);
  return {
    db,
    path,
    close() {
      if (!db.open) return;
      db.close();
      cleanup();
    },
  };
}

/** Open `file` (the store at `path`, or a private copy of it) with the store's settings. */
function openDatabase(file: string, readonly: boolean, path: string = file): Database.Database {
  const db = new Database(file, { readonly, fileMustExist: readonly });
  try {
    // SQLite quietly opens a file it cannot write read-only: say so now, not at the first write.
    if (!readonly && db.readonly) throw Object.assign(new Error("store opened read-only"), { name: "SqliteError", code: "SQLITE_READONLY" });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!readonly) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    db.pragma("foreign_keys = ON");
    migrate(db, path, readonly);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** How long a statement waits for another process's lock before giving up (SQLITE_BUSY). */
const BUSY_TIMEOUT_MS = 30_000;

function openReadonly(path: string): { db: Database.Database; cleanup: () => void } {
  try {
    return { db: openDatabase(path, true), cleanup: () => {} };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (err instanceof UserError || typeof code !== "string" || !/^SQLITE_(CANTOPEN|READONLY|IOERR)/u.test(code)) throw err;
  }
  // Read-only media: read a private copy (with its -wal, which holds the last commits).
  const dir = mkdtempSync(join(tmpdir(), "bitext-readonly-"));
  const copy = join(dir, basename(path));
  try {
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    return { db: openDatabase(copy, true, path), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The schema version of an open store (the number of migrations applied). */
export function schemaVersion(store: Store): number {
  return store.db.pragma("user_version", { simple: true }) as number;
}

function migrate(db: Database.Database, path: string, readonly: boolean): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new UserError(
      `${path}: the store has schema version ${current}, newer than this bitext understands (${MIGRATIONS.length}); upgrade bitext`,
    );
  }
  if (current === MIGRATIONS.length) return;
  if (readonly) throw new UserError(`${path}: the store needs migrating; open it once without --readonly`);
  // IMMEDIATE: two processes opening a new store at once must not both migrate it.
  db.transaction(() => {
    const again = db.pragma("user_version", { simple: true }) as number;
    for (let v = again; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

/** Now, as the ISO-8601 UTC text every timestamp column uses (they sort as text). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Run `fn` with the store at `path` open, and close it afterwards whatever happens. */
export async function withStore<T>(path: string, fn: (store: Store) => T | Promise<T>, options: { readonly?: boolean } = {}): Promise<T> {
  const store = openStore(path, options);
  try {
    return await fn(store);
  } catch (err) {
    throw environmentError(err, path) ?? err; // named while the path is known
  } finally {
    store.close();
  }
}
