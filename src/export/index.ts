/**
 * The last stage of the pipeline: what the store holds, written out for users. The parallel corpus
 * (deduplicated, filtered by quality, with every pair's provenance) in TSV, JSONL, TMX or Moses files, and the
 * harvested result records as JSON lines or CSV.
 *
 * ```ts
 * await exportCorpus(store, { format: "tmx", out: "corpus" });   // corpus.tmx, each pair with its sources as <prop>s
 * ```
 */
export {
  type CorpusExport,
  corpusOutputPairs,
  type ExportCorpusOptions,
  exportCorpus,
  splitByQuality,
  splitCorpusIntoSentences,
} from "./corpus.js";
export {
  formatPairs,
  OUTPUT_FORMATS,
  type OutputFile,
  type OutputFormat,
  type OutputPair,
  type PairSource,
  toJsonRecord,
  tsvColumns,
} from "./formats.js";
export { CSV_COLUMNS, csvField, csvRow, jsonRecord } from "./records.js";
