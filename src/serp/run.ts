import { type LanguagePair, parallelText } from "../language-pair.js";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SettingError, UserError } from "../errors.js";
import {
  configuredBlocks,
  configuredPoliteness,
  type HarvestConfigInput,
  harvestConfig,
  harvestSettingsOver,
  loadSettings,
  resolveResource,
} from "../config/index.js";
import { finishRun, getRun, openStore, startExclusiveRun } from "../store/index.js";
import type { SerpDriver } from "./driver.js";
import { defaultWrappersDir, type EngineSetup, loadEngine } from "./engine-files.js";
import { type HarvestEvent, type HarvestStats, type HarvestSummary, harvest, type RecordClassifier } from "./harvest.js";
import type { InterpretOptions } from "./interpret.js";
import { defaultProfileDir } from "./profile.js";
import type { FetchMode } from "./engines.js";
import { HttpLoader } from "./http-loader.js";
import { LazyBrowser } from "./lazy-browser.js";
import { ProxyPool, type ProxySpec } from "./proxies.js";
import { checkQueryLengths, readQueryFiles } from "./queries.js";

/**
 * One harvest run as a command runs it: read the query lists and engine files (failing fast, before
 * a browser starts), open the store, load the classifier when there is a model, drive Chromium, and
 * close everything whatever happens. Shared by `bitext harvest`, `bitext daemon` and `bitext demo`.
 */

/** A harvest as a command runs it; its settings (`HarvestConfigInput`) over the config file's `blocks`, then the defaults. */
export interface HarvestRunOptions extends HarvestConfigInput {
  queryFiles: readonly string[];
  /** The languages of the query lists' columns (a list's own `# languages:` header wins; default en–zh). */
  pair?: LanguagePair;
  engines: readonly string[];
  db: string;
  /** Folder of wrapper files (default: the shipped `wrappers/`). */
  wrappersDir?: string;
  /** Classifier model: a path, undefined for the default model if it exists, null for none. */
  model?: string | null;
  /** Learn and re-learn wrappers from pages (self-healing). */
  learn?: boolean;
  chromium?: string;
  /** Per-engine browser profiles (cookies kept between runs): a folder, undefined for the default one, null for none. */
  profileDir?: string | null;
  /** Accept consent interstitials through the page's own button. */
  acceptConsent?: boolean;
  /** Show the browser window. */
  headed?: boolean;
  /** Keep a Playwright trace (zip) of every failed page in this folder. */
  traceDir?: string | null;
  /** Proxies rotated per engine context (none: direct). */
  proxies?: readonly ProxySpec[];
  /** One fetch mode for every engine (default: each engine's definition, `browser` unless it says otherwise). */
  fetchMode?: FetchMode | null;
  /** A browser already started (the caller closes it); else one is started for the run. */
  driver?: SerpDriver;
  interpret?: Partial<InterpretOptions>;
  signal?: AbortSignal;
  onEvent?: (event: HarvestEvent) => void;
  onProgress?: (stats: HarvestStats) => void;
  /** Recorded with the run. */
  runOptions?: unknown;
}

export interface HarvestRunResult extends HarvestSummary {
  db: string;
  queries: number;
  engineNames: string[];
  /** The classifier model used, or null when records were stored unclassified. */
  model: string | null;
}

export async function runHarvest(o: HarvestRunOptions): Promise<HarvestRunResult> {
  if (o.queryFiles.length === 0) throw new UserError("harvest: give at least one query list (QUERIES.tsv)");
  if (o.engines.length === 0) throw new SettingError("engines", "give at least one engine");
  const queries = readQueryFiles(o.queryFiles.map(resolveQueryFile), o.pair);
  if (queries.length === 0) throw new UserError(`${o.queryFiles.join(", ")}: no queries (only comments or blank lines)`);
  const engines = loadConfiguredEngines(o.engines, o.wrappersDir);
  checkQueryLengths(queries, engines);
  const classifier = await loadRecordClassifier(o.model);
  if (o.headed && !o.driver) checkDisplay();
  const store = await openStore(o.db);
  let runId: number;
  try {
    // The store's lock before anything starts: a second harvest is refused at once, not after a browser came up.
    runId = await startExclusiveRun(store, o.runOptions ?? {});
  } catch (err) {
    await store.close();
    throw err;
  }
  const profileDir = o.profileDir === undefined ? defaultProfileDir() : o.profileDir;
  // The run's settings: those given here over the config file's `blocks`, the rest by default (config/harvest.ts).
  const config = harvestConfig(harvestSettingsOver(configuredBlocks(), o));
  const proxies = o.proxies && o.proxies.length > 0 ? new ProxyPool(o.proxies) : null;
  // The browser starts at the first page that needs it: never with --fetch http.
  const driver =
    o.driver ??
    new LazyBrowser({
      ...(o.chromium ? { executablePath: o.chromium } : {}),
      timeoutMs: config.timeoutMs,
      headless: !o.headed,
      profileDir,
      acceptConsent: o.acceptConsent ?? false,
      traceDir: o.traceDir ?? null,
      proxies,
    });
  let http: HttpLoader | null = null;
  try {
    const mode = o.fetchMode ?? null;
    if (mode !== "browser" && (mode !== null || engines.some((e) => e.definition.fetch !== "browser"))) {
      http = new HttpLoader({
        timeoutMs: config.timeoutMs,
        identity: driver instanceof LazyBrowser ? await driver.identity() : driver.identity,
        profileDir,
        proxies,
        onCookies: (def, changes) => driver.updateCookies(def, changes),
      });
    }
    const summary = await harvest(store, {
      runId,
      queries,
      engines,
      driver,
      http,
      fetchMode: mode,
      ...config,
      interpret: { learn: o.learn ?? true, healShare: 0.5, minLearnedRecords: 3, ...o.interpret },
      classifier,
      runOptions: o.runOptions ?? {},
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    });
    return { ...summary, db: o.db, queries: queries.length, engineNames: engines.map((e) => e.name), model: classifier?.modelId ?? null };
  } catch (err) {
    // Failed before the harvest could end its run (the HTTP client, the browser's identity): the run says so.
    if ((await getRun(store, runId))?.status === "running") await finishRun(store, runId, "failed", { error: String(err) });
    throw err;
  } finally {
    await http?.close();
    if (!o.driver) await driver.close();
    await store.close();
  }
}

/**
 * A headed browser needs a display: without one (no DISPLAY or WAYLAND_DISPLAY on Linux), say so before
 * anything starts, rather than let Chromium fail as if it were missing.
 */
export function checkDisplay(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): void {
  if (platform !== "linux" || env.DISPLAY || env.WAYLAND_DISPLAY) return;
  throw new UserError("a headed browser needs a display, and there is none (DISPLAY and WAYLAND_DISPLAY are not set)", {
    kind: "no-display",
  });
}

/** The engines' wrapper files (default: the shipped `wrappers/`), with the config file's politeness over each definition's. */
export function loadConfiguredEngines(names: readonly string[], wrappersDir?: string): EngineSetup[] {
  const dir = wrappersDir ?? defaultWrappersDir();
  const settings = loadSettings();
  return [...new Set(names)].map((name) => {
    const e = loadEngine(dir, name);
    return { ...e, definition: { ...e.definition, politeness: { ...e.definition.politeness, ...configuredPoliteness(name, settings) } } };
  });
}

/**
 * A query list's path: the file given (made absolute: its queries' rows name it wherever the harvest ran, and workers
 * elsewhere store it as the enqueuer saw it), else the user's or shipped list of that name (`queries/demo.tsv` from any
 * folder); a path found nowhere is returned as given (reading it says so).
 */
export function resolveQueryFile(path: string): string {
  if (existsSync(path)) return resolve(path);
  const m = /^queries[\\/]([^\\/]+)$/.exec(path);
  const known = m ? resolveResource("queries", m[1]!) : null;
  return known && existsSync(known) ? known : path;
}

/**
 * The classifier for records as they are harvested (the classify module's hook): the given model,
 * or the default model when it exists; null when there is none (records stay unclassified, to be
 * classified later with `bitext classify`).
 */
export async function loadRecordClassifier(model: string | null | undefined): Promise<RecordClassifier | null> {
  if (model === null) return null;
  const classify = await import("../classify/index.js");
  if (model === undefined && !existsSync(classify.defaultModelPath())) return null;
  const classifier = classify.loadClassifier(model);
  // The first call loads the lexicon and segmenter (seconds): pay it now, not in the middle of the page loop.
  classifier.classify([
    { query: parallelText("I see.", "我明白了。"), title: "I see. 我明白了。", url: "http://example.org/", snippet: "I see. 我明白了。" },
  ]);
  return classifier;
}
