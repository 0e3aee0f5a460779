import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * How to run this very `bitext` again from any folder, for the commands a command prints for the user to
 * type next: `bitext` when the `bitext` on the PATH is this one, else this program by its absolute path
 * (a checkout's `dist/cli/main.js`, which `npx bitext` runs but a shell in another folder cannot find).
 */
export function selfCommand(argv1: string | undefined = process.argv[1], path: string = process.env.PATH ?? ""): string {
  if (!argv1) return "bitext";
  const self = real(argv1);
  const onPath = path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, "bitext"))
    .find(isExecutable);
  if (onPath && real(onPath) === self) return "bitext";
  // A TypeScript entry (a developer's tsx run) is not a command: node runs the built one beside it.
  return `node ${quoted(self.replace(/([/\\])src[/\\]cli[/\\]main\.ts$/, "$1dist$1cli$1main.js"))}`;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A word for a POSIX shell: as it is when it is safe, else in single quotes. */
export function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
