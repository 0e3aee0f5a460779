/**
 * The failures bitext expects — bad input, an unreachable network, a page of an unknown layout — as
 * typed errors, as opposed to bugs. The library throws them with messages about the data (never about
 * command-line flags); the CLI turns each kind into its one-line message and exit code in one place
 * (`src/cli/errors.ts`). Code that must tell failures apart checks the class, never the message.
 */

/**
 * Any expected failure: the CLI prints `bitext: <message>` and exits with the status of its kind
 * (`src/cli/errors.ts`), else with `exitCode`.
 */
export class UserError extends Error {
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UserError";
    this.exitCode = options.exitCode ?? 1;
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

  constructor(where: InputLocation, problem: string, options: { exitCode?: number; cause?: unknown } = {}) {
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

  constructor(url: string, problem: string, options: { exitCode?: number; cause?: unknown } = {}) {
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
