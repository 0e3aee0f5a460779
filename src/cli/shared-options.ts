import type { Command } from "commander";
import { defaultPair, demoStorePath, loadSettings, storePath } from "../config/index.js";
import { type LanguagePair, parseLanguagePair } from "../text/index.js";
import { UserError } from "../errors.js";
import { storeExists } from "../store/index.js";
import { intAtLeast, languagePairArgument, parseUnit, positiveNumberList, wholeNumber } from "./flags.js";

/**
 * Flags several commands share, named and described once so every command spells them alike.
 */

/** `--db FILE`: the store; its default comes from the config file or the home (see `bitext where`). */
export function storeOption(): [string, string] {
  return [
    "--db <file>",
    "the store: a SQLite file or a postgres:// URL (default: the config file's store, else data/bitext.db in your home; bitext where shows it)",
  ];
}

/** `--demo`: the store of the last `bitext demo` (data/demo/bitext.db in your home), for the commands that read a store. */
export function demoOption(): [string, string] {
  return [
    "--demo",
    "read the store of the last bitext demo (data/demo/bitext.db in your home; the default while you have no store of your own)",
  ];
}

export interface StoreFlags {
  db?: string;
  demo?: boolean;
}

/**
 * The store a command reads: `--db`, `--demo`, the config file's or the home's; it must exist. `demoFallback`
 * (commands that only read): with no store of the user's yet, the demo's is the current store, said on stderr.
 */
export function existingStore(flags: StoreFlags | string | undefined, options: { demoFallback?: boolean } = {}): string {
  const { db, demo } = typeof flags === "object" ? flags : { db: flags, demo: false };
  if (db !== undefined && demo) throw new UserError("give either --db or --demo, not both");
  const settings = loadSettings();
  if (demo) {
    const path = demoStorePath(settings);
    if (!storeExists(path)) throw new UserError(`${path}: no demo store yet (run bitext demo first)`);
    return path;
  }
  const path = storePath(db, settings);
  if (storeExists(path)) return path;
  const demoStore = demoStorePath(settings);
  if (db === undefined && options.demoFallback && storeExists(demoStore)) {
    process.stderr.write(`bitext: no store of yours yet (${path}): reading the demo's, ${demoStore}\n`);
    return demoStore;
  }
  throw new UserError(
    `${path}: no store here yet (run bitext harvest or bitext demo first, or pass --db FILE; bitext where shows the paths in use)`,
  );
}

/** A comma-separated flag value (`--engines bing,baidu`) as a list, blanks dropped. */
export function splitList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The cross-validation flags of `train` and `eval classifier`: folds, seed and the C × gamma grid. */
export function crossValidationOptions(command: Command, gridDefault: { c: string; gamma: string }): Command {
  return command
    .option("--folds <k>", "cross-validation folds", intAtLeast(2), 5)
    .option("--seed <n>", "seed of the fold assignment", (v) => Number.parseInt(v, 10), 1)
    .option("--c <list>", `grid of C values, comma-separated (default ${gridDefault.c})`, positiveNumberList)
    .option("--gamma <list>", `grid of gamma values, comma-separated (default ${gridDefault.gamma})`, positiveNumberList);
}

/** `--pair A-B`: the language pair; without it, the config file's `pair`, else en-zh. */
export function pairOption(): [string, string, (value: string) => LanguagePair] {
  return ["--pair <a-b>", "the language pair, columns in this order (default: the config file's pair, else en-zh)", languagePairArgument];
}

/** The pair a command works in: `--pair`, else the config file's (checked like the flag), else en-zh. */
export function resolvePair(flag: LanguagePair | undefined): LanguagePair {
  if (flag) return flag;
  const settings = loadSettings();
  if (!settings.config.pair) return defaultPair(settings);
  try {
    return parseLanguagePair(settings.config.pair);
  } catch (err) {
    throw new UserError(`${settings.home.config ?? "config file"}: pair: ${(err as Error).message}`);
  }
}

/** Which bilingual candidates have their pages fetched: `--min-probability P`, `--limit N` (fetch-pages, pipeline). */
export function candidateOptions<C extends Command>(command: C): C {
  return command
    .option("--min-probability <p>", "fetch only the pages of records at least this likely to be bilingual (0–1)")
    .option("--limit <n>", "fetch at most this many linked pages");
}

export interface CandidateFlags {
  minProbability?: string;
  limit?: string;
}

/** The candidate flags as `fetchBilingualPages` options (checked: a bad value names its flag). */
export function candidateSelection(flags: CandidateFlags): { minProbability?: number; limit?: number } {
  return {
    ...(flags.minProbability === undefined ? {} : { minProbability: parseUnit("--min-probability", flags.minProbability) }),
    ...(flags.limit === undefined ? {} : { limit: wholeNumber("--limit", flags.limit, 1) }),
  };
}
