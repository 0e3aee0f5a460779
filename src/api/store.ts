/** `bitext/store`: the store (a SQLite file, or PostgreSQL) that holds runs, result records, pages and pairs. */
export {
  countRecords,
  iterateRecords,
  listCorpusPairs,
  listFetches,
  listPages,
  listRecords,
  listRuns,
  openStore,
  type QueryOrigin,
  type QueryPair,
  type RecordLabel,
  type Store,
  type StoredFetch,
  type StoredRecord,
  setAnnotation,
} from "../store/index.js";
