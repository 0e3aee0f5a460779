import { InvalidArgumentError } from "commander";
import { UserError } from "../errors.js";
import { formatDuration, parseDuration } from "../serp/duration.js";

/**
 * Flag values every command reads alike. Durations take units everywhere (`500ms`, `30s`, `2h`, `1h30m`,
 * one parser: src/serp/duration.ts); a bare number keeps the unit the flag had before units existed
 * (milliseconds for --delay, seconds for harvest's --timeout), so old command lines mean what they meant.
 */

export type BareUnit = "ms" | "s";

/** A duration flag's value in milliseconds; `flag` names it in the error. */
export function durationMs(flag: string, value: string, bareUnit: BareUnit): number {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * (bareUnit === "s" ? 1000 : 1));
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
export function positiveDurationMs(flag: string, value: string, bareUnit: BareUnit): number {
  const ms = durationMs(flag, value, bareUnit);
  if (ms <= 0) throw new UserError(`${flag}: expected a duration above 0, got "${value}"`);
  return ms;
}

/*
 * Argument parsers for commander options (`.option("--folds <k>", "…", intAtLeast(2), 5)`): one wording of
 * each problem across commands; commander prefixes the flag ("option '--folds <k>' argument …").
 */

/** A whole number ≥ `min`. */
export function intAtLeast(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`"${value}" is not a whole number ≥ ${min}`);
    return n;
  };
}

/** A whole number ≥ 1. */
export const positiveInt = intAtLeast(1);

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
