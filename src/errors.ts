/**
 * An error caused by the user's input (a bad file, flag or line), as opposed to a bug.
 * The CLI prints its message as one line, `bitext: <message>`, and exits with `exitCode`.
 * Messages name the file, line and field at fault so the user can fix them without a stack trace.
 */
export class UserError extends Error {
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UserError";
    this.exitCode = options.exitCode ?? 1;
  }
}

/** `file:line: field: problem` — the one format every input error uses. */
export function inputError(
  where: { file: string; line?: number; field?: string },
  problem: string,
): UserError {
  const loc = where.line === undefined ? where.file : `${where.file}:${where.line}`;
  const field = where.field === undefined ? "" : ` ${where.field}:`;
  return new UserError(`${loc}:${field} ${problem}`);
}
