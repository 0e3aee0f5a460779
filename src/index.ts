/**
 * bitext as a library: the seven steps of the pipeline, each one call. Every step takes plain values
 * (HTML strings, folders, a store) and returns typed results; nothing here reads flags or prints.
 *
 * ```ts
 * import { learnWrapper, extractRecords } from "bitext";
 * const wrapper = learnWrapper(sampleHtml, { engine: "bing" });      // from one result page
 * const { status, records } = extractRecords(wrapper, otherHtml);     // on any page of that layout
 * ```
 *
 * Each stage is also a subpath with a short API of its own (`bitext/wrapper`, `bitext/extract`, …: src/api/, the
 * `exports` of package.json); the folders behind them are internal.
 * The steps that load a browser, the SVM or SQLite load them on first use, so importing `bitext` is cheap.
 */
import type { Classifier, ClassifierInput, Prediction } from "./classify/index.js";
import type { ExtractOptions as PairExtractOptions, PageExtraction } from "./extract/index.js";
import { type TagPathSequence, tagPathsFromHtml } from "./html/index.js";
import type { HarvestOptions, HarvestSummary } from "./serp/index.js";
import type { PairOptions, PairResult, Site } from "./site/index.js";
import type { Store } from "./store/index.js";
import type { PairVerdict } from "./quality/index.js";
import { EN_ZH, type LanguagePair, loadLexicon } from "./text/index.js";
import {
  extractRecords as applyWrapper,
  type ExtractResult,
  learnWrapper as learnFromTagPaths,
  type LearnOptions,
  type Wrapper,
} from "./wrapper/index.js";

export {
  InputError,
  LayoutMismatch,
  NetworkError,
  NotEnoughData,
  ReadOnlyInstallation,
  SettingError,
  StoreError,
  UserError,
  type UserErrorKind,
} from "./errors.js";
export type { Classifier, ClassifierInput, Label, Prediction } from "./classify/index.js";
export type { PageExtraction, SentencePair } from "./extract/index.js";
export type { TagPathSequence } from "./html/index.js";
export type { HarvestOptions, HarvestSummary } from "./serp/index.js";
export type { PagePair, PairOptions, PairResult, Site } from "./site/index.js";
export type { Store } from "./store/index.js";
export type { PairVerdict } from "./quality/index.js";
export type { Lang, LanguagePair } from "./text/index.js";
export type { ExtractResult, LearnOptions, ResultRecord, Wrapper, WrapperParams } from "./wrapper/index.js";

/** A page as HTML text, or as the tag-path sequence already computed from it. */
export type PageInput = string | TagPathSequence;

function tagPaths(page: PageInput): TagPathSequence {
  return typeof page === "string" ? tagPathsFromHtml(page) : page;
}

/** Learn a record wrapper from one result page of a search engine (feng2010 §4.2). */
export function learnWrapper(page: PageInput, options: LearnOptions): Wrapper {
  return learnFromTagPaths(tagPaths(page), options);
}

/**
 * Apply a wrapper to a page: its result records (rank, title, url, snippet) in page order, or status
 * `mismatch` when the page's layout is not the wrapper's, `empty` when it has no records.
 */
export function extractRecords(wrapper: Wrapper, page: PageInput, options: { pageUrl?: string } = {}): ExtractResult {
  return applyWrapper(wrapper, tagPaths(page), options);
}

/**
 * Is the page each record links to bilingual? (feng2010 §5) With the shipped model unless `model` is a
 * model file's path or a loaded classifier.
 */
export async function classify(
  records: readonly ClassifierInput[],
  options: { model?: string | Classifier; threshold?: number } = {},
): Promise<Prediction[]> {
  const { loadClassifier } = await import("./classify/index.js");
  const classifier = typeof options.model === "object" ? options.model : loadClassifier(options.model, { threshold: options.threshold });
  return classifier.classify(records);
}

/** The parallel sentence pairs inside one bilingual page (feng2011); English–Chinese unless `pair` says otherwise. */
export async function extractPairs(html: string, url: string, options: Partial<PairExtractOptions> = {}): Promise<PageExtraction> {
  const { extractFromHtml } = await import("./extract/index.js");
  return extractFromHtml(html, url, options);
}

/**
 * The parallel page pairs of a bilingual site: a mirror folder, a folder written by a crawl, or a loaded
 * `Site` (kit-ng2007 URL keys and/or liu2014 link structure). The lexicon of the site's language pair
 * is loaded when `options.lexicon` is not given.
 */
export async function pairSite(site: string | Site, options: Partial<PairOptions> = {}): Promise<PairResult> {
  const { loadSite, pairPages } = await import("./site/index.js");
  const loaded = typeof site === "string" ? loadSite(site) : site;
  const lexicon = options.lexicon ?? loadLexicon(loaded.pair as LanguagePair);
  return pairPages(loaded, { method: "both", ...options, lexicon });
}

/**
 * Score sentence pairs: is each a translation? A verdict per pair (`score` in [0, 1], `keep` at the model's
 * threshold, the named rules against it). English–Chinese unless `pair` says otherwise; loads the lexicon once.
 * With `document`, the pairs are one document (a glossary, a page's pairs): the pairs kept on a first pass teach the
 * scorer the document's own terms, and every pair is scored again with them.
 */
export async function scorePairs(
  pairs: ReadonlyArray<readonly [string, string]>,
  options: { pair?: LanguagePair; threshold?: number; document?: boolean } = {},
): Promise<PairVerdict[]> {
  const { loadScorer } = await import("./quality/index.js");
  const scorer = loadScorer(options.pair ?? EN_ZH, options.threshold === undefined ? {} : { threshold: options.threshold });
  if (options.document) return scorer.scoreDocument(pairs.map(([a, b]) => ({ a, b })));
  return pairs.map(([a, b]) => scorer.score(a, b));
}

/** Open (creating or migrating) the SQLite store that holds runs, records, pages and pairs. */
export async function openStore(path?: string, options: { readonly?: boolean } = {}): Promise<Store> {
  const store = await import("./store/index.js");
  return store.openStore(path, options);
}

/**
 * Submit query pairs to search engines and store every result record (feng2010 §4.1). Loads the browser
 * driver on first use; `options.driver` is the page loader (see `bitext/serp`).
 */
export async function harvest(store: Store, options: HarvestOptions): Promise<HarvestSummary> {
  const serp = await import("./serp/index.js");
  return serp.harvest(store, options);
}
