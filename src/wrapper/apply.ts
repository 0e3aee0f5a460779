import { collapsedView, indexTagPaths, type TagPathIndex, type TagPathSequence } from "../html/index.js";
import { hasAdLabel } from "./ads.js";
import { type AnchoredRegion, adHeaderReader, learnedListReader, siteRowReader } from "./list-members.js";
import { looksLikeResult, targetSite, titleHeaded } from "./evidence.js";
import { sameLayout } from "./layout.js";
import { answersSubmittedQuery, findQueryNotices, mentionsQuery, pageQuery, queryTerms } from "./query-rewrite.js";
import { type TextContext, textContext } from "./record-text.js";
import {
  buildRecord,
  controlTitleFlags,
  findTitleLink,
  type RecordRegion,
  recordRegions,
  relativePath,
  repeatedRecordFlags,
} from "./records.js";
import { isEngineSearchControl, queryWords, searchLinkFlags } from "./search-links.js";
import { MAX_ROOT_SHIFT, candidateRoots, classSimilarity, recordTemplate, templateSimilarity, titleAtTemplate } from "./template.js";
import type { ExtractResult, LayoutMatch, RecordCluster, ResultRecord, Wrapper } from "./types.js";

/** Records found are nonsense when at least this many of them are there and fewer than this share look like results. */
const NONSENSE_MIN_RECORDS = 3;
const RESULT_LIKE_SHARE = 0.25;

function resultLikeShare(records: readonly ResultRecord[]): number {
  return records.filter(looksLikeResult).length / records.length;
}

/**
 * Records whose template match (`templateMatch`) is below this are not the wrapper's records. On the real pages
 * (aql, aql-more, modern; every wrapper on every page of its layout fingerprint) no extraction with a right
 * record scored under 0.2, and a dozen that found only wrong records did.
 */
export const MIN_TEMPLATE_MATCH = 0.2;

/**
 * How well the records found match the wrapper's template: the better of (a) the mean share of the template's
 * tag paths in each record and (b) the share of the class names inside the records that the sample page used.
 * Either can be low on a page of the right layout (a record template with many optional parts; class names
 * renamed), rarely both.
 */
export function templateMatch(
  index: TagPathIndex,
  regions: ReadonlyArray<RecordRegion & { template: readonly string[] }>,
  wrapper: Wrapper,
): number {
  let paths = 0;
  for (const r of regions) paths += templateSimilarity(index, [r], r.template);
  return Math.max(paths / regions.length, classSimilarity(index, regions, wrapper.layout) ?? 0);
}

/** A root path carries the cluster's records when it scores at least this share of the best root's score. */
const NEAR_BEST = 0.9;
/** A re-anchored root must hold at least this share of the template in its records. */
const MIN_ANCHOR_SIMILARITY = 0.5;
/** At most this many re-anchored root paths are read whole (the best by template paths present on the page). */
const MAX_CANDIDATES = 4;

export interface AnchoredRecords {
  /** Record regions with a title link, in page order. */
  regions: RecordRegion[];
  /**
   * Regions of the same root paths without a title link where the template has one (nor at its heading-led
   * tail) but with some link with text: another template among the results, or a block that is none
   * (`readRecords` decides).
   */
  loose: RecordRegion[];
  /** Their mean share of the cluster's template (0 without records). */
  similarity: number;
}

/**
 * The cluster's records on a page: those under the learned ancestor path, or under the root path that
 * carries its template best when the list moved to another depth (`candidateRoots`). A root's score is
 * its records with a title link × their template similarity; roots scoring near the best are all read
 * (one list split at two depths).
 */
export function anchorRecords(ctx: TextContext, pathIds: ReadonlyMap<string, number>, cluster: RecordCluster): AnchoredRecords {
  const { index } = ctx;
  const template = recordTemplate(cluster);
  const exact = pathIds.get(cluster.ancestorPath);
  // A root is scored by its records with the title where the template has it (`atTemplate`); those with a title
  // link found only by the extractor's tolerance (a link holding a heading elsewhere) are read with them, but
  // counted, every region of a root high above the list holds some such link.
  const readRoot = (id: number) => {
    const titled: RecordRegion[] = [];
    const atTemplate: RecordRegion[] = [];
    const loose: RecordRegion[] = [];
    for (const r of recordRegions(index, index.occurrences[id]!)) {
      const link = findTitleLink(ctx, r, cluster.titlePath);
      if (link < 0) {
        if (cluster.titlePath !== null && findTitleLink(ctx, r, null) >= 0) loose.push(r);
        continue;
      }
      titled.push(r);
      if (titleAtTemplate(index, r, link, cluster.titlePath)) atTemplate.push(r);
    }
    const similarity = templateSimilarity(index, atTemplate, template);
    return { exact: id === exact, titled, atTemplate, loose, similarity, score: atTemplate.length * similarity };
  };
  const read = exact === undefined ? [] : [readRoot(exact)];
  // Only a root with more occurrences than the learned one has records can hold a longer list. Cheap first look:
  // the template paths present under each at page level; only the best few are read whole.
  const floor = Math.max(1, read[0]?.atTemplate.length ?? 0);
  const others = candidateRoots(index, pathIds, cluster)
    .filter((id) => id !== exact && index.occurrences[id]!.length > floor)
    .map((id) => ({ id, present: presentShare(index, pathIds, id, template) }))
    .sort((a, b) => b.present - a.present)
    .slice(0, MAX_CANDIDATES);
  for (const { id } of others) read.push(readRoot(id));
  // Another root replaces or joins the learned one only when it holds a list (two records or more) that fits the
  // template as well and is longer — or continues it: records of the template none of which lies inside a record
  // of the learned root (the list goes on in a box among its records: "more results" loaded into the list, the
  // next row of a grid wrapped once more).
  const learned = read.find((r) => r.exact);
  const insideLearned = learned ? insideAny(learned.titled) : () => false;
  const inList = exact === undefined ? () => false : listContainers(index, exact);
  const continues = (r: (typeof read)[number]) =>
    learned !== undefined && learned.atTemplate.length > 0 && r.atTemplate.every((x) => !insideLearned(x.root) && inList(x.root));
  const eligible = read.filter(
    (r) =>
      r.exact ||
      (r.atTemplate.length >= 2 &&
        r.similarity >= MIN_ANCHOR_SIMILARITY &&
        (!learned ||
          (r.similarity >= NEAR_BEST * learned.similarity && (r.atTemplate.length > learned.atTemplate.length || continues(r))))),
  );
  const best = Math.max(0, ...eligible.map((r) => r.score));
  // Records under the learned root are kept even when none of the template is recognised in them.
  if (best === 0)
    return learned && learned.titled.length > 0
      ? { regions: learned.titled, loose: learned.loose, similarity: 0 }
      : { regions: [], loose: [], similarity: 0 };
  const kept = eligible
    .filter((r) => r.score >= NEAR_BEST * best || (!r.exact && continues(r)))
    .map((r) =>
      r.exact || !learned || r.score >= NEAR_BEST * best
        ? r
        : { ...r, titled: r.titled.filter((x) => !insideLearned(x.root)), loose: r.loose.filter((x) => !insideLearned(x.root)) },
    );
  const regions = kept.flatMap((r) => r.titled).sort((a, b) => a.root - b.root);
  const loose = kept.flatMap((r) => r.loose).sort((a, b) => a.root - b.root);
  const n = kept.reduce((s, r) => s + r.atTemplate.length, 0);
  return { regions, loose, similarity: kept.reduce((s, r) => s + r.similarity * r.atTemplate.length, 0) / n };
}

/**
 * Whether an element sits in the list of root path `id`: one of its few nearest ancestors is an element of that
 * path (a box among the records: the list goes on inside it) or the parent of one (the list's own element).
 */
function listContainers(index: TagPathIndex, id: number): (pos: number) => boolean {
  const containers = new Set<number>();
  for (const p of index.occurrences[id]!) {
    containers.add(p);
    containers.add(index.parents[p]!);
  }
  return (pos) => {
    let p = index.parents[pos]!;
    for (let k = 0; k <= MAX_ROOT_SHIFT && p >= 0; k++, p = index.parents[p]!) if (containers.has(p)) return true;
    return false;
  };
}

/** Whether a position lies inside one of the regions (sorted by root). */
function insideAny(regions: readonly RecordRegion[]): (pos: number) => boolean {
  return (pos) => {
    let lo = 0;
    let hi = regions.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = regions[mid]!;
      if (pos < r.root) hi = mid - 1;
      else if (pos >= r.end) lo = mid + 1;
      else return true;
    }
    return false;
  };
}

/** Share of the template's paths that the page has under root path `id` (an upper bound, cheap). */
function presentShare(index: TagPathIndex, pathIds: ReadonlyMap<string, number>, id: number, template: readonly string[]): number {
  const root = index.seq.paths[id]!;
  let n = 0;
  for (const t of template) if (pathIds.has(`${root}\\${t}`)) n++;
  return template.length === 0 ? 0 : n / template.length;
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
  // A page unlike the sample (class names; tag paths on class-less pages) is a mismatch, and so is a page
  // of the sample's layout where the wrapper finds nonsense: records unlike its template, or records that
  // mostly do not look like results.
  const layout = sameLayout(wrapper.layout, page);
  const mismatch = (why: string, match?: LayoutMatch): ExtractResult => ({
    status: "mismatch",
    records: [],
    detail: `page layout differs from the ${wrapper.engine} sample (${layout.similarity.toFixed(3)} of ${wrapper.layout.kind} in common${why})`,
    match: match ?? { layout: layout.similarity, template: null },
  });
  if (!layout.same) return mismatch("");
  const seq = wrapper.pathMode === "collapsed" ? collapsedView(page) : page;
  const pathIds = new Map<string, number>();
  for (let i = 0; i < seq.paths.length; i++) pathIds.set(seq.paths[i]!, i);
  const results = wrapper.clusters.filter((c) => c.role === "results");
  const index = indexTagPaths(seq);
  const ctx = textContext(index);
  const regions: AnchoredRegion[] = [];
  for (const cluster of results) {
    const template = recordTemplate(cluster);
    const titleFromText = cluster.titleFromText === true;
    const anchored = anchorRecords(ctx, pathIds, cluster);
    for (const r of anchored.regions) regions.push({ root: r.root, end: r.end, titlePath: cluster.titlePath, titleFromText, template });
    if (!titleFromText)
      for (const r of anchored.loose) regions.push({ root: r.root, end: r.end, titlePath: null, titleFromText, template, loose: true });
  }
  // A loose region cut short by an element of its own path inside it (paths with repeats collapsed) reads its
  // whole element when no record of a template lies inside.
  const titledRoots = regions.filter((r) => !r.loose).map((r) => r.root);
  for (const r of regions) {
    if (!r.loose) continue;
    const end = seq.ends[r.root]!;
    if (end > r.end && !titledRoots.some((t) => t > r.root && t < end)) r.end = end;
  }
  // A region read both as a template's record and as another cluster's loose one is the record.
  regions.sort((a, b) => a.root - b.root || Number(a.loose === true) - Number(b.loose === true));
  const found = findQueryNotices(seq, notices);
  const { records, kept, parts } = readRecords(ctx, seq, regions, found.positions, pageUrl);
  // The records vouching for the layout are those with the title where the template has it (with the parts of
  // records read as a record's own, its sitelinks); one read by the title link's tolerance (a link holding a
  // heading elsewhere in the region) only when none is.
  const recordRegionsKept = [...kept, ...parts];
  const atTemplate = recordRegionsKept.filter(
    (r) => !r.loose && titleAtTemplate(index, r, findTitleLink(ctx, r, r.titlePath), r.titlePath),
  );
  const vouching = atTemplate.length > 0 ? atTemplate : recordRegionsKept;
  const match = { layout: layout.similarity, template: records.length > 0 ? templateMatch(index, vouching, wrapper) : null };
  if (match.template !== null && match.template < MIN_TEMPLATE_MATCH) {
    return mismatch(
      `; ${records.length} records, but their template matches the wrapper's ${match.template.toFixed(2)}, under ${MIN_TEMPLATE_MATCH}`,
      match,
    );
  }
  if (records.length >= NONSENSE_MIN_RECORDS && resultLikeShare(records) < RESULT_LIKE_SHARE) {
    return mismatch(
      `; ${records.length} records, but fewer than ${RESULT_LIKE_SHARE * 100} % of them with a worded title and a snippet`,
      match,
    );
  }
  return verdict(records, found, pageQuery(seq), match);
}

/**
 * The records of the anchored regions, in page order: one per region with a title, not inside a record already
 * taken, not the engine's notice, not an ad; then links to a new search, answer-box parts and control titles dropped.
 */
function readRecords(
  ctx: TextContext,
  seq: TagPathSequence,
  regions: readonly AnchoredRegion[],
  noticePositions: readonly number[],
  pageUrl: string | undefined,
): { records: ResultRecord[]; kept: AnchoredRegion[]; parts: AnchoredRegion[] } {
  const index = ctx.index;
  const titleLinks = regions.map((region) => findTitleLink(ctx, region, region.titlePath));
  const exact = regions.map(
    (region, i) =>
      !region.loose &&
      titleLinks[i]! >= 0 &&
      (region.titlePath === null || relativePath(index, region.root, titleLinks[i]!) === region.titlePath),
  );
  const amongLearned = learnedListReader(ctx, regions, exact, titleLinks);
  const underAdHeader = adHeaderReader(index, regions);
  const siteRowOf = siteRowReader(index, regions);
  let records: ResultRecord[] = [];
  let recordRegionsKept: AnchoredRegion[] = [];
  const parts: AnchoredRegion[] = [];
  const links: Array<{ href: string; text: string; snippet: string }> = [];
  const titleOf: number[] = [];
  let last: { root: number; site: string | null } | null = null;
  let coveredUntil = -1;
  regions.forEach((region, i) => {
    if (region.root < coveredUntil || titleLinks[i]! < 0) return; // inside a record already taken, or no title
    if (noticePositions.some((p) => p >= region.root && p < region.end)) return; // the engine's notice, not a record
    if (!exact[i] && !amongLearned(region, i)) return;
    const r = buildRecord(ctx, region, region.titlePath, pageUrl, region.titleFromText);
    if (!r) return;
    // An ad covers what is nested in it (its sitelinks, its address line): none of that is organic either.
    if (hasAdLabel(seq, region.root, region.end)) {
      coveredUntil = region.end;
      return;
    }
    if (underAdHeader(region, last?.root ?? -1)) return;
    const site = targetSite(seq.hrefs[titleLinks[i]!]!);
    if (last && siteRowOf(region, site, last)) {
      parts.push(region);
      coveredUntil = region.end;
      return;
    }
    last = { root: region.root, site };
    records.push({ rank: records.length + 1, ...r });
    links.push({ href: seq.hrefs[titleLinks[i]!]!, text: r.title, snippet: r.snippet });
    titleOf.push(titleLinks[i]!);
    recordRegionsKept.push(region);
    coveredUntil = region.end;
  });
  // Pagination, a vertical's block, related searches: links to a new search, not results.
  // A URL an earlier record leads to, with other text: another part of one answer box.
  const query = pageQuery(seq);
  const search = searchLinkFlags(links, query);
  const repeated = repeatedRecordFlags(records);
  const control = controlTitleFlags(
    records.map((r, i) => ({ title: r.title, headed: titleHeaded(ctx, recordRegionsKept[i]!.root, titleOf[i]!) })),
    query ? queryTerms(query) : [],
  );
  const queryWordList = queryWords(query ?? "").split(" ");
  const kept = (_: unknown, i: number) => !search[i] && !repeated[i] && !control[i] && !isEngineSearchControl(links[i]!, queryWordList);
  recordRegionsKept = recordRegionsKept.filter(kept);
  records = records.filter(kept).map((r, i) => ({ ...r, rank: i + 1 }));
  return { records, kept: recordRegionsKept, parts };
}

/** The page's status from its records and the engine's notices (a rewritten query, no results). */
function verdict(
  records: ResultRecord[],
  found: ReturnType<typeof findQueryNotices>,
  submitted: ReturnType<typeof pageQuery>,
  match: LayoutMatch,
): ExtractResult {
  // Records under a rewrite notice answer the engine's corrected query: kept, and the rewrite flagged,
  // unless they cannot answer the submitted one (an exact phrase the engine relaxed, or no record
  // mentions a word of it). A "no results" notice alone: whatever repeats below it is not an answer.
  const texts = () => records.map((r) => `${r.title} ${r.snippet} ${r.url}`);
  if (found.rewrite && records.length > 0 && !answersSubmittedQuery(submitted, texts())) {
    return {
      status: "empty",
      records: [],
      detail: `the engine answered another query ("${found.rewrite.text}")`,
      rewrittenQuery: found.rewrite.text,
      match,
    };
  }
  if (found.rewrite && records.length > 0) {
    return {
      status: "ok",
      records,
      detail: `${records.length} records, for a query the engine rewrote ("${found.rewrite.text}")`,
      rewrittenQuery: found.rewrite.text,
      match,
    };
  }
  // "No results for X" above results for a relaxed X (without its quotes, fewer of its words): the results are on
  // the page, kept with the notice flagged — when they mention the submitted words; otherwise the page is empty.
  const none = found["no-results"];
  if (none && records.length > 0 && mentionsQuery(submitted, texts())) {
    return {
      status: "ok",
      records,
      detail: `${records.length} records, for a relaxed query (the engine found nothing for the query as written: "${none.text}")`,
      rewrittenQuery: none.text,
      match,
    };
  }
  if (none) return { status: "empty", records: [], detail: `the engine found nothing for the query ("${none.text}")`, match };
  return records.length > 0
    ? { status: "ok", records, detail: `${records.length} records`, match }
    : { status: "empty", records, detail: "the page has the engine's layout but no result records", match };
}
