import { StoreError, UserError, type UserErrorKind } from "../errors.js";

/**
 * Failures of the environment — a full disk, a read-only or locked store, a missing permission —
 * are not bugs: they become one-line errors that name the file and say what is wrong, with a `kind`
 * (and the store's path, the database's or system's code) from which the CLI picks the advice and the
 * exit status (`src/cli/errors.ts`), never "internal error".
 *
 * The environment error `err` stands for, or null when it is something else (a bug, a user mistake).
 */
export function environmentError(err: unknown, path?: string): UserError | null {
  if (!(err instanceof Error) || err instanceof UserError) return null;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code !== "string") return null;
  if (err.name === "SqliteError" || code.startsWith("SQLITE_")) return sqliteError(code, path ?? "the store");
  if (err.name === "PostgresError") return postgresError(code, err.message, path ?? "the store");
  return fileError(code, (err as NodeJS.ErrnoException).path ?? path ?? "a file");
}

function sqliteError(code: string, path: string): UserError | null {
  // Extended codes (SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE, …) share their primary code's remedy.
  const kind = code.split("_").slice(0, 2).join("_");
  switch (kind) {
    case "SQLITE_FULL":
      return new StoreError(path, `the disk is full (${code}): free space where the store is; nothing was lost`, {
        kind: "store-disk-full",
        code,
      });
    case "SQLITE_READONLY":
      return new StoreError(path, `the store is read-only (${code}): make it and its folder writable`, {
        kind: "store-read-only",
        code,
      });
    case "SQLITE_BUSY":
    case "SQLITE_LOCKED":
      return new StoreError(path, `the store stayed locked by another process (${code}): retry when it is idle`, {
        kind: "store-busy",
        code,
      });
    case "SQLITE_PERM":
    case "SQLITE_AUTH":
      return new StoreError(path, `no permission to use the store (${code}): check the file's and folder's permissions`, {
        kind: "store-no-permission",
        code,
      });
    case "SQLITE_CANTOPEN":
      return new StoreError(
        path,
        `cannot open the store (${code}): check that it and its folder exist and are readable, and writable for commands that write`,
        { kind: "store-cannot-open", code },
      );
    case "SQLITE_IOERR":
      return new StoreError(path, `the disk failed to read or write the store (${code}): check the disk, then rerun`, {
        kind: "store-io",
        code,
      });
    case "SQLITE_CORRUPT":
    case "SQLITE_NOTADB":
      return new StoreError(path, `not a readable bitext store (${code}): restore it from a backup`, {
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
    return new StoreError(url, `lost the connection to the PostgreSQL store (${message}): rerun when the server is back; a rerun resumes`, {
      kind: "store-connection-lost",
      code,
    });
  }
  if (code === "53300")
    return new StoreError(url, `the PostgreSQL server has too many connections (${message}): retry later or raise max_connections`, {
      kind: "store-too-many-connections",
      code,
    });
  if (code.startsWith("53"))
    return new StoreError(
      url,
      `the PostgreSQL server is out of resources (${code}: ${message}): free disk or memory there, then rerun; nothing was lost`,
      { kind: "store-server-resources", code },
    );
  if (code === "42501" || code.startsWith("28"))
    return new StoreError(url, `no permission to use the PostgreSQL store (${message}): grant the user rights on the database`, {
      kind: "store-no-permission",
      code,
    });
  if (code === "25006") return new StoreError(url, `the PostgreSQL store is read-only (${message})`, { kind: "store-read-only", code });
  return null;
}

/** A file the store or a command writes: the system's error, with the file named. */
function fileError(code: string, path: string): UserError | null {
  const fail = (problem: string, advice: string, kind: UserErrorKind) =>
    new UserError(`${path}: ${problem} (${code}): ${advice}`, { kind });
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
      return fail("the disk is full", "free space and rerun; nothing was half-written", "disk-full");
    case "EROFS":
      return fail("on a read-only file system", "write somewhere writable", "read-only-file-system");
    case "EACCES":
    case "EPERM":
      return fail("permission denied", "check the file's and folder's permissions", "permission-denied");
    case "EMFILE":
    case "ENFILE":
      return fail("too many open files", "raise the limit (ulimit -n) and rerun", "too-many-files");
    case "EIO":
      return fail("the disk failed", "check the disk, then rerun", "disk-failed");
    default:
      return null;
  }
}
