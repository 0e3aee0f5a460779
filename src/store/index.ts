/**
 * The harvest store — one SQLite file (WAL), or a PostgreSQL database for many machines — holding runs, fetches and result records (harvest),
 * classifications and annotations (classify), linked pages and sentence pairs (extract).
 * Other modules use these typed accessors, never raw SQL.
 */
export { compressHtml, decompressHtml } from "./blob.js";
export { DEFAULT_STORE_PATH, inTransaction, nowIso, openStore, type Store, schemaVersion, storeExists, withStore } from "./db.js";
export { isPostgresUrl } from "./location.js";
export { type Backend, join, raw, type SqlDriver, SqlQuery, sql, type TransactionOptions } from "./sql.js";
export {
  countDriftEventsByRun,
  type DriftAction,
  type DriftEvent,
  type DriftEventInput,
  listDriftEvents,
  loadEngineHealth,
  recordDriftEvent,
  saveEngineHealth,
  type StoredHealth,
} from "./health.js";
export {
  type LabelCount,
  listWrapperVersions,
  type PairOutcomes,
  pairOutcomes,
  recordLabelCounts,
  type WrapperVersion,
} from "./report.js";
export { latestWrapper, type SaveWrapperOutcome, type StoredWrapper, saveWrapper } from "./wrappers.js";
export {
  completedSince,
  countFetchesByStatus,
  type FetchFilter,
  type FetchOutcome,
  type FetchStatus,
  getFetch,
  getFetchHtml,
  type KeptResultPage,
  keptResultPages,
  lastCompletedFetch,
  listFetches,
  markFetchUnprocessable,
  type NewFetch,
  type NewRecord,
  pageTaskKey,
  taskKeyOf,
  recordFetch,
  type StoredFetch,
} from "./fetches.js";
export { type FetchTransport, getFetchTransport, setFetchTransport } from "./transport.js";
export { engineNeedsBrowser, noteEngineNeedsBrowser } from "./engine-modes.js";
export {
  getPage,
  pageReachedAt,
  listPages,
  markPageUnprocessable,
  type PageFilter,
  type PageInput,
  type PageSummary,
  type StoredPage,
  upsertPage,
} from "./pages.js";
export {
  type CorpusPair,
  listCorpusPairs,
  listPagePairs,
  listUnscoredPairs,
  replacePairs,
  type SentencePairInput,
  setPairQualities,
  type StoredSentencePair,
  type UnscoredPair,
} from "./pairs.js";
export {
  type Classification,
  countRecords,
  getRecord,
  iterateRecords,
  listRecords,
  type QueryOrigin,
  type QueryPair,
  type RecordFilter,
  type RecordLabel,
  type StoredRecord,
  setAnnotation,
  setClassification,
  setClassifications,
} from "./records.js";
export {
  activeRuns,
  finishRun,
  getRun,
  listRuns,
  HEARTBEAT_MS,
  markCrashedRuns,
  type Run,
  type RunStatus,
  STALE_AFTER_MS,
  startExclusiveRun,
  startRun,
  staleRuns,
} from "./runs.js";
export { environmentError } from "./errors.js";
export { linkPageRecords, noteQueryOrigin, type PageSource, pageSources, type RecordSource } from "./provenance.js";
