/**
 * Parallel sentence (and term) pairs from inside bilingual pages (feng2011), and the corpus they make.
 *
 * ```ts
 * const { pairs } = extractFromHtml(html, "https://example.org/page.html");          // en–zh, full system
 * const ja = extractFromHtml(html, url, { pair: EN_JA });                             // any script pair
 * await fetchBilingualPages(store);                  // records classified bilingual → pages → pairs (store)
 * await exportCorpus(store, { format: "tmx", out: "corpus" });   // deduplicated corpus with every source URL
 * ```
 */
export { pageSnippets, languageRuns, type PageSnippets } from "./analyse.js";
export {
  type CorpusExport,
  corpusKey,
  defaultScorer,
  type ExportCorpusOptions,
  exportCorpus,
  splitByQuality,
  toStoredPair,
} from "./corpus.js";
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
  readExcludeList,
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
export { formatPairs, OUTPUT_FORMATS, type OutputFile, type OutputFormat, type OutputPair } from "./formats.js";
export { type GoldPage, parseGoldPairs, readGoldPairs } from "./gold.js";
export { alignSentences, splitIntoSentencePairs, splitSentences } from "./sentences.js";
export { EN_JA_LENGTH, EN_ZH_LENGTH, estimateLengthModel, type LengthModel } from "./length-model.js";
export { isUrl, loadPageInput, type PageText } from "./pages.js";
export type { SentencePair, Snippet } from "./types.js";
export { toJsonRecord, tsvColumns } from "./formats.js";
