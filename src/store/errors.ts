import { StoreError, UserError } from "../errors.js";

/**
 * Failures of the environment — a full disk, a read-only or locked store, a missing permission —
 * are not bugs: they become one-line errors that name the file and say what to do, with the sysexits
 * status of their kind (74 I/O, 75 try again later, 77 permission), never "internal error" (70).
 */
export const EXIT_IO = 74;
export const EXIT_TEMPFAIL = 75;
export const EXIT_NOPERM = 77;

/**
 * The store this process opened last: SQLite's errors do not say which file they are about, and a
 * command's error reaches the CLI after its store was closed. (Commands use one store each.)
 */
let lastStorePath: string | null = null;

export function noteStoreOpened(path: string): void {
  lastStorePath = path;
}

/** The environment error `err` stands for, or null when it is something else (a bug, a user mistake). */
export function environmentError(err: unknown, path?: string): UserError | null {
  if (!(err instanceof Error) || err instanceof UserError) return null;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code !== "string") return null;
  if (err.name === "SqliteError" || code.startsWith("SQLITE_")) return sqliteError(code, path ?? lastStorePath ?? "the store");
  if (err.name === "PostgresError") return postgresError(code, err.message, path ?? lastStorePath ?? "the store");
  return fileError(code, (err as NodeJS.ErrnoException).path ?? path ?? "a file");
}

function sqliteError(code: string, path: string): UserError | null {
  // Extended codes (SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE, …) share their primary code's remedy.
  const kind = code.split("_").slice(0, 2).join("_");
  switch (kind) {
    case "SQLITE_FULL":
      return new StoreError(path, `the disk is full (${code}): free space where the store is; nothing was lost`, {
        exitCode: EXIT_IO,
        kind: "store-disk-full",
        code,
      });
    case "SQLITE_READONLY":
      return new StoreError(path, `the store is read-only (${code}): make it and its folder writable`, {
        exitCode: EXIT_IO,
        kind: "store-read-only",
        code,
      });
    case "SQLITE_BUSY":
    case "SQLITE_LOCKED":
      return new UserError(
        `${path}: the store stayed locked by another process (${code}): retry when it is idle (bitext runs lists runs in progress)`,
        { exitCode: EXIT_TEMPFAIL },
      );
    case "SQLITE_PERM":
    case "SQLITE_AUTH":
      return new UserError(`${path}: no permission to use the store (${code}): check the file's and folder's permissions`, {
        exitCode: EXIT_NOPERM,
      });
    case "SQLITE_CANTOPEN":
      return new UserError(
        `${path}: cannot open the store (${code}): check that it and its folder exist and are readable, and writable for commands that write (on read-only media only export and runs work)`,
        { exitCode: EXIT_IO },
      );
    case "SQLITE_IOERR":
      return new UserError(`${path}: the disk failed to read or write the store (${code}): check the disk, then rerun`, {
        exitCode: EXIT_IO,
      });
    case "SQLITE_CORRUPT":
    case "SQLITE_NOTADB":
      return new StoreError(path, `not a readable bitext store (${code}): restore it from a backup`, {
        exitCode: 65,
        kind: "store-unreadable",
        code,
      });
    default:
      return null;
  }
}

/** PostgreSQL's SQLSTATE classes that are the environment's doing (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
function postgresError(code: string, message: string, url: string): UserError | null {
  if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03") {
    return new UserError(
      `${url}: lost the connection to the PostgreSQL store (${message}): rerun when the server is back; a rerun resumes`,
      { exitCode: EXIT_TEMPFAIL },
    );
  }
  if (code === "53300")
    return new UserError(`${url}: the PostgreSQL server has too many connections (${message}): retry later or raise max_connections`, {
      exitCode: EXIT_TEMPFAIL,
    });
  if (code.startsWith("53"))
    return new UserError(
      `${url}: the PostgreSQL server is out of resources (${code}: ${message}): free disk or memory there, then rerun; nothing was lost`,
      { exitCode: EXIT_IO },
    );
  if (code === "42501" || code.startsWith("28"))
    return new UserError(`${url}: no permission to use the PostgreSQL store (${message}): grant the user rights on the database`, {
      exitCode: EXIT_NOPERM,
    });
  if (code === "25006") return new UserError(`${url}: the PostgreSQL store is read-only (${message})`, { exitCode: EXIT_IO });
  return null;
}

function fileError(code: string, path: string): UserError | null {
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
      return new UserError(`${path}: the disk is full (${code}): free space and rerun; nothing was half-written`, { exitCode: EXIT_IO });
    case "EROFS":
      return new UserError(`${path}: on a read-only file system (${code}): write somewhere writable`, { exitCode: EXIT_IO });
    case "EACCES":
    case "EPERM":
      return new UserError(`${path}: permission denied (${code}): check the file's and folder's permissions`, { exitCode: EXIT_NOPERM });
    case "EMFILE":
    case "ENFILE":
      return new UserError(`${path}: too many open files (${code}): raise the limit (ulimit -n) and rerun`, { exitCode: EXIT_TEMPFAIL });
    case "EIO":
      return new UserError(`${path}: the disk failed (${code}): check the disk, then rerun`, { exitCode: EXIT_IO });
    default:
      return null;
  }
}
