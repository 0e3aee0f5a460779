import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UserError } from "../errors.js";
import { writeFileAtomic } from "../io/index.js";
import { assertWritable } from "../paths.js";

/**
 * The demo's folder, replaced as a whole and only when a demo succeeds: a run builds everything in a
 * staging folder beside it and swaps it in at the end, so a demo that fails (bad query list, no browser,
 * Ctrl-C) leaves the previous demo's store, wrappers and corpus as they were.
 */

/** The file that marks a folder as a demo's own (so replacing it never deletes a folder of the user's). */
export const DEMO_MARKER = ".bitext-demo";

/** What demos wrote before the marker existed: a folder holding only these is a demo's too. */
const DEMO_ENTRIES = /^(bitext\.db(-wal|-shm)?|wrappers|corpus\..+|report\..+|\.bitext-demo)$/;

export interface DemoFolder {
  /** Where the demo ends up (absolute). */
  dir: string;
  /** Where this run writes (absolute), swapped in by `commit`. */
  staging: string;
  /** Put the staging folder in the demo folder's place (the previous demo is removed). */
  commit(): void;
  /** Remove the staging folder (the previous demo is untouched). */
  discard(): void;
}

/** Make the staging folder of a demo in `dir`; refuses a `dir` in the installation or holding other files. */
export function stageDemoFolder(dir: string): DemoFolder {
  const target = resolve(dir);
  assertWritable(target);
  if (existsSync(target) && !isDemoFolder(target)) {
    throw new UserError(`${target}: holds files that are not a demo's, which the demo would replace; give the demo a folder of its own`);
  }
  const staging = join(dirname(target), `.${basename(target)}.new-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, DEMO_MARKER), "a bitext demo folder: bitext demo replaces it as a whole\n");
  return {
    dir: target,
    staging,
    commit() {
      relocateWrapperFiles(staging, target);
      const old = join(dirname(target), `.${basename(target)}.old-${process.pid}`);
      const hadOne = existsSync(target);
      if (hadOne) renameSync(target, old);
      try {
        renameSync(staging, target);
      } catch (err) {
        if (hadOne) renameSync(old, target);
        throw err;
      }
      rmSync(old, { recursive: true, force: true });
    },
    discard() {
      rmSync(staging, { recursive: true, force: true });
    },
  };
}

/** The wrapper files name their sample page by its path (provenance): the path it has once swapped in. */
function relocateWrapperFiles(staging: string, target: string): void {
  const dir = join(staging, "wrappers");
  if (!existsSync(dir)) return;
  const [from, to] = [staging, target].map((p) => JSON.stringify(p).slice(1, -1)) as [string, string];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const text = readFileSync(join(dir, name), "utf8");
    if (text.includes(from)) writeFileAtomic(join(dir, name), text.split(from).join(to));
  }
}

function isDemoFolder(dir: string): boolean {
  if (!statSync(dir).isDirectory()) return false;
  const entries = readdirSync(dir);
  return entries.includes(DEMO_MARKER) || entries.every((e) => DEMO_ENTRIES.test(e));
}

/** `value` with every string's `from` prefix (the staging folder) replaced by `to` (the demo folder). */
export function relocated<T>(value: T, from: string, to: string): T {
  if (typeof value === "string") return value.split(from).join(to) as T;
  if (Array.isArray(value)) return value.map((v) => relocated(v, from, to)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relocated(v, from, to)])) as T;
  }
  return value;
}
