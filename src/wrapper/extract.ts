import { collapsedView, indexTagPaths, type TagPathSequence } from "../html/tagpaths.js";
import { textContext } from "./record-text.js";
import { buildRecord, type RecordRegion, recordRegions } from "./records.js";
import type { ExtractResult, ResultRecord, Wrapper } from "./types.js";

/**
 * Apply a learned wrapper to a page (feng2010 §4.3): the records under the ancestor paths of the
 * wrapper's result clusters, in page order.
 */
export function extractRecords(wrapper: Wrapper, page: TagPathSequence, pageUrl?: string): ExtractResult {
  const seq = wrapper.pathMode === "collapsed" ? collapsedView(page) : page;
  const index = indexTagPaths(seq);
  const ctx = textContext(index);
  const results = wrapper.clusters.filter((c) => c.role === "results");
  if (results.length === 0) return { status: "mismatch", records: [], detail: "wrapper has no result cluster" };
  const pathIds = new Map(seq.paths.map((p, i) => [p, i]));
  const regions: Array<RecordRegion & { titlePath: string | null }> = [];
  for (const cluster of results) {
    const id = pathIds.get(cluster.ancestorPath);
    if (id === undefined) continue;
    for (const r of recordRegions(index, index.occurrences[id]!)) regions.push({ ...r, titlePath: cluster.titlePath });
  }
  if (regions.length === 0) {
    return { status: "mismatch", records: [], detail: `none of the record paths is on the page (${results[0]!.ancestorPath})` };
  }
  regions.sort((a, b) => a.root - b.root);
  const records: ResultRecord[] = [];
  let coveredUntil = -1;
  for (const region of regions) {
    if (region.root < coveredUntil) continue; // inside a record already taken
    const r = buildRecord(ctx, region, region.titlePath, pageUrl);
    if (!r) continue;
    records.push({ rank: records.length + 1, ...r });
    coveredUntil = region.end;
  }
  return records.length > 0
    ? { status: "ok", records, detail: `${records.length} records` }
    : { status: "empty", records, detail: "record paths present but no record has a title link" };
}
