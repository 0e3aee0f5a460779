import { indexTagPaths, type TagPathSequence } from "../html/tagpaths.js";
import { textContext } from "./record-text.js";
import { buildRecord, recordRegions } from "./records.js";
import type { ExtractResult, ResultRecord, Wrapper } from "./types.js";

/** Apply a learned wrapper to a page: the records under the best cluster's ancestor path. */
export function extractRecords(wrapper: Wrapper, seq: TagPathSequence, pageUrl?: string): ExtractResult {
  const index = indexTagPaths(seq);
  const ctx = textContext(index);
  const cluster = wrapper.clusters[0];
  if (!cluster) return { status: "mismatch", records: [], detail: "wrapper has no record cluster" };
  const rootId = seq.paths.indexOf(cluster.ancestorPath);
  if (rootId < 0) return { status: "mismatch", records: [], detail: `no ${cluster.ancestorPath} on the page` };
  const records: ResultRecord[] = [];
  for (const region of recordRegions(index, index.occurrences[rootId]!)) {
    const r = buildRecord(ctx, region, cluster.titlePath, pageUrl);
    if (r) records.push({ rank: records.length + 1, ...r });
  }
  return records.length > 0
    ? { status: "ok", records, detail: `${records.length} records` }
    : { status: "empty", records, detail: "record path present but no record has a title link" };
}
