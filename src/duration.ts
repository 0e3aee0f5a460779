import { UserError } from "./errors.js";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parse a duration such as `90s`, `30m`, `20h`, `7d`, `1h30m` or `0` into milliseconds. */
export function parseDuration(text: string, what = "duration"): number {
  const s = text.trim().toLowerCase();
  if (s === "0") return 0;
  let total = 0;
  let rest = s;
  const part = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/;
  if (rest === "") throw new UserError(`${what}: empty duration`);
  while (rest !== "") {
    const m = part.exec(rest);
    if (!m) throw new UserError(`${what}: cannot read "${text}" (use e.g. 30m, 20h, 7d, 1h30m, or 0)`);
    total += Number(m[1]) * UNITS[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return Math.round(total);
}

export function formatDuration(ms: number): string {
  if (ms === 0) return "0";
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
