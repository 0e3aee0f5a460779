import { currentHome } from "../config/index.js";
import {
  LayoutMismatch,
  NetworkError,
  ReadOnlyInstallation,
  type Setting,
  SettingError,
  StoreError,
  UserError,
  type UserErrorKind,
} from "../errors.js";

/**
 * The one place a failure becomes what the user sees: a line on stderr and an exit status. The library
 * throws typed errors (`src/errors.ts`); here each kind gets its status (sysexits where one fits) and,
 * where it helps, what to do next in terms of the command line. Anything else is a bug: status 70.
 */
export interface Failure {
  message: string;
  exitCode: number;
  /** A bug: print the stack trace when BITEXT_DEBUG is set. */
  internal: boolean;
}

/** Exit statuses by kind of failure (the ones a user's script may test for). */
export const EXIT = {
  /** The disk failed or filled, or a file cannot be written (EX_IOERR). */
  io: 74,
  /** Try again later: locked, busy, unreachable for now (EX_TEMPFAIL). */
  tempfail: 75,
  /** No permission (EX_NOPERM). */
  noperm: 77,
  /** The layout of the page is not the wrapper's. */
  mismatch: 3,
  /** Input it cannot use (EX_DATAERR). */
  data: 65,
  /** A host unreachable or failing (EX_UNAVAILABLE). */
  unavailable: 69,
  /** A bug (EX_SOFTWARE). */
  internal: 70,
} as const;

export async function describeFailure(caught: unknown): Promise<Failure> {
  // Disk full, read-only, locked, no permission: the environment, not bugs. (The store's module, and SQLite
  // with it, loads only when a command failed.)
  const { environmentError } = await import("../store/index.js");
  const err = environmentError(caught) ?? caught;
  if (err instanceof ReadOnlyInstallation) {
    return {
      message: `${err.message}; write to your home instead (${homeOrHint()}; bitext where shows it)`,
      exitCode: err.exitCode,
      internal: false,
    };
  }
  if (err instanceof LayoutMismatch) return { message: err.message, exitCode: EXIT.mismatch, internal: false };
  if (err instanceof NetworkError) return { message: err.message, exitCode: EXIT.unavailable, internal: false };
  if (err instanceof UserError) return { message: withAdvice(err), exitCode: exitStatus(err), internal: false };
  const message = err instanceof Error ? err.message : String(err);
  return { message: `internal error: ${message.split("\n")[0]}`, exitCode: EXIT.internal, internal: true };
}

/** The flag that sets each setting the library checks. */
const SETTING_FLAG: Record<Setting, string> = { engines: "--engines", faults: "--faults", queue: "--queue" };

/** What to do next on the command line, by kind of failure: the library's message with the flags named. */
const ADVICE: { [K in UserErrorKind]?: (err: UserError) => string } = {
  "store-missing": (e) => `${e.message} (run bitext harvest first, or pass --db FILE)`,
  "store-needs-migration": (e) => `${e.message}; open it once without --readonly`,
  "store-disk-full": (e) =>
    e instanceof StoreError
      ? `${e.path}: the disk is full (${e.code}): free space where the store is, or pass --db FILE on another disk; nothing was lost`
      : e.message,
  "store-read-only": (e) => `${e.message}, or pass --db FILE with a writable copy`,
  "store-unreadable": (e) => `${e.message} or pass --db FILE`,
  "store-busy": (e) => `${e.message} (bitext runs lists runs in progress)`,
  "store-cannot-open": (e) => `${e.message} (on read-only media only export and runs work)`,
  "crawl-folder-foreign": (e) => `${e.message}; choose another --out`,
  "crawl-folder-taken": (e) => `${e.message}; add --force to replace it`,
  "crawl-unfinished": (e) => `${e.message}, or add --force to replace it`,
  "run-in-progress": (e) => `${e.message} (see bitext runs --stale)`,
  "wrapper-file-missing": (e) => `${e.message} (or learn from a saved page with --sample)`,
  "browser-missing": (e) => `${e.message} (or pass --chromium PATH).`,
  "no-display": (e) => `--headed: ${e.message}: run it under xvfb-run, or drop --headed`,
  "classifier-model-unusable": (e) => `${e.message}; retrain with bitext train`,
  "classifier-model-missing": (e) => `${e.message} (train one with bitext train, or pass --model FILE)`,
  "quality-model-unusable": (e) => `${e.message}; retrain with bitext quality train`,
  "no-record-structure": (e) => `${e.message}; wrapper learn --explain lists the candidate lists and why each was rejected`,
  "home-is-installation": (e) => e.message.replace("with BITEXT_HOME", "with --home DIR or BITEXT_HOME"),
  "bad-setting": (e) => (e instanceof SettingError ? `${SETTING_FLAG[e.setting]}: ${e.problem}` : e.message),
  "queue-packages": (e) => (e instanceof SettingError ? `${SETTING_FLAG[e.setting]} ${e.problem}` : e.message),
};

/** The exit status of each kind that has one of its own (others: the error's own status, 1 by default). */
const KIND_EXIT: { [K in UserErrorKind]?: number } = {
  "page-skipped": EXIT.data,
  "start-unreachable": EXIT.unavailable,
  "store-disk-full": EXIT.io,
  "store-read-only": EXIT.io,
  "store-cannot-open": EXIT.io,
  "store-io": EXIT.io,
  "store-unreadable": EXIT.data,
  "store-busy": EXIT.tempfail,
  "store-no-permission": EXIT.noperm,
  "store-unreachable": EXIT.tempfail,
  "store-connection-lost": EXIT.tempfail,
  "store-too-many-connections": EXIT.tempfail,
  "store-server-resources": EXIT.io,
  "run-in-progress": EXIT.tempfail,
  "disk-full": EXIT.io,
  "read-only-file-system": EXIT.io,
  "permission-denied": EXIT.noperm,
  "too-many-files": EXIT.tempfail,
  "disk-failed": EXIT.io,
};

/** The error's exit status: its kind's, else the one it carries. */
function exitStatus(err: UserError): number {
  return (err.kind === undefined ? undefined : KIND_EXIT[err.kind]) ?? err.exitCode;
}

function withAdvice(err: UserError): string {
  const advice = err.kind === undefined ? undefined : ADVICE[err.kind];
  return advice ? advice(err) : err.message;
}

/** Print a failure as `bitext: …` and set the exit status. */
export async function reportFailure(caught: unknown, stderr: { write(s: string): unknown } = process.stderr): Promise<number> {
  const failure = await describeFailure(caught);
  stderr.write(`bitext: ${failure.message}\n`);
  if (failure.internal) {
    if (process.env.BITEXT_DEBUG && caught instanceof Error) stderr.write(`${caught.stack}\n`);
    else stderr.write("bitext: (set BITEXT_DEBUG=1 for the stack trace)\n");
  }
  return failure.exitCode;
}

function homeOrHint(): string {
  try {
    return currentHome().dir;
  } catch {
    return "--home DIR";
  }
}
