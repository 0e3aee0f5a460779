import type { OutputFormat } from "../export/index.js";
import type { LanguagePair } from "../language-pair.js";
import type { FetcherOptions } from "../net/index.js";
import type { PairScorer } from "../quality/index.js";
import type { HarvestEvent, HarvestRunOptions, HarvestStats, SerpDriver } from "../serp/index.js";

/**
 * What a run of the pipeline works on: where things are, what to harvest, how to write the corpus and the
 * report, the caller's hooks (all output goes through them), and each step's result by step id.
 * The demo and `bitext pipeline` each build one; the steps (`steps.ts`) are the same for both.
 */
export interface PipelineContext {
  /** The store (a SQLite file or a PostgreSQL URL). */
  db: string;
  /** Folder of the engines' wrapper files. */
  wrappersDir: string;
  engines: readonly string[];
  queryFiles: readonly string[];
  /** The language pair of the queries, the extraction and the corpus. */
  pair: LanguagePair;
  /** A browser already started (the caller closes it); else the harvest starts one when it needs it. */
  driver?: SerpDriver;
  /** The harvest's other settings (pages, concurrency, retries, model, browser, …); defaults are the harvest's. */
  harvest: PipelineHarvestSettings;
  /** The fetcher of the linked pages (default: the polite fetcher's settings). */
  fetcher?: Partial<FetcherOptions>;
  /** Which bilingual candidates have their pages fetched (default: every record labelled bilingual). */
  candidates?: { minProbability?: number; limit?: number };
  corpus: CorpusSettings;
  report: ReportSettings;
  /** Aborted: the running step (harvest, page fetching) stops at a safe point and no later step starts. */
  signal?: AbortSignal;
  hooks: PipelineHooks;
  /** What each step produced, by step id. */
  results: Record<string, unknown>;
}

/** The harvest's settings the context does not name itself. */
export type PipelineHarvestSettings = Omit<
  HarvestRunOptions,
  "queryFiles" | "engines" | "db" | "wrappersDir" | "pair" | "driver" | "signal" | "onEvent" | "onProgress"
>;

export interface CorpusSettings {
  format: OutputFormat;
  /** Files are written to PREFIX + the format's suffix. */
  out: string;
  /** The pairs the scorer leaves out, one JSON line each with its reasons. */
  rejected: string;
  /** The pair scorer (null: pairs stay unscored and are kept). */
  scorer: PairScorer | null;
  /** Leave out pairs whose quality is below this (default: the scorer's threshold). */
  minQuality?: number;
}

export interface ReportSettings {
  /** The HTML file to write. */
  out: string;
  /** Folders of PNG screenshots to include. */
  screenshotDirs: readonly string[];
  /** How the report names the store (default: `db`). */
  storeLabel?: string;
}

export interface PipelineHooks {
  /** A line of the run's account (what a step did). */
  say(line: string): void;
  /** A step starts (1-based index of all). */
  step?(index: number, total: number, step: PipelineStep): void;
  onHarvestEvent?(e: HarvestEvent): void;
  onHarvestProgress?(s: HarvestStats): void;
  /** The number of linked pages the fetch step will fetch, then one call per page done. */
  onPagesTotal?(n: number): void;
  onPageDone?(): void;
}

export interface PipelineStep {
  id: string;
  title: string;
  run(ctx: PipelineContext): Promise<void>;
}
