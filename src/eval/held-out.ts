/**
 * The held-out list (`--exclude test/holdout.md`): pages kept out of tuning and reported apart. One path per
 * line, a Markdown list item or bare; `#` lines, prose and anything not naming an `.html` page are ignored.
 * A page is held out when its path and a listed path are the same, or one ends with the other at a `/`.
 */
import { readFileSync } from "node:fs";
import { UserError } from "../errors.js";

/** The paths a held-out list names (see the module's comment). */
export function parseHeldOutList(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/u)) {
    const line = raw
      .replace(/^\s*[-*]\s+/u, "")
      .replace(/`/gu, "")
      .trim();
    if (!line || line.startsWith("#") || !/\.html?$/u.test(line)) continue;
    out.push(bare(line));
  }
  return out;
}

/** The held-out list in `file`; a file that cannot be read is a one-line error naming it. */
export function readHeldOutList(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`${file}: cannot read the held-out list (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseHeldOutList(text);
}

/**
 * Whether `path` (absolute, or relative to any folder of the data) is a page of the list: a listed path may be
 * longer ("aql-more/ask/x.html" for a set's "ask/x.html") or shorter ("site/x.html" for "/data/real/site/x.html").
 */
export function isHeldOut(path: string, list: readonly string[]): boolean {
  const p = bare(path.replace(/\\/gu, "/"));
  return list.some((x) => p === x || p.endsWith(`/${x}`) || x.endsWith(`/${p}`));
}

function bare(path: string): string {
  return path.replace(/^(?:\.?\/)+/u, "");
}
