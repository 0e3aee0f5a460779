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
