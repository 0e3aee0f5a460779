import { collapsedView, indexTagPaths, type TagPathSequence } from "../html/tagpaths.js";
import { hasAdLabel } from "./ads.js";
import { URL_LIKE } from "./evidence.js";
import { sameLayout } from "./layout.js";
import { answersSubmittedQuery, findQueryNotices, pageQuery } from "./query-rewrite.js";
import { textContext } from "./record-text.js";
import { buildRecord, countLinks, findTitleLink, type RecordRegion, recordRegions, relativePath } from "./records.js";
import type { ExtractResult, ResultRecord, Wrapper } from "./types.js";

/** Records found are nonsense when at least this many of them are there and fewer than this share look like results. */
const NONSENSE_MIN_RECORDS = 3;
const RESULT_LIKE_SHARE = 0.25;

function resultLikeShare(records: readonly ResultRecord[]): number {
  return records.filter((r) => r.snippet.length >= 20 && r.snippet.length <= 1500 && !URL_LIKE.test(r.title.trim())).length / records.length;
}

export interface ExtractOptions {
  /** URL of the page, to resolve relative links. */
  pageUrl?: string;
  /** More query-rewrite notices to look for (e.g. from an engine definition). */
  notices?: readonly string[];
}

/**
 * Apply a learned wrapper to a page (feng2010 §4.3): the records under the ancestor paths of the
 * wrapper's result clusters, in page order. A page whose layout is unlike the wrapper's sample is a
 * "mismatch" (another engine, a new layout, a block page) and yields nothing; a page of the right layout
 * without records, or whose records answer a rewritten query, is "empty".
 */
export function extractRecords(wrapper: Wrapper, page: TagPathSequence, options: ExtractOptions | string = {}): ExtractResult {
  const { pageUrl, notices } = typeof options === "string" ? { pageUrl: options, notices: undefined } : options;
  const seq = wrapper.pathMode === "collapsed" ? collapsedView(page) : page;
  const pathIds = new Map(seq.paths.map((p, i) => [p, i]));
  const results = wrapper.clusters.filter((c) => c.role === "results");
  // A page unlike the sample (class names; tag paths on class-less pages) is a mismatch, and so is a page
  // of the sample's layout where the wrapper finds nonsense: records that mostly do not look like results.
  const layout = sameLayout(wrapper.layout, page);
  const mismatch = (why: string): ExtractResult => ({
    status: "mismatch",
    records: [],
    detail: `page layout differs from the ${wrapper.engine} sample (${layout.similarity.toFixed(3)} of ${wrapper.layout.kind} in common${why})`,
  });
  if (!layout.same) return mismatch("");
  const index = indexTagPaths(seq);
  const ctx = textContext(index);
  const regions: Array<RecordRegion & { titlePath: string | null }> = [];
  for (const cluster of results) {
    const id = pathIds.get(cluster.ancestorPath);
    if (id === undefined) continue;
    for (const r of recordRegions(index, index.occurrences[id]!)) regions.push({ ...r, titlePath: cluster.titlePath });
  }
  regions.sort((a, b) => a.root - b.root);
  const found = findQueryNotices(seq, notices);
  // A record whose title sits at another depth than learned is kept when it sits among the learned ones
  // (same parent element: not an ad list above them) and looks like them: no more links than they have
  // (a news, image or video block in the list holds many). A page with none at the learned depth keeps all.
  const titleLinks = regions.map((region) => findTitleLink(ctx, region, region.titlePath));
  const exact = regions.map((region, i) => titleLinks[i]! >= 0 && (region.titlePath === null || relativePath(index, region.root, titleLinks[i]!) === region.titlePath));
  let maxLinks = -1;
  const lists = new Set<number>();
  regions.forEach((region, i) => {
    if (!exact[i]) return;
    maxLinks = Math.max(maxLinks, countLinks(ctx, region));
    lists.add(index.parents[region.root]!);
  });
  const records: ResultRecord[] = [];
  let coveredUntil = -1;
  regions.forEach((region, i) => {
    if (region.root < coveredUntil || titleLinks[i]! < 0) return; // inside a record already taken, or no title
    if (found.positions.some((p) => p >= region.root && p < region.end)) return; // the engine's notice, not a record
    if (!exact[i] && maxLinks >= 0 && (!lists.has(index.parents[region.root]!) || countLinks(ctx, region) > maxLinks)) return;
    const r = buildRecord(ctx, region, region.titlePath, pageUrl);
    if (!r || hasAdLabel(seq, region.root, region.end)) return;
    records.push({ rank: records.length + 1, ...r });
    coveredUntil = region.end;
  });
  if (records.length >= NONSENSE_MIN_RECORDS && resultLikeShare(records) < RESULT_LIKE_SHARE) {
    return mismatch(`; ${records.length} records, but fewer than ${RESULT_LIKE_SHARE * 100} % of them with a worded title and a snippet`);
  }
  // Records under a rewrite notice answer the engine's corrected query: kept, and the rewrite flagged,
  // unless they cannot answer the submitted one (an exact phrase the engine relaxed, or no record
  // mentions a word of it). A "no results" notice alone: whatever repeats below it is not an answer.
  const texts = () => records.map((r) => `${r.title} ${r.snippet} ${r.url}`);
  if (found.rewrite && records.length > 0 && !answersSubmittedQuery(pageQuery(seq), texts())) {
    return { status: "empty", records: [], detail: `the engine answered another query ("${found.rewrite.text}")`, rewrittenQuery: found.rewrite.text };
  }
  if (found.rewrite && records.length > 0) {
    return { status: "ok", records, detail: `${records.length} records, for a query the engine rewrote ("${found.rewrite.text}")`, rewrittenQuery: found.rewrite.text };
  }
  if (found["no-results"]) return { status: "empty", records: [], detail: `the engine found nothing for the query ("${found["no-results"].text}")` };
  return records.length > 0
    ? { status: "ok", records, detail: `${records.length} records` }
    : { status: "empty", records, detail: "the page has the engine's layout but no result records" };
}
