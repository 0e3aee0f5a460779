import { existsSync } from "node:fs";
import { storePath } from "../config/index.js";
import { UserError } from "../errors.js";

/**
 * Flags several commands share, named and described once so every command spells them alike.
 */

/** `--db FILE`: the store; its default comes from the config file or the home (see `bitext where`). */
export function storeOption(): [string, string] {
  return ["--db <file>", "the store (default: the config file's store, else data/bitext.db in your home; bitext where shows it)"];
}

/** The store a command reads: `--db`, the config file's, or the home's; it must exist. */
export function existingStore(flag: string | undefined): string {
  const path = storePath(flag);
  if (!existsSync(path)) {
    throw new UserError(`${path}: no store here yet (run bitext harvest or bitext demo first, or pass --db FILE; bitext where shows the paths in use)`);
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
