import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
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

/** The shipped folders and files no command may write to. */
const READ_ONLY_PARTS: readonly string[] = ["wrappers", "models", "queries", "data", "dist", "src"];

/**
 * Is `path` inside the installation's shipped files? A checkout's own scratch folders (test temp dirs,
 * `node_modules`) are not; the folders the package ships are. `data/demo` and other folders a user
 * made in a checkout before homes existed are left alone: only files the package ships count under `data/`.
 */
export function isInstallationPath(path: string): boolean {
  const rel = relative(PACKAGE_ROOT, resolve(path));
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return false;
  const [top] = rel.split(sep);
  if (!top || !READ_ONLY_PARTS.includes(top)) return false;
  if (top === "data") return rel === join("data", "annotations.bootstrap.jsonl");
  return true;
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
