import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package root (the folder holding package.json), whether the code runs from `src/` (tests, tsx)
 * or from `dist/` (the installed `bitext` bin).
 */
export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/**
 * A file shipped with the project (`models/default.json`, `wrappers/bing.json`, `queries/demo.tsv`, …),
 * resolved against the package root so `bitext` works from any working directory.
 * User data (the store, annotations a user writes) is resolved against the working directory instead.
 */
export function resourcePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const up = resolve(dir, "..");
    if (up === dir) return start;
    dir = up;
  }
}
