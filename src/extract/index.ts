/**
 * Parallel sentence (and term) pairs from inside bilingual pages (feng2011), and the corpus they make.
 *
 * ```ts
 * const { pairs } = extractFromHtml(html, "https://example.org/page.html");          // en–zh, full system
 * const ja = extractFromHtml(html, url, { pair: EN_JA });                             // any script pair
 * await fetchBilingualPages(store);                  // records classified bilingual → pages → pairs (store)
 * ```
 * The corpus they make is written by the next stage, `src/export`.
 * ```
 * ```
 */
export { pageSnippets, languageRuns, type PageSnippets } from "./analyse.js";
export { corpusKey, defaultScorer, toStoredPair, toStoredPairs } from "./stored-pair.js";
export {
  devKey,
  evaluateExtraction,
  evaluateRealPages,
  type ExtractEvaluation,
  findGoldPages,
  findRealPages,
  leaveOneSourceOut,
  type LosoResult,
  lenientKey,
  type RealPage,
  type SourceResult,
  STRUCTURE_GRID,
} from "./evaluate.js";
export { DEFAULT_STRUCTURE_OPTIONS, type StructureOptions, type StructurePair, structuralPairs } from "./structure.js";
export { parseTree, type TreeDocument } from "./tree.js";
export {
  DEFAULT_EXTRACT_OPTIONS,
  EXTRACT_SYSTEMS,
  type ExtractOptions,
  type ExtractSystem,
  extractFromDocument,
  extractFromHtml,
  type PageExtraction,
  type PageStats,
} from "./extract.js";
export { type FetchPagesOptions, type FetchPagesSummary, fetchBilingualPages, type PageOutcome } from "./fetch.js";
export { type GoldPage, parseGoldPairs, readGoldPairs } from "./gold.js";
export { alignSentences, splitIntoSentencePairs, splitSentences } from "./sentences.js";
export { EN_JA_LENGTH, EN_ZH_LENGTH, estimateLengthModel, type LengthModel } from "./length-model.js";
export { isUrl, loadPageInput, type PageText } from "./pages.js";
export type { SentencePair, Snippet } from "./types.js";
