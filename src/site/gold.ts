/**
 * Gold page pairs for `bitext eval site`, and the matching of predicted pairs against them.
 *
 * A gold file is JSON: an array of objects, or one object per line (the `bitext site pair --json` output),
 * each naming the two pages under the pair's language codes: `{"en": "en/about/index.html", "zh": "about/index.html"}`.
 * Other fields are ignored; entries with a missing side (a page without a translation) are skipped.
 * Pages are named by path or URL: both are reduced to a site path (`about/`), so a gold file written
 * against a mirror scores a crawl of the same site served anywhere.
 */
import { readFileSync } from "node:fs";
import { inputError, UserError } from "../errors.js";
import { type Counts, matchMultiset } from "../eval/index.js";
import type { LanguagePair } from "../text/index.js";

export interface GoldPair {
  a: string;
  b: string;
}

export interface GoldFile {
  pairs: GoldPair[];
  /** Entries without one of the two pages. */
  skipped: number;
}

export function readGoldPairs(file: string, pair: LanguagePair): GoldFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: cannot read gold pairs (${code === "ENOENT" ? "no such file" : (code ?? String(err))})`);
  }
  const entries: Array<{ value: unknown; line: number }> = [];
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (err) {
      throw inputError({ file }, `not valid JSON (${(err as Error).message})`);
    }
    (value as unknown[]).forEach((v, i) => {
      entries.push({ value: v, line: i + 1 });
    });
  } else {
    text.split("\n").forEach((raw, i) => {
      if (!raw.trim()) return;
      try {
        entries.push({ value: JSON.parse(raw), line: i + 1 });
      } catch {
        throw inputError({ file, line: i + 1 }, "not a JSON object (expected an array, or one object per line)");
      }
    });
  }
  const pairs: GoldPair[] = [];
  let skipped = 0;
  for (const { value, line } of entries) {
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      throw inputError({ file, line }, `expected an object with "${pair.a}" and "${pair.b}"`);
    }
    const o = value as Record<string, unknown>;
    const a = o[pair.a];
    const b = o[pair.b];
    for (const [name, v] of [
      [pair.a, a],
      [pair.b, b],
    ] as const) {
      if (v !== undefined && v !== null && typeof v !== "string") {
        throw inputError({ file, line, field: name }, "must be a page path or URL (a string) or null");
      }
    }
    if (!(pair.a in o) && !(pair.b in o)) {
      throw inputError({ file, line }, `has neither "${pair.a}" nor "${pair.b}"`);
    }
    if (typeof a !== "string" || typeof b !== "string" || !a || !b) {
      skipped++;
      continue;
    }
    pairs.push({ a, b });
  }
  return { pairs, skipped };
}

/**
 * A page name as a site path for matching: the URL's path and query (or the relative path), without the
 * leading slash, `index.html` read as its folder, percent-escapes decoded.
 */
export function sitePath(name: string): string {
  let path = name;
  const abs = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(name);
  if (abs) path = abs[1] || "/";
  path = path.replace(/#.*$/, "").replace(/^\.?\/+/, "");
  path = path.replace(/(^|\/)(index|default)\.(html?|shtml|php|aspx?|jsp)(?=$|\?)/i, "$1");
  try {
    path = decodeURI(path);
  } catch {
    // keep the raw form
  }
  return path;
}

/** Precision/recall counts of predicted page pairs against gold pairs (each compared as a pair of site paths). */
export function matchPairs(predicted: readonly GoldPair[], gold: readonly GoldPair[]): Counts {
  const key = (p: GoldPair) => `${sitePath(p.a)}\u0000${sitePath(p.b)}`;
  return matchMultiset(predicted.map(key), gold.map(key));
}
