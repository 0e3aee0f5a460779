import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { UserError } from "../errors.js";
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
 */
export function openStore(path: string = DEFAULT_STORE_PATH, options: { readonly?: boolean } = {}): Store {
  if (path !== ":memory:") {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw new UserError(`${path}: cannot create the store's folder (${(err as NodeJS.ErrnoException).code})`);
    }
  }
  if (options.readonly && path !== ":memory:" && !existsSync(path)) {
    throw new UserError(`${path}: no store here yet (run bitext harvest first, or pass --db FILE)`);
  }
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    db.pragma("busy_timeout = 10000");
    if (!options.readonly) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    db.pragma("foreign_keys = ON");
    migrate(db, path, options.readonly ?? false);
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`${path}: cannot open the store (${(err as Error).message})`);
  }
  return {
    db,
    path,
    close() {
      if (db.open) db.close();
    },
  };
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
  } finally {
    store.close();
  }
}
