/** Output helpers shared by every command: JSON for programs, plain lines for people. */

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export function printLine(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** Render rows as an aligned text table (first row is the header). */
export function formatTable(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths: number[] = [];
  for (const r of cells) {
    for (const [i, c] of r.entries()) widths[i] = Math.max(widths[i] ?? 0, displayWidth(c));
  }
  return cells
    .map((r) =>
      r
        .map((c, i) => c + " ".repeat((widths[i] ?? 0) - displayWidth(c)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** Terminal columns taken by a string: CJK and other wide characters count double. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    w += cp >= 0x1100 && /[\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u.test(ch) ? 2 : 1;
  }
  return w;
}
