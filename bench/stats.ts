/** Timing helpers for benchmarks: medians over repeated runs, never single runs (the machines are shared and noisy). */

export { median } from "../src/stats.js";

export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))));
  return s[i]!;
}

/** Milliseconds taken by each of `repeats` calls of `fn` (after `warmup` untimed calls). */
export function timeRepeated(fn: () => unknown, repeats = 5, warmup = 1): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

export async function timeRepeatedAsync(fn: () => Promise<unknown>, repeats = 5, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export function ms(x: number): string {
  return x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0);
}
