import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ReadOnlyInstallation } from "./errors.js";

/**
 * The package root (the folder holding package.json), whether the code runs from `src/` (tests, tsx)
 * or from `dist/` (the installed `bitext` bin).
 */
export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/**
 * A file shipped with the project (`models/default.json`, `wrappers/bing.json`, `queries/demo.tsv`, …),
 * resolved against the package root so `bitext` works from any working directory.
 * What a user makes goes to their home instead (src/config/workspace.ts); nothing is ever written here.
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

/**
 * Is `path` inside the installation (the package folder: package.json, dist/, wrappers/, models/, …)?
 * The one rule every writer goes through (`assertWritable`): a relative path is resolved against the working
 * directory, then symbolic links of its existing part are followed (an `npm link`ed install is the checkout), and
 * anything at or under the package root is the installation's. `node_modules` (npm's, not ours) is not.
 */
export function isInstallationPath(path: string): boolean {
  const rel = relative(realResolved(PACKAGE_ROOT), realResolved(path));
  if (rel.startsWith("..") || isAbsolute(rel)) return false;
  return rel.split(sep)[0] !== "node_modules";
}

/** `path` made absolute, with the symbolic links of its longest existing ancestor resolved. */
function realResolved(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest.reverse());
    } catch {
      const up = dirname(existing);
      if (up === existing) return absolute;
      rest.push(basename(existing));
      existing = up;
    }
  }
}

/**
 * Refuse to write into the installation (the one guard every writer calls): throws `ReadOnlyInstallation`,
 * which the CLI completes with where the user's home is. Maintainers regenerating a shipped file on purpose
 * set BITEXT_WRITE_INSTALLATION=1.
 */
export function assertWritable(path: string): void {
  if (process.env.BITEXT_WRITE_INSTALLATION === "1") return;
  if (isInstallationPath(path)) throw new ReadOnlyInstallation(path);
}
