import type { Command } from "commander";
import { defaultPair, loadSettings, storePath } from "../config/index.js";
import { type LanguagePair, parseLanguagePair } from "../text/index.js";
import { UserError } from "../errors.js";
import { storeExists } from "../store/index.js";
import { intAtLeast, languagePairArgument, positiveNumberList } from "./flags.js";

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

/** The store a command reads: `--db`, the config file's, or the home's; it must exist. */
export function existingStore(flag: string | undefined): string {
  const path = storePath(flag);
  if (!storeExists(path)) {
    throw new UserError(
      `${path}: no store here yet (run bitext harvest or bitext demo first, or pass --db FILE; bitext where shows the paths in use)`,
    );
  }
  return path;
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
