import { collapsedView, indexTagPaths, type TagPathIndex, type TagPathSequence } from "../html/index.js";
import { hasAdLabel } from "./ads.js";
import { embeddedUrl, URL_LIKE, targetSite } from "./evidence.js";
import { sameLayout } from "./layout.js";
import { answersSubmittedQuery, findQueryNotices, pageQuery, queryTerms } from "./query-rewrite.js";
import { rangeText, type TextContext, textContext } from "./record-text.js";
import {
  buildRecord,
  controlTitleFlags,
  countLinks,
  findTitleLink,
  linkTitle,
  type RecordRegion,
  recordRegions,
  relativePath,
  repeatedRecordFlags,
} from "./records.js";
import { isEngineSearchControl, queryWords, searchLinkFlags } from "./search-links.js";
import { candidateRoots, classSimilarity, recordTemplate, templateSimilarity, titleAtTemplate } from "./template.js";
import type { ExtractResult, LayoutMatch, RecordCluster, ResultRecord, Wrapper } from "./types.js";

/** Records found are nonsense when at least this many of them are there and fewer than this share look like results. */
const NONSENSE_MIN_RECORDS = 3;
const RESULT_LIKE_SHARE = 0.25;

function resultLikeShare(records: readonly ResultRecord[]): number {
  return (
    records.filter((r) => r.snippet.length >= 20 && r.snippet.length <= 1500 && !URL_LIKE.test(r.title.trim())).length / records.length
  );
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
  // template as well and is longer.
  const learned = read.find((r) => r.exact);
  const eligible = read.filter(
    (r) =>
      r.exact ||
      (r.atTemplate.length >= 2 &&
        r.similarity >= MIN_ANCHOR_SIMILARITY &&
        (!learned || (r.similarity >= NEAR_BEST * learned.similarity && r.atTemplate.length > learned.atTemplate.length))),
  );
  const best = Math.max(0, ...eligible.map((r) => r.score));
  // Records under the learned root are kept even when none of the template is recognised in them.
  if (best === 0)
    return learned && learned.titled.length > 0
      ? { regions: learned.titled, loose: learned.loose, similarity: 0 }
      : { regions: [], loose: [], similarity: 0 };
  const kept = eligible.filter((r) => r.score >= NEAR_BEST * best);
  const regions = kept.flatMap((r) => r.titled).sort((a, b) => a.root - b.root);
  const loose = kept.flatMap((r) => r.loose).sort((a, b) => a.root - b.root);
  const n = kept.reduce((s, r) => s + r.atTemplate.length, 0);
  return { regions, loose, similarity: kept.reduce((s, r) => s + r.similarity * r.atTemplate.length, 0) / n };
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
    for (const r of anchored.regions) regions.push({ ...r, titlePath: cluster.titlePath, titleFromText, template });
    if (!titleFromText) for (const r of anchored.loose) regions.push({ ...r, titlePath: null, titleFromText, template, loose: true });
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

type AnchoredRegion = RecordRegion & { titlePath: string | null; titleFromText: boolean; template: string[]; loose?: boolean };

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
    recordRegionsKept.push(region);
    coveredUntil = region.end;
  });
  // Pagination, a vertical's block, related searches: links to a new search, not results.
  // A URL an earlier record leads to, with other text: another part of one answer box.
  const query = pageQuery(seq);
  const search = searchLinkFlags(links, query);
  const repeated = repeatedRecordFlags(records);
  const control = controlTitleFlags(records, query ? queryTerms(query) : []);
  const queryWordList = queryWords(query ?? "").split(" ");
  const kept = (_: unknown, i: number) => !search[i] && !repeated[i] && !control[i] && !isEngineSearchControl(links[i]!, queryWordList);
  recordRegionsKept = recordRegionsKept.filter(kept);
  records = records.filter(kept).map((r, i) => ({ ...r, rank: i + 1 }));
  return { records, kept: recordRegionsKept, parts };
}

/**
 * Whether a region whose title sits at another depth than learned is kept: when it sits among the learned ones
 * (same parent element: not an ad list above them) or holds the learned record one level or more deeper, and
 * looks like them, no more links than they have (a news,
 * image or video block in the list holds many), and is no block of links (more pages than the list's typical
 * record leads to, and no text of its own: a news block headed like a result). A page with none at the learned
 * depth keeps all.
 *
 * A loose region (no title link where the template has one: a result the engine marks up otherwise, its own
 * property's, a video's, a partner's) is kept when it sits in the results' own list, leads to no more pages than
 * the list's typical record (its title, "More »" and thumbnail to one; a news or video block, related searches
 * and a set of questions lead to many), says something in text of its own, not in links (a snippet), its title
 * link says words (not a video's duration on its thumbnail) and leads off the engine's page (an absolute URL, or
 * a redirect carrying one: a relative link is a control or a new search), and no link of it leads where a record
 * of the template does (an answer box quoting a result).
 */
function learnedListReader(
  ctx: TextContext,
  regions: readonly AnchoredRegion[],
  exact: readonly boolean[],
  titleLinks: readonly number[],
): (region: AnchoredRegion, i: number) => boolean {
  const { parents, seq } = ctx.index;
  let maxLinks = -1;
  const lists = new Set<number>();
  regions.forEach((region, i) => {
    if (!exact[i]) return;
    maxLinks = Math.max(maxLinks, countLinks(ctx, region));
    lists.add(parents[region.root]!);
  });
  // The pages a typical record of the template leads to, and where their titles lead (read when first asked).
  let typicalPages = -1;
  let templateUrls: Set<string> | null = null;
  const typical = () => {
    if (templateUrls) return typicalPages;
    templateUrls = new Set<string>();
    const counts: number[] = [];
    regions.forEach((region, i) => {
      if (!exact[i]) return;
      counts.push(linkTargets(ctx, region).size);
      templateUrls!.add(pageOf(seq.hrefs[titleLinks[i]!]!));
    });
    typicalPages = counts.length === 0 ? -1 : counts.sort((a, b) => a - b)[(counts.length - 1) >> 1]!;
    return typicalPages;
  };
  // A record wrapped deeper (a result inside a group's box, or nested in another result) still ends in the
  // learned title path; ads among such boxes carry their labels (`hasAdLabel`, `adHeaderReader`).
  const nested = (region: AnchoredRegion, i: number) =>
    region.titlePath !== null && relativePath(ctx.index, region.root, titleLinks[i]!).endsWith(`\\${region.titlePath}`);
  return (region, i) => {
    const link = titleLinks[i]!;
    if (region.loose) {
      if (maxLinks < 0 || !lists.has(parents[region.root]!) || !leadsOff(seq.hrefs[link]!)) return false;
      if (!WORDS.test(linkTitle(ctx, link).text)) return false;
      const pages = linkTargets(ctx, region);
      return pages.size <= typical() && ![...pages].some((u) => templateUrls!.has(u)) && plainText(ctx, region).length >= MIN_SNIPPET;
    }
    if (maxLinks < 0) return true;
    if (!(lists.has(parents[region.root]!) || nested(region, i)) || countLinks(ctx, region) > maxLinks) return false;
    return linkTargets(ctx, region).size <= typical() || plainText(ctx, region).length >= MIN_SNIPPET;
  };
}

/** Two letters in a row: a title says words, not a duration, a count or a rating. */
const WORDS = /\p{L}{2}/u;

/** A snippet's least length (the seed's test, `recordEvidence`). */
const MIN_SNIPPET = 20;

function isNavigable(href: string | null | undefined): href is string {
  const h = (href ?? "").trim().toLowerCase();
  return h !== "" && !h.startsWith("#") && !h.startsWith("javascript:") && !h.startsWith("mailto:");
}

/** The page a link leads to: the URL it carries if a redirect, else its href; without a `#` fragment (a place on the page). */
function pageOf(href: string): string {
  const h = href.trim();
  return (embeddedUrl(h) ?? h).replace(/#.*$/, "");
}

/** Whether a link leads off the engine's page: an absolute URL, or a redirect carrying one. */
function leadsOff(href: string): boolean {
  return /^(https?:)?\/\//i.test(href.trim()) || targetSite(href.trim()) !== null;
}

/** The distinct pages a region's navigable links lead to. */
function linkTargets(ctx: TextContext, region: RecordRegion): Set<string> {
  const { seq } = ctx.index;
  const pages = new Set<string>();
  for (let p = region.root; p < region.end; p++) {
    const href = seq.hrefs[p];
    if (ctx.tags[seq.pathIds[p]!] === "a" && isNavigable(href)) pages.add(pageOf(href));
  }
  return pages;
}

/** A region's text outside links and displayed URLs (`<cite>`). */
function plainText(ctx: TextContext, region: RecordRegion): string {
  const { seq } = ctx.index;
  const skip: number[] = [];
  for (let p = region.root; p < region.end; p++) {
    const tag = ctx.tags[seq.pathIds[p]!];
    if (tag === "a" || tag === "cite") {
      skip.push(p);
      p = seq.ends[p]! - 1;
    }
  }
  return rangeText(ctx, region.root, region.end, skip);
}

/**
 * Whether a region is the row of sitelinks of the record before it: it leads to that record's site and shares a
 * parent holding only the two of them (the record's own block, not the result list).
 */
function siteRowReader(
  index: TagPathIndex,
  regions: readonly RecordRegion[],
): (region: RecordRegion, site: string | null, last: { root: number; site: string | null }) => boolean {
  const perParent = new Map<number, number>();
  for (const r of regions) perParent.set(index.parents[r.root]!, (perParent.get(index.parents[r.root]!) ?? 0) + 1);
  return (region, site, last) => {
    const parent = index.parents[region.root]!;
    return site !== null && site === last.site && index.parents[last.root] === parent && perParent.get(parent) === 2;
  };
}

/**
 * Whether a region sits in a block of ads whose label is printed once, above the block (a row of shopping cards
 * under "Ad · …"), or inside the ad it belongs to (an ad's sitelinks after its "Ad" line), rather than on the
 * region itself. Climbing from the region's parent, each block's part before the region is read for a label,
 * skipping other regions (a labelled ad beside an organic record does not taint it). The climb stops at a block
 * holding an organic record already kept or half of the page's regions: that is the result list, and a label
 * in it belongs to some other ad.
 */
function adHeaderReader(index: TagPathIndex, regions: readonly RecordRegion[]): (region: RecordRegion, lastKept: number) => boolean {
  const { seq, parents } = index;
  const inRegion = new Uint8Array(index.length);
  for (const r of regions) inRegion.fill(1, r.root, Math.min(r.end, index.length));
  const half = regions.length / 2;
  const regionRoots = regions.map((r) => r.root);
  const regionsIn = (from: number, to: number) => countInRange(regionRoots, from, to);
  return (region, lastKept) => {
    let scannedFrom = region.root;
    for (let a = parents[region.root]!; a >= 0; a = parents[a]!) {
      if (lastKept >= a || regionsIn(a, seq.ends[a]!) >= half) return false;
      for (let p = scannedFrom - 1; p >= a; p--) if (!inRegion[p] && seq.texts[p] && hasAdLabel(seq, p, p + 1)) return true;
      scannedFrom = a;
    }
    return false;
  };
}

/** Number of sorted values in [from, to). */
function countInRange(sorted: readonly number[], from: number, to: number): number {
  const lower = (x: number) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return lower(to) - lower(from);
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
  if (found["no-results"])
    return { status: "empty", records: [], detail: `the engine found nothing for the query ("${found["no-results"].text}")`, match };
  return records.length > 0
    ? { status: "ok", records, detail: `${records.length} records`, match }
    : { status: "empty", records, detail: "the page has the engine's layout but no result records", match };
}
