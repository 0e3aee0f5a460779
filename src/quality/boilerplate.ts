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
  /** The patterns as one alternation (one test a side), or null when there are none or they cannot be joined. */
  any: RegExp | null;
}

const EMPTY: Boilerplate = { labels: new Set(), patterns: [], any: null };
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
  return { labels, patterns, any: joined(patterns) };
}

/**
 * The patterns as one alternation, tested once a side instead of once each; null when they cannot be joined: a
 * numbered back-reference would point at another pattern's group, and two groups of one name are an error.
 */
function joined(patterns: readonly RegExp[]): RegExp | null {
  if (patterns.length === 0 || patterns.some((re) => /\\\d/.test(re.source))) return null;
  try {
    return new RegExp(patterns.map((re) => `(?:${re.source})`).join("|"), "iu");
  } catch {
    return null;
  }
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
  if (b.any) return b.any.test(text);
  for (const re of b.patterns) if (re.test(text)) return true;
  return false;
}
