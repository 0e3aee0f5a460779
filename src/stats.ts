/** The median of `xs` (the mean of the two middle values for an even count); NaN for none. */
export function median(xs: ArrayLike<number>): number {
  if (xs.length === 0) return Number.NaN;
  const s = Array.from(xs).sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
