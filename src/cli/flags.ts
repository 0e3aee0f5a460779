import { InvalidArgumentError } from "commander";
import { UserError } from "../errors.js";
import { formatDuration, parseDuration } from "../duration.js";
import { type LanguagePair, parseLanguagePair } from "../text/index.js";

/**
 * Flag values every command reads alike. Durations take units everywhere (`500ms`, `30s`, `2h`, `1h30m`,
 * one parser: src/duration.ts): a bare number other than 0 is refused, since one command read it as seconds
 * and another as milliseconds (`--timeout 30`), so no flag name has two meanings.
 */

/** A duration flag's value in milliseconds; `flag` names it in the error. */
export function durationMs(flag: string, value: string): number {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text) && Number(text) !== 0) {
    throw new UserError(`${flag}: give the unit: ${text}s or ${text}ms (durations take units: 500ms, 30s, 2m, 1h30m)`);
  }
  try {
    return parseDuration(text, flag);
  } catch {
    throw new UserError(`${flag}: expected a duration such as 500ms, 30s, 2m or 1h30m, got "${value}"`);
  }
}

/** The help text's way of writing a default duration (`20s`, `1s`). */
export function showDuration(ms: number): string {
  return formatDuration(ms);
}

/** A positive duration (a timeout). */
export function positiveDurationMs(flag: string, value: string): number {
  const ms = durationMs(flag, value);
  if (ms <= 0) throw new UserError(`${flag}: expected a duration above 0, got "${value}"`);
  return ms;
}

/*
 * Argument parsers for commander options (`.option("--folds <k>", "…", intAtLeast(2), 5)`): one wording of
 * each problem across commands; commander prefixes the flag ("option '--folds <k>' argument …").
 */

/** `value` as a whole number in [min, max], or the wording of the problem. */
function readWholeNumber(value: string, min: number, max: number): number | string {
  const n = value.trim() === "" ? Number.NaN : Number(value);
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  return max === Number.POSITIVE_INFINITY ? `a whole number ≥ ${min}` : `${min}–${max}`;
}

/**
 * A flag's value read after parsing (`wholeNumber("--pages", flags.pages, 1)`): a whole number ≥ `min`
 * (and ≤ `max`); the error names the flag. The one parser of integer flags with `intAtLeast`.
 */
export function wholeNumber(flag: string, value: string, min: number, max = Number.POSITIVE_INFINITY): number {
  const n = readWholeNumber(value, min, max);
  if (typeof n === "string") throw new UserError(`${flag}: expected ${n}, got "${value}"`);
  return n;
}

/** A whole number ≥ `min` (and ≤ `max`), as a commander argument parser. */
export function intAtLeast(min: number, max = Number.POSITIVE_INFINITY): (value: string) => number {
  return (value) => {
    const n = readWholeNumber(value, min, max);
    if (typeof n === "string") throw new InvalidArgumentError(`"${value}" is not ${n}`);
    return n;
  };
}

/** A whole number ≥ 1. */
export const positiveInt = intAtLeast(1);

/** A TCP port (0: any free one). */
export const portNumber = intAtLeast(0, 65535);

/** A probability strictly between 0 and 1. */
export function probability(value: string): number {
  const n = Number(value);
  if (!(n > 0 && n < 1)) throw new InvalidArgumentError(`"${value}" is not a probability in (0, 1)`);
  return n;
}

/** A comma-separated list of positive numbers (`0.5,2,8`). */
export function positiveNumberList(value: string): number[] {
  const xs = value.split(",").map(Number);
  if (xs.length === 0 || !xs.every((x) => x > 0 && Number.isFinite(x))) {
    throw new InvalidArgumentError(`"${value}" is not a comma-separated list of positive numbers`);
  }
  return xs;
}

/** A language-pair flag's value (`en-zh`, `en-ja`, …), read after parsing; the error names the flag. */
export function languagePair(flag: string, value: string): LanguagePair {
  try {
    return parseLanguagePair(value);
  } catch (err) {
    throw err instanceof UserError ? new UserError(`${flag}: ${err.message}`) : err;
  }
}

/** A language pair, as a commander argument parser. */
export function languagePairArgument(value: string): LanguagePair {
  try {
    return parseLanguagePair(value);
  } catch (err) {
    throw err instanceof UserError ? new InvalidArgumentError(err.message) : err;
  }
}

/** A number from 0 to 1 (a probability, a share, a score) given to `flag`. */
export function parseUnit(flag: string, value: string): number {
  const x = Number(value);
  if (!Number.isFinite(x) || x < 0 || x > 1) throw new UserError(`${flag}: expected a number from 0 to 1, got "${value}"`);
  return x;
}
