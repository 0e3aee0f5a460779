import { readFileSync } from "node:fs";
import { listResources } from "../config/index.js";
import type { Lang } from "../language-pair.js";
import { comparableText, lexiconForm } from "../text/index.js";

/**
 * Boilerplate of a language — navigation labels, "read more", copyright lines, dates alone — as data:
 * `models/boilerplate-<lang>.txt` (the user's copy shadowing the shipped one). One label per line, compared
 * on `comparableText`, or `/a regular expression/` tested on the whole trimmed side, case-insensitive.
 */
export interface Boilerplate {
  labels: ReadonlySet<string>;
  patterns: readonly RegExp[];
}

const EMPTY: Boilerplate = { labels: new Set(), patterns: [] };
const cache = new Map<Lang, Boilerplate>();

/** Parse a boilerplate file's text (`path` names it in errors). */
export function parseBoilerplate(text: string, lang: Lang): Boilerplate {
  const labels = new Set<string>();
  const patterns: RegExp[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (line.length > 2 && line.startsWith("/") && line.endsWith("/")) patterns.push(new RegExp(line.slice(1, -1), "iu"));
    else labels.add(comparableText(lexiconForm(line, lang)));
  }
  return { labels, patterns };
}

/** The boilerplate of `lang` (none when no file names it). */
export function boilerplateOf(lang: Lang): Boilerplate {
  const hit = cache.get(lang);
  if (hit) return hit;
  const file = listResources("models", (n) => n === `boilerplate-${lang}.txt`)[0];
  const parsed = file ? parseBoilerplate(readFileSync(file.path, "utf8"), lang) : EMPTY;
  cache.set(lang, parsed);
  return parsed;
}

/** Is the whole side boilerplate? `text` is trimmed and in lexicon form. */
export function isBoilerplate(text: string, key: string, b: Boilerplate): boolean {
  if (b.labels.has(key)) return true;
  for (const re of b.patterns) if (re.test(text)) return true;
  return false;
}
