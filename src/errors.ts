/**
 * The failures bitext expects — bad input, an unreachable network, a page of an unknown layout — as
 * typed errors, as opposed to bugs. The library throws them with messages about the data (never about
 * command-line flags); the CLI turns each kind into its one-line message and exit code in one place
 * (`src/cli/errors.ts`). Code that must tell failures apart checks the class, never the message.
 */

/**
 * What went wrong, for code that must react to a failure without reading its message: the CLI adds the
 * command-line advice of each kind (which flag to pass) in `src/cli/errors.ts`.
 */
export type UserErrorKind =
  /** A store opened for reading does not exist. */
  | "store-missing"
  /** A store opened for reading has an older schema, and migrating it needs writing. */
  | "store-needs-migration"
  /** The disk of the store is full. */
  | "store-disk-full"
  /** The store (or its folder) cannot be written. */
  | "store-read-only"
  /** The file is not a store, or a damaged one. */
  | "store-unreadable"
  /** The store stayed locked by another process. */
  | "store-busy"
  /** No permission to use the store (file or database). */
  | "store-no-permission"
  /** The store's file cannot be opened. */
  | "store-cannot-open"
  /** The disk failed reading or writing the store. */
  | "store-io"
  /** The PostgreSQL server cannot be reached (or refuses the connection). */
  | "store-unreachable"
  /** The connection to the PostgreSQL server broke. */
  | "store-connection-lost"
  /** The PostgreSQL server has no connection to spare. */
  | "store-too-many-connections"
  /** The PostgreSQL server is out of disk or memory. */
  | "store-server-resources"
  /** A file's disk is full. */
  | "disk-full"
  /** A file is on a read-only file system. */
  | "read-only-file-system"
  /** No permission to read or write a file. */
  | "permission-denied"
  /** The process has too many files open. */
  | "too-many-files"
  /** The disk failed reading or writing a file. */
  | "disk-failed"
  /** A crawl's output folder holds files that are not a crawl. */
  | "crawl-folder-foreign"
  /** A crawl's output folder holds a finished crawl. */
  | "crawl-folder-taken"
  /** A crawl's output folder holds an unfinished crawl of other start URLs. */
  | "crawl-unfinished"
  /** A setting's value is unusable (`SettingError`). */
  | "bad-setting"
  /** The optional packages of the distributed queue are not installed. */
  | "queue-packages"
  /** Another harvest run is in progress on the store. */
  | "run-in-progress"
  /** An engine has no wrapper file to learn its wrapper live into. */
  | "wrapper-file-missing"
  /** Chromium could not be started (not installed, or the configured binary fails). */
  | "browser-missing"
  /** A headed browser was asked for where there is no display. */
  | "no-display"
  /** The home chosen for the user's files is the (read-only) installation itself. */
  | "home-is-installation"
  /** A classifier model file that cannot be used (corrupt, or made for other features). */
  | "classifier-model-unusable"
  /** No classifier model file where one was asked for. */
  | "classifier-model-missing"
  /** A pair scorer's model file that cannot be used (corrupt, or made for other features). */
  | "quality-model-unusable"
  /** A sample page holds no list of records to learn a wrapper from. */
  | "no-record-structure"
  /** A page past the work caps (size, elements, binary): input that cannot be used (`PageSkipped`). */
  | "page-skipped"
  /** A crawl's start page could not be fetched at all. */
  | "start-unreachable"
  | NetworkErrorKind;

/** Why a fetch failed (`FetchError` in src/net). */
export type NetworkErrorKind =
  | "scheme" // not http(s)
  | "robots" // disallowed by robots.txt
  | "status" // non-2xx answer (see `status`)
  | "redirects" // too many redirects, or a redirect without a usable Location
  | "timeout"
  | "too-large"
  | "content-type" // refused by `accept`
  | "network" // DNS, connection, TLS, protocol errors
  | "aborted";

export interface UserErrorOptions {
  exitCode?: number;
  cause?: unknown;
  kind?: UserErrorKind;
}

/**
 * Any expected failure: the CLI prints `bitext: <message>` and exits with the status of its kind
 * (`src/cli/errors.ts`), else with `exitCode`.
 */
export class UserError extends Error {
  readonly exitCode: number;
  readonly kind: UserErrorKind | undefined;

  constructor(message: string, options: UserErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UserError";
    this.exitCode = options.exitCode ?? 1;
    this.kind = options.kind;
  }
}

/** A failure of the store at `path`; `code` is the database's or system's error code when one caused it. */
export class StoreError extends UserError {
  readonly path: string;
  readonly code: string | undefined;

  constructor(path: string, problem: string, options: UserErrorOptions & { code?: string } = {}) {
    super(`${path}: ${problem}`, options);
    this.name = "StoreError";
    this.path = path;
    this.code = options.code;
  }
}

/** The settings a caller passes whose values the library checks (the CLI takes each from its flag). */
export type Setting = "engines" | "faults" | "queue";

/** An unusable value of a setting: the message is `setting: problem`. */
export class SettingError extends UserError {
  readonly setting: Setting;
  readonly problem: string;

  constructor(setting: Setting, problem: string, options: UserErrorOptions = {}) {
    super(`${setting}: ${problem}`, { kind: "bad-setting", ...options });
    this.name = "SettingError";
    this.setting = setting;
    this.problem = problem;
  }
}

/** Where in the user's input a problem is: a file, and within it a line and a field (column, key, flag). */
export interface InputLocation {
  file: string;
  line?: number;
  field?: string;
}

/** Bad input: a file, line or field the user can fix. Its message is `file:line: field: problem`. */
export class InputError extends UserError {
  readonly file: string;
  readonly line: number | undefined;
  readonly field: string | undefined;
  readonly problem: string;

  constructor(where: InputLocation, problem: string, options: UserErrorOptions = {}) {
    const loc = where.line === undefined ? where.file : `${where.file}:${where.line}`;
    const field = where.field === undefined ? "" : ` ${where.field}:`;
    super(`${loc}:${field} ${problem}`, options);
    this.name = "InputError";
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
    this.problem = problem;
  }
}

/** `file:line: field: problem` — the one format every input error uses. */
export function inputError(where: InputLocation, problem: string): InputError {
  return new InputError(where, problem);
}

/** Too little data to do the job (e.g. training without both labels): the input is valid but not enough. */
export class NotEnoughData extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "NotEnoughData";
  }
}

/** A host that could not be reached or answered with a failure (DNS, refused, timeout, TLS, HTTP status). */
export class NetworkError extends UserError {
  readonly url: string;

  constructor(url: string, problem: string, options: UserErrorOptions = {}) {
    super(`${url}: ${problem}`, options);
    this.name = "NetworkError";
    this.url = url;
  }
}

/** A page whose layout is not the one a wrapper was learned on (another engine, a new layout, a block page). */
export class LayoutMismatch extends UserError {
  readonly page: string;

  constructor(page: string, problem: string) {
    super(`${page}: ${problem}`);
    this.name = "LayoutMismatch";
    this.page = page;
  }
}

/** A write aimed at the installation's shipped files, which are read-only (user data goes to the home). */
export class ReadOnlyInstallation extends UserError {
  readonly path: string;

  constructor(path: string) {
    super(`${path}: is a file of the bitext installation, which is read-only`);
    this.name = "ReadOnlyInstallation";
    this.path = path;
  }
}
