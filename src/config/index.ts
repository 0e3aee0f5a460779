import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { UserError } from "../errors.js";
import { EN_ZH, type LanguagePair } from "../language-pair.js";
import { parseJsonTextAt, readTextFile, validated } from "../io/index.js";
import { isPostgresUrl } from "../store/index.js";
import type { HarvestConfigInput } from "./harvest.js";
import { type ConfigFileContent, configSchema, DEFAULTS } from "./schema.js";
import { configFilesIn, currentHome, describeResource, type Home, listResources, userDataPath } from "./workspace.js";

export * from "./harvest.js";
export * from "./schema.js";
export * from "./workspace.js";

/**
 * The settings a command starts from: the home, its config file (validated), and the paths every
 * command shares (store, model, annotations), each resolved as flag > config file > default.
 */
export interface Settings {
  home: Home;
  /** The config file's content, paths resolved against its folder; {} without a file. */
  config: ConfigFileContent;
}

/** Read and check a config file (JSON or YAML); errors name the file, the line or the key. */
export function readConfigFile(file: string): ConfigFileContent {
  const shown = displayPath(file);
  const text = readTextFile(file, "config file");
  let raw: unknown;
  if (/\.ya?ml$/i.test(file)) {
    try {
      raw = parseYaml(text) ?? {};
    } catch (err) {
      if (err instanceof YAMLParseError) {
        const at = err.linePos?.[0];
        const reason = err.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
        throw new UserError(`${shown}${at ? `:${at.line}:${at.col}` : ""}: not valid YAML (${reason})`);
      }
      throw err;
    }
  } else raw = parseJsonTextAt(text, shown);
  const config = validated(configSchema, raw, shown);
  const base = dirname(file);
  const rel = (p: string) => (isAbsolute(p) ? p : join(base, p));
  return {
    ...config,
    ...(config.store ? { store: isPostgresUrl(config.store) ? config.store : rel(config.store) } : {}),
    ...(typeof config.model === "string" ? { model: rel(config.model) } : {}),
    ...(config.proxies?.file ? { proxies: { ...config.proxies, file: rel(config.proxies.file) } } : {}),
  };
}

/** The current settings (the config file is read each time: commands call this once). */
export function loadSettings(): Settings {
  const home = currentHome();
  const files = configFilesIn(home.dir);
  if (files.length > 1) {
    throw new UserError(`${files.map(displayPath).join(" and ")}: two config files in ${home.dir}; keep one (bitext reads only one)`);
  }
  return { home, config: home.config ? readConfigFile(home.config) : {} };
}

/** The store (a SQLite file or a PostgreSQL URL): `--db` if given, else the config file's `store`, else `data/bitext.db` in the home. */
export function storePath(flag?: string, settings: Settings = loadSettings()): string {
  return flag ?? settings.config.store ?? join(settings.home.dir, DEFAULTS.store);
}

/** The folder `bitext demo` builds in by default: `data/demo` in the home. */
export function demoFolder(settings: Settings = loadSettings()): string {
  return join(settings.home.dir, DEFAULTS.demoDir);
}

/** The store of the demo in `demoFolder()`. */
export function demoStorePath(settings: Settings = loadSettings()): string {
  return join(demoFolder(settings), "bitext.db");
}

/**
 * The classifier model: `--model` if given, else the config file's `model` (null: none), else the
 * user's `models/default.json` (written by `bitext train`), else the shipped one.
 */
export function modelPath(flag?: string, settings: Settings = loadSettings()): string | null {
  if (flag) return flag;
  if (settings.config.model !== undefined) return settings.config.model;
  return describeResource("models", "default.json").path;
}

/** The language pair when no `--pair` is given: the config file's `pair`, else English–Chinese. */
export function defaultPair(settings: Settings = loadSettings()): LanguagePair {
  if (!settings.config.pair) return EN_ZH;
  const [a, b] = settings.config.pair.split("-") as [string, string];
  return a === EN_ZH.a && b === EN_ZH.b ? EN_ZH : { a, b };
}

/** The engines harvested when no `--engines` is given: the config file's enabled engines, else DEFAULTS. */
export function defaultEngines(settings: Settings = loadSettings()): string[] {
  const engines = settings.config.engines;
  if (!engines) return [...DEFAULTS.engines];
  return Object.entries(engines)
    .filter(([, e]) => e.enabled)
    .map(([name]) => name);
}

/** The annotations file `bitext annotate` appends to by default. */
export function annotationsPath(settings: Settings = loadSettings()): string {
  return join(settings.home.dir, DEFAULTS.annotations);
}

/** The user's wrapper file of an engine (where learning writes). */
export function userWrapperPath(engine: string): string {
  return userDataPath("wrappers", `${engine}.json`);
}

/** The learned lexicons in use: `models/lexicon-*.tsv`, the user's shadowing the shipped ones of the same name. */
export function lexiconFiles(): string[] {
  return listResources("models", (n) => n.startsWith("lexicon-") && n.endsWith(".tsv")).map((r) => r.path);
}

/** A path as the user would type it: relative to the working directory when that is shorter. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && rel.length < path.length ? rel : path;
}

/** Does the file exist (for `bitext where`'s listing)? */
export function exists(path: string | null): boolean {
  return path !== null && existsSync(path);
}

/** Politeness an engine gets from the config file (its own settings over the file's `politeness`), in ms. */
export function configuredPoliteness(
  engine: string,
  settings: Settings = loadSettings(),
): Partial<{ minDelayMs: number; requestsPerMinute: number; maxConcurrent: number }> {
  const merged = { ...settings.config.politeness, ...settings.config.engines?.[engine]?.politeness };
  return {
    ...(merged.minDelay !== undefined ? { minDelayMs: merged.minDelay } : {}),
    ...(merged.requestsPerMinute !== undefined ? { requestsPerMinute: merged.requestsPerMinute } : {}),
    ...(merged.maxConcurrent !== undefined ? { maxConcurrent: merged.maxConcurrent } : {}),
  };
}

/** What the config file's `blocks` sets of a harvest's settings (in ms); what it leaves out takes the harvest's defaults. */
export function configuredBlocks(settings: Settings = loadSettings()): HarvestConfigInput {
  const b = settings.config.blocks ?? {};
  return {
    blockRetries: b.retries,
    maxWaitMs: b.maxWait,
    backoff: { baseMs: b.backoff, maxMs: b.maxBackoff },
    breaker: { threshold: b.pauseAfter, cooldownMs: b.pause, maxTrips: b.maxPauses },
  };
}
