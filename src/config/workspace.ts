import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import envPaths from "env-paths";
import { UserError } from "../errors.js";
import { PACKAGE_ROOT, resourcePath } from "../paths.js";

/**
 * Where things live. The installation (the package folder) holds read-only defaults: `wrappers/`,
 * `models/`, `queries/` and `data/` as shipped. Everything a user makes goes to their *home*:
 *
 *   1. the folder the caller named for a piece of work (`withHome(dir, work)`; the CLI's `--home DIR`), else
 *   2. `$BITEXT_HOME`, else
 *   3. the workspace: the nearest folder upward from the working directory holding `bitext.config.json`
 *      (or `.yaml` / `.yml`), the way git and npm find theirs (`bitext init` creates one), else
 *   4. the user data folder of the platform (`~/.local/share/bitext` on Linux, via env-paths).
 *
 * A home has the installation's layout (`wrappers/`, `models/`, `queries/`, `data/`), so a user's file
 * shadows the shipped file of the same name. This module is the one place that knows it.
 */

export const CONFIG_FILE_NAMES = ["bitext.config.json", "bitext.config.yaml", "bitext.config.yml"] as const;

/** The kinds of files a home and the installation both hold. */
export type ResourceKind = "wrappers" | "models" | "queries" | "data";
export const RESOURCE_KINDS: readonly ResourceKind[] = ["wrappers", "models", "queries", "data"];

/** How the home was found; "given": named by the caller with `withHome` (the CLI's `--home`). */
export type HomeSource = "given" | "BITEXT_HOME" | "workspace" | "user data folder";

export interface Home {
  /** Absolute folder. */
  dir: string;
  /** How it was found. */
  source: HomeSource;
  /** The config file in it, if there is one. */
  config: string | null;
}

/*
 * The home a caller named travels with the work it runs (AsyncLocalStorage), not in a module variable: two
 * commands run in one process (tests, an embedding program) each see their own, and nothing is left set after.
 */
const givenHome = new AsyncLocalStorage<string>();

/** Run `work` with `dir` as the home (undefined: the environment and the workspace decide, as usual). */
export function withHome<T>(dir: string | undefined, work: () => T): T {
  return dir === undefined ? work() : givenHome.run(resolve(dir), work);
}

/** The config file of the nearest folder upward from `from` that holds one, or null. */
export function findWorkspaceConfig(from: string = process.cwd()): string | null {
  let dir = resolve(from);
  for (;;) {
    const config = configFileIn(dir);
    if (config) return config;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The config file a folder holds (the first of CONFIG_FILE_NAMES), or null. */
export function configFileIn(dir: string): string | null {
  return configFilesIn(dir)[0] ?? null;
}

/** Every config file a folder holds (more than one is an error `loadSettings` reports). */
export function configFilesIn(dir: string): string[] {
  return CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => existsSync(file) && statSync(file).isFile());
}

/** The platform's user data folder for bitext (XDG_DATA_HOME on Linux). */
export function userDataFolder(): string {
  // env-paths reads XDG_DATA_HOME on every call but HOME once, when it loads (os.homedir()): a test that
  // changes the home in-process sets XDG_DATA_HOME.
  return envPaths("bitext", { suffix: "" }).data;
}

/** The current home: where the user's wrappers, models, store and annotations go. */
export function currentHome(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): Home {
  const found = ((): { dir: string; source: HomeSource } => {
    const given = givenHome.getStore();
    if (given) return { dir: given, source: "given" };
    if (env.BITEXT_HOME) return { dir: resolve(cwd, env.BITEXT_HOME), source: "BITEXT_HOME" };
    const config = findWorkspaceConfig(cwd);
    if (config) return { dir: dirname(config), source: "workspace" };
    return { dir: userDataFolder(), source: "user data folder" };
  })();
  if (resolve(found.dir) === PACKAGE_ROOT) {
    throw new UserError(
      `${found.dir}: is the bitext installation (${found.source === "given" ? "the home given" : found.source}), which is read-only; ` +
        "choose another folder with BITEXT_HOME, or run bitext init in a folder of your own",
      { kind: "home-is-installation" },
    );
  }
  return { ...found, config: configFileIn(found.dir) };
}

/** Where a user's file of a kind goes (written by commands; nothing is created here). */
export function userDataPath(kind: ResourceKind, name = ""): string {
  return join(currentHome().dir, kind, name);
}

/** The shipped file of a kind (read-only). */
export function shippedPath(kind: ResourceKind, name = ""): string {
  return resourcePath(kind, name);
}

export type Origin = "user" | "shipped" | "missing";

export interface ResolvedResource {
  name: string;
  path: string;
  origin: Origin;
}

/** The user's file if there is one, else the shipped one (whose path is returned even if it is missing). */
export function describeResource(kind: ResourceKind, name: string): ResolvedResource {
  const user = userDataPath(kind, name);
  if (existsSync(user)) return { name, path: user, origin: "user" };
  const shipped = shippedPath(kind, name);
  return { name, path: shipped, origin: existsSync(shipped) ? "shipped" : "missing" };
}

/** The file a command reads for `kind/name`: the user's, shadowing the shipped one of the same name. */
export function resolveResource(kind: ResourceKind, name: string): string {
  return describeResource(kind, name).path;
}

/** Every file of a kind whose name passes `keep`, the user's shadowing the shipped ones, sorted by name. */
export function listResources(kind: ResourceKind, keep: (name: string) => boolean = () => true): ResolvedResource[] {
  const byName = new Map<string, ResolvedResource>();
  for (const [dir, origin] of [
    [shippedPath(kind), "shipped"],
    [userDataPath(kind), "user"],
  ] as const) {
    for (const name of safeList(dir)) {
      if (keep(name) && !name.startsWith(".")) byName.set(name, { name, path: join(dir, name), origin });
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

// The installation guard lives beside PACKAGE_ROOT (src/paths.ts), below the io layer that calls it.
export { assertWritable, isInstallationPath } from "../paths.js";

export { resourcePath };
