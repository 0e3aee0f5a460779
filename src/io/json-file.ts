import type { z } from "zod";
import { UserError } from "../errors.js";
import { jsonErrorPosition } from "./json-position.js";
import { readUserTextFile } from "./text-file.js";

/**
 * Reading the project's JSON files (wrapper files, model files, schedule configs, gold data) with the
 * one error format users see: `FILE: problem`, `FILE: not valid JSON (…)`, `FILE: field.path: problem`.
 */

/**
 * The text of a file; a missing or unreadable file, or one that is not UTF-8 text (binary, NUL bytes),
 * is a UserError naming it, the line at fault and what it should have been (see `text-file.ts`).
 */
export function readTextFile(path: string, what: string, hint = ""): string {
  return readUserTextFile(path, { what, hint });
}

/** Parse JSON text; a syntax error is `FILE: not valid JSON (… at position N)`. */
export function parseJsonText(text: string, path: string, hint = ""): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path}: not valid JSON (${(err as Error).message.split("\n")[0]})${hint}`);
  }
}

/**
 * Parse JSON text a person edits (a config file): a syntax error is `FILE:LINE:COLUMN: not valid JSON (…)`,
 * the line and column of the first character that is not JSON.
 */
export function parseJsonTextAt(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const at = jsonErrorPosition(text);
    const reason = (err as Error).message
      .split("\n")[0]!
      .replace(/ in JSON at position \d+.*$/, "")
      .replace(/, ".*$/, "");
    throw new UserError(`${path}${at ? `:${at.line}:${at.column}` : ""}: not valid JSON (${reason})`);
  }
}

/** Read a JSON file: `what` names it in errors ("wrapper file", "schedule config", …). */
export function readJsonFile(path: string, what: string, hint = ""): unknown {
  return parseJsonText(readTextFile(path, what, hint), path, hint);
}

/** Check a parsed value against a schema; the first problem becomes `FILE: field.path: message`. */
export function validated<S extends z.ZodType>(schema: S, value: unknown, path: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UserError(`${path}: ${issue.path.map(String).join(".") || "(file)"}: ${issue.message}`);
}
