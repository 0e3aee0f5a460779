import { createHash } from "node:crypto";
import { UserError } from "../errors.js";
import { collapsedView, indexTagPaths, type TagPathIndex, type TagPathSequence } from "../html/index.js";
import { graphPreferences, graphWithTieBreakNoise, sparseAffinityPropagation } from "./ap.js";
import {
  hasSnippet,
  isCard,
  isResultLike,
  type PageEvidence,
  pageEvidence,
  pageSite,
  recordEvidence,
  recordScore,
  siteDiversity,
  titleHeaded,
} from "./evidence.js";
import { layoutFingerprint } from "./layout.js";
import { BLOCK_TAGS, HEADING_TAGS, textContext, type TextContext } from "./record-text.js";
import { buildRecord, controlTitleFlags, findTitleLink, headingTail, type RecordRegion, recordRegions, relativePath } from "./records.js";
import { searchLinkFlags } from "./search-links.js";
import { DEFAULT_EPSILON, type SimilarityGraph, similarityGraph } from "./similarity.js";
import type { RecordCluster, Wrapper, WrapperParams } from "./types.js";

/** A record root must explain at least this share of what the best root explains, with records at least this complete. */
const ROOT_SHARE = 0.8;

// minClusterSize 3: with sparse AP, paths with σ = 0 to every other path no longer pad clusters at random (dense
// AP attached them to some exemplar through the tie-break noise), so a record's three paths (link, text, emphasis)
// make a cluster of three; with 4 the aql baidu pages lost their snippet cluster (bench/wrapper-equivalence.ts).
export const DEFAULT_PARAMS: WrapperParams = { epsilon: DEFAULT_EPSILON, minRecords: 3, minClusterSize: 3 };

export interface LearnOptions {
  engine: string;
  pageUrl?: string;
  file?: string;
  params?: Partial<WrapperParams>;
  /** Clock for `learnedAt` (tests). */
  now?: Date;
}

/** Everything the learner found on a page, best cluster first (for `wrapper learn --explain` and tests). */
export interface PageAnalysis {
  index: TagPathIndex;
  /** Path ids that took part in clustering (occurring at least twice). */
  candidates: number[];
  /** AP clusters as lists of path ids. */
  clusters: number[][];
  /** Essential clusters turned into record rules, best first. */
  recordClusters: RecordCluster[];
  /** Per record cluster, its sample records with a plausible snippet. */
  snippetRecords: Map<RecordCluster, number>;
}

export function learnWrapper(seq: TagPathSequence, options: LearnOptions): Wrapper {
  const params = { ...DEFAULT_PARAMS, ...options.params };
  const { analysis, pathMode } = chooseAnalysis(seq, params, options.pageUrl);
  // The seed's T: a list of results has more than T records (here: that look like results).
  if (!analysis || analysis.recordClusters.length === 0 || bestRecords(analysis) <= params.minRecords) {
    throw new UserError(
      `${options.file ?? options.pageUrl ?? "page"}: no repeated record structure found (is this a result page with results?)`,
      {
        kind: "no-record-structure",
      },
    );
  }
  return {
    engine: options.engine,
    learnedAt: (options.now ?? new Date()).toISOString(),
    sample: {
      sha256: sequenceHash(seq),
      url: options.pageUrl ?? null,
      file: options.file ?? null,
      positions: seq.pathIds.length,
      uniquePaths: seq.paths.length,
    },
    params,
    pathMode,
    layout: layoutFingerprint(seq),
    clusters: analysis.recordClusters,
  };
}

/**
 * The page's analysis the learner uses. The seed's reading first: exact tag paths, AP with the median preference.
 * When that shows no list of more than T records, try fewer, larger clusters (the minimum preference: on small pages
 * nearly all paths are equally similar, and the median makes every path its own exemplar), then paths with nested
 * records collapsed (legacy markup). The first variant that finds a record list wins, else the best.
 */
export function chooseAnalysis(
  seq: TagPathSequence,
  params: WrapperParams,
  pageUrl?: string,
): { analysis: PageAnalysis | null; pathMode: Wrapper["pathMode"]; preference: "median" | "min" } {
  const variants: Array<{ pathMode: Wrapper["pathMode"]; preference: "median" | "min" }> = [
    { pathMode: "exact", preference: "median" },
    { pathMode: "exact", preference: "min" },
    { pathMode: "collapsed", preference: "median" },
    { pathMode: "collapsed", preference: "min" },
  ];
  let analysis: PageAnalysis | null = null;
  let pathMode: Wrapper["pathMode"] = "exact";
  let preference: "median" | "min" = "median";
  let collapsed: TagPathSequence | null = null;
  // The page's site is read off its URL or links, which collapsing leaves as they are: once for both views.
  const site = pageSite(seq, pageUrl);
  let reading: PageReading | null = null;
  for (const v of variants) {
    if (v.pathMode === "collapsed" && !collapsed) collapsed = collapsedView(seq);
    // Collapsing changed no path (no tandem repeats): the collapsed variants would repeat the exact ones.
    if (v.pathMode === "collapsed" && collapsed!.paths.length === seq.paths.length) break;
    const view = v.pathMode === "exact" ? seq : collapsed!;
    if (reading?.index.seq !== view) reading = readPage(view, params.epsilon, pageEvidence(view, pageUrl, site));
    // Where fewer than half the pairs of paths interleave (nearly every page), the median similarity is 0 like the
    // minimum: the same AP on the same graph, so the same analysis as the median's, which did not win already.
    if (v.preference === "min" && reading.preferences.min === reading.preferences.median) continue;
    const candidate = analyseReading(reading, params, pageUrl, v.preference);
    if (!analysis || bestScore(candidate) > bestScore(analysis)) {
      analysis = candidate;
      pathMode = v.pathMode;
      preference = v.preference;
    }
    if (bestRecords(analysis) > params.minRecords) break;
  }
  return { analysis, pathMode, preference };
}

function bestScore(a: PageAnalysis): number {
  return a.recordClusters[0]?.score ?? 0;
}

/** Records with a snippet in the best cluster: a variant "finds a record list" when it has more than T. */
function bestRecords(a: PageAnalysis): number {
  const best = a.recordClusters[0];
  return best ? (a.snippetRecords.get(best) ?? 0) : 0;
}

export function analysePage(
  seq: TagPathSequence,
  params: WrapperParams = DEFAULT_PARAMS,
  pageUrl?: string,
  preference: "median" | "min" = "median",
): PageAnalysis {
  return analyseReading(readPage(seq, params.epsilon, pageEvidence(seq, pageUrl)), params, pageUrl, preference);
}

/**
 * One reading of a page (exact or collapsed tag paths) and what the learner derives from it whatever AP's
 * preference: the index, the paths that take part in clustering, their similarity graph and its preferences.
 */
interface PageReading {
  index: TagPathIndex;
  candidates: number[];
  /** σ over the candidates, tie-break noise added (null: fewer than two candidates, nothing to cluster). */
  graph: SimilarityGraph | null;
  preferences: { median: number; min: number };
  evidence: PageEvidence;
}

function readPage(seq: TagPathSequence, epsilon: number, evidence: PageEvidence): PageReading {
  const index = indexTagPaths(seq);
  const candidates: number[] = [];
  for (let id = 0; id < seq.paths.length; id++) if (index.occurrences[id]!.length >= 2) candidates.push(id);
  if (candidates.length < 2) return { index, candidates, graph: null, preferences: { median: 0, min: 0 }, evidence };
  const graph = graphWithTieBreakNoise(
    similarityGraph(
      candidates.map((id) => index.occurrences[id]!),
      epsilon,
    ),
  );
  return { index, candidates, graph, preferences: graphPreferences(graph), evidence };
}

function analyseReading(
  reading: PageReading,
  params: WrapperParams,
  pageUrl: string | undefined,
  preference: "median" | "min",
): PageAnalysis {
  const { index, candidates, evidence } = reading;
  const clusters = clusterReading(reading, reading.preferences[preference]);
  const ctx = textContext(index);
  const byRoot = new Map<number, RecordCluster>();
  const rootSearch = new RootSearch(index);
  const snippetRecords = new Map<RecordCluster, number>();
  const recordRoots = new Map<RecordCluster, number[]>();
  // Clusters sharing a record root describe the same records: their paths are read together (the records' title
  // among them), in the order of the root's first cluster.
  const membersByRoot = new Map<number, number[]>();
  for (const members of clusters) {
    if (members.length < params.minClusterSize) continue;
    const root = recordRoot(index, members, params.minRecords, rootSearch);
    if (root === null) continue;
    const joined = membersByRoot.get(root);
    if (joined) joined.push(...members);
    else membersByRoot.set(root, [...members]);
  }
  for (const [root, members] of membersByRoot) {
    const { rule, withSnippet, roots } = describeCluster(ctx, evidence, root, members, params.minRecords, pageUrl);
    byRoot.set(root, rule);
    snippetRecords.set(rule, withSnippet);
    recordRoots.set(rule, roots);
  }
  const recordClusters = [...byRoot.values()].filter((c) => c.score > 0).sort((a, b) => b.score - a.score);
  assignRoles(index, recordClusters, recordRoots, (c) => (snippetRecords.get(c) ?? 0) * 2 >= c.sampleRecords);
  return { index, candidates, clusters, recordClusters, snippetRecords };
}

/** AP over the σ graph of the reading's candidate paths with the given preference; clusters as lists of path ids. */
function clusterReading(reading: PageReading, preference: number): number[][] {
  const { candidates, graph } = reading;
  if (candidates.length === 0) return [];
  if (graph === null) return [candidates];
  const { labels } = sparseAffinityPropagation(graph, { preference });
  const groups = new Map<number, number[]>();
  labels.forEach((label, i) => {
    const g = groups.get(label);
    if (g) g.push(candidates[i]!);
    else groups.set(label, [candidates[i]!]);
  });
  return [...groups.values()];
}

/**
 * The record root P_a of a cluster: among the ancestor paths of its members occurring more than T
 * times, the one that splits the cluster's occurrences into the most records while explaining the
 * largest share of them (records × share; deeper wins ties); then lifted while each record's parent
 * element holds only that record, so wrappers around a record (and its snippet beside the title)
 * stay inside it.
 */
export function recordRoot(
  index: TagPathIndex,
  members: number[],
  minRecords: number,
  search: RootSearch = new RootSearch(index),
): number | null {
  const { seq } = index;
  let total = 0;
  const prefixes = new Map<number, number>(); // path id → depth
  const under = new Map<number, number[]>(); // path id → the members under it (its own path or below), in order
  for (const m of members) {
    total += index.occurrences[m]!.length;
    for (const [id, d] of search.prefixes(m)) {
      if (index.occurrences[id]!.length <= minRecords) continue;
      prefixes.set(id, d);
      const list = under.get(id);
      if (list) list.push(m);
      else under.set(id, [m]);
    }
  }
  // Each candidate root: how many records (its occurrences holding cluster content), what share of the
  // cluster's occurrences it explains, and how complete its records are (share of the member paths under
  // it found in each record, averaged).
  const scored: Array<{ id: number; depth: number; records: number; share: number; completeness: number }> = [];
  const { seen, counted, count } = search.marks();
  const records: number[] = []; // record positions, in order of first sight
  for (const [id, depth] of prefixes) {
    const inside = under.get(id)!;
    const visit = search.nextVisit();
    let covered = 0;
    records.length = 0;
    for (const m of inside) {
      const memberVisit = search.nextVisit();
      const up = search.depth(m) - depth;
      for (const pos of index.occurrences[m]!) {
        let a = pos;
        for (let k = 0; k < up; k++) a = index.parents[a]!;
        if (seen[a] !== visit) {
          seen[a] = visit;
          count[a] = 0;
          records.push(a);
        }
        if (counted[a] !== memberVisit) {
          counted[a] = memberVisit;
          count[a]!++;
        }
        covered++;
      }
    }
    if (records.length <= minRecords) continue;
    let completeness = 0;
    for (const a of records) completeness += count[a]! / inside.length;
    scored.push({ id, depth, records: records.length, share: covered / total, completeness: completeness / records.length });
  }
  if (scored.length === 0) return null;
  // Explain (nearly) all of the cluster, with records that each hold (nearly) all of it, then split it
  // into as many records as possible; deeper wins ties.
  const maxShare = Math.max(...scored.map((c) => c.share));
  const explaining = scored.filter((c) => c.share >= ROOT_SHARE * maxShare);
  const maxCompleteness = Math.max(...explaining.map((c) => c.completeness));
  let best: (typeof scored)[number] | null = null;
  for (const c of explaining) {
    if (c.completeness < ROOT_SHARE * maxCompleteness) continue;
    if (!best || c.records > best.records || (c.records === best.records && c.depth > best.depth)) best = c;
  }
  if (best === null) return null;
  // A record is more than its link: a card wholly wrapped in one link (blocks of image, title, price) is read from
  // the link's parent, so that the link is the record's title link. (Inline links in text stay what they are.)
  let root = best.id;
  const first = index.occurrences[root]![0]!;
  if (seq.paths[root]!.endsWith("\\a") && index.parents[first]! >= 0 && holdsBlock(index, first))
    root = seq.pathIds[index.parents[first]!]!;
  return liftRoot(index, root);
}

/** Whether a link wraps a card: a heading (the card's title) among blocks, not a phrase or a row of text. */
function holdsBlock(index: TagPathIndex, pos: number): boolean {
  const { seq } = index;
  let block = false;
  let heading = false;
  for (let p = pos + 1; p < seq.ends[pos]!; p++) {
    const path = seq.paths[seq.pathIds[p]!]!;
    const tag = path.slice(path.lastIndexOf("\\") + 1);
    if (BLOCK_TAGS.has(tag)) block = true;
    if (HEADING_TAGS.has(tag)) heading = true;
  }
  return block && heading;
}

/**
 * What every cluster's record-root search on a page reads: for a path id, the ids and depths of its prefixes that
 * are paths of the page (`html`, `html\\body`, …, itself), computed once per path; and per position, marks that
 * count each record's member paths without a map or set per record (allocated once per page, not per cluster).
 */
export class RootSearch {
  private readonly index: TagPathIndex;
  private pathId: Map<string, number> | null = null;
  private readonly cache = new Map<number, Array<readonly [number, number]>>();
  private buffers: { seen: Int32Array; counted: Int32Array; count: Int32Array } | null = null;
  private visits = 0;

  constructor(index: TagPathIndex) {
    this.index = index;
  }

  prefixes(m: number): ReadonlyArray<readonly [number, number]> {
    let out = this.cache.get(m);
    if (out) return out;
    const { seq } = this.index;
    this.pathId ??= new Map(seq.paths.map((p, i) => [p, i] as const));
    out = [];
    const path = seq.paths[m]!;
    let d = 1;
    for (let i = 0; i <= path.length; i++) {
      if (i < path.length && path.charCodeAt(i) !== 92) continue;
      const id = this.pathId.get(path.slice(0, i));
      if (id !== undefined) out.push([id, d]);
      d++;
    }
    this.cache.set(m, out);
    return out;
  }

  /** The number of tags of a path (its own path is the last of its prefixes). */
  depth(m: number): number {
    const prefixes = this.prefixes(m);
    return prefixes[prefixes.length - 1]![1];
  }

  /**
   * Per position: the visit (a root's or a member's) that last saw it, and a count; a new visit number makes every
   * mark stale, so the arrays are never cleared.
   */
  marks(): { seen: Int32Array; counted: Int32Array; count: Int32Array } {
    const n = this.index.length;
    this.buffers ??= { seen: new Int32Array(n), counted: new Int32Array(n), count: new Int32Array(n) };
    return this.buffers;
  }

  nextVisit(): number {
    return ++this.visits;
  }
}

function liftRoot(index: TagPathIndex, root: number): number {
  const { seq } = index;
  let current = root;
  for (;;) {
    // Lift to the parent elements when they all share one path and each holds exactly one record.
    const parents = new Set<number>();
    let parentPath = -1;
    for (const pos of index.occurrences[current]!) {
      const p = index.parents[pos]!;
      if (p < 0 || parents.has(p)) return current;
      const id = seq.pathIds[p]!;
      if (parentPath >= 0 && id !== parentPath) return current;
      parentPath = id;
      parents.add(p);
    }
    if (parentPath < 0 || index.occurrences[parentPath]!.length !== parents.size) return current;
    current = parentPath;
  }
}

/**
 * The result list: a cluster with the clusters that join it. Another cluster joins a primary when its records
 * sit in the same list — every record's parent element is also a parent of the primary's records, or one of
 * those records itself — so result lists that mix several record templates (Sogou's vertical results among
 * web results) or hold results at two depths (a result wrapped in one more element than the next) are read
 * whole — when at least half its records have a worded title and a snippet, as results do (related searches in
 * the list do not). The list that scores best with its joiners leads, so organic results split over two
 * templates outweigh one carousel of the same size. (Extraction takes an inner record only where the outer one
 * has no title.)
 */
function assignRoles(
  index: TagPathIndex,
  clusters: RecordCluster[],
  recordRoots: ReadonlyMap<RecordCluster, readonly number[]>,
  resultLike: (c: RecordCluster) => boolean,
): void {
  if (clusters.length === 0) return;
  const pathId = new Map(index.seq.paths.map((p, i) => [p, i] as const));
  const parentsOf = (path: string) => new Set(Array.from(index.occurrences[pathId.get(path)!]!, (p) => index.parents[p]!));
  const parents = new Map(clusters.map((c) => [c, parentsOf(c.ancestorPath)] as const));
  const joinersOf = (primary: RecordCluster) => {
    const containers = new Set(parents.get(primary)!);
    for (const p of index.occurrences[pathId.get(primary.ancestorPath)!]!) containers.add(p);
    return clusters.filter(
      (c) => c !== primary && c.titlePath !== null && resultLike(c) && [...parents.get(c)!].every((p) => containers.has(p)),
    );
  };
  const score = (primary: RecordCluster, joiners: readonly RecordCluster[]) => listScore(index, recordRoots, primary, joiners);
  let best = clusters[0]!;
  let bestJoiners = joinersOf(best);
  let bestTotal = score(best, bestJoiners);
  for (const c of clusters.slice(1)) {
    if (c.score * 2 <= bestTotal / 2) break; // sorted by score: no later list can double its own to win
    const joiners = joinersOf(c);
    const total = score(c, joiners);
    // Equal lists: the one splitting the page into more records (the seed's preference).
    const better = total > bestTotal + 1e-9 || (total > bestTotal - 1e-9 && c.sampleRecords > best.sampleRecords);
    if (better) [best, bestJoiners, bestTotal] = [c, joiners, total];
  }
  for (const c of clusters) c.role = c === best || bestJoiners.includes(c) ? "results" : "other";
  clusters.splice(clusters.indexOf(best), 1);
  clusters.unshift(best);
}

/**
 * A list's score: its own and that of the clusters joining it, each for the share of its records that are not
 * inside a record of the primary (a record's parts, or a primary rooted too high, holding several records each,
 * would count one list twice; results wrapped one level deeper than the primary's are new records).
 */
function listScore(
  index: TagPathIndex,
  recordRoots: ReadonlyMap<RecordCluster, readonly number[]>,
  primary: RecordCluster,
  joiners: readonly RecordCluster[],
): number {
  const inPrimary = new Set(recordRoots.get(primary));
  let total = primary.score;
  for (const c of joiners) {
    const roots = recordRoots.get(c) ?? [];
    if (roots.length === 0) continue;
    const outside = roots.filter((r) => !inPrimary.has(index.parents[r]!)).length;
    total += (c.score * outside) / roots.length;
  }
  return total;
}

/**
 * The records' title path: the relative path of most regions' title link, among the links on the cluster's own paths
 * when more than T regions have one there (a root path shared with other blocks, a sidebar's lists beside the results,
 * must not let their links outvote the titles the cluster holds), else among all.
 */
function recordsTitlePath(
  ctx: TextContext,
  regions: readonly RecordRegion[],
  members: readonly number[],
  minRecords: number,
): string | null {
  const { index } = ctx;
  const memberPaths = new Set(members);
  const titlePaths = new Map<string, number>();
  const memberTitlePaths = new Map<string, number>();
  for (const region of regions) {
    const link = findTitleLink(ctx, region, null);
    if (link < 0) continue;
    const rel = relativePath(index, region.root, link);
    titlePaths.set(rel, (titlePaths.get(rel) ?? 0) + 1);
    if (memberPaths.has(index.seq.pathIds[link]!)) memberTitlePaths.set(rel, (memberTitlePaths.get(rel) ?? 0) + 1);
  }
  const mostCommon = (counts: ReadonlyMap<string, number>) => {
    let best: string | null = null;
    let count = 0;
    for (const [p, c] of counts) if (c > count) [best, count] = [p, c];
    return { best, count };
  };
  const own = mostCommon(memberTitlePaths);
  return own.count > minRecords ? own.best : mostCommon(titlePaths).best;
}

/** Score a record root on the sample page and learn its title path. */
function describeCluster(
  ctx: TextContext,
  evidence: PageEvidence,
  root: number,
  members: number[],
  minRecords: number,
  pageUrl?: string,
): { rule: RecordCluster; withSnippet: number; roots: number[] } {
  const { index } = ctx;
  const regions = recordRegions(index, index.occurrences[root]!);
  const titlePath = recordsTitlePath(ctx, regions, members, minRecords);
  const buildAll = (titleFromText: boolean) => {
    const out: Array<{ region: (typeof regions)[number]; link: number; record: NonNullable<ReturnType<typeof buildRecord>> }> = [];
    for (const region of regions) {
      const link = titlePath === null ? -1 : findTitleLink(ctx, region, titlePath);
      // On the sample, a record is one of this template: its title where learned (or at the learned heading's
      // depth); a link found elsewhere in the region is the extractor's tolerance for other pages.
      if (link < 0 || (relativePath(index, region.root, link) !== titlePath && headingTail(titlePath!) === null)) continue;
      const record = buildRecord(ctx, region, titlePath, pageUrl, titleFromText);
      if (record) out.push({ region, link, record });
    }
    return out;
  };
  let built = buildAll(false);
  // Most records' link reads the same ("Read more »"): the title is the text the records begin with.
  const headed = (b: (typeof built)[number]) => ({ title: b.record.title, headed: titleHeaded(ctx, b.region.root, b.link) });
  const controls = controlTitleFlags(built.map(headed), evidence.terms).filter(Boolean).length;
  const titleFromText = controls * 2 > built.length;
  if (titleFromText) built = buildAll(true);
  // A new search (pagination, a vertical's block, a related search) is no result, and neither is a second
  // record leading where an earlier one does (the parts of one answer box all link to its source).
  const search = searchLinkFlags(
    built.map((b) => ({ href: index.seq.hrefs[b.link]!, text: b.record.title, snippet: b.record.snippet })),
    evidence.query,
  );
  const control = controlTitleFlags(built.map(headed), evidence.terms);
  let score = 0;
  let withSnippet = 0;
  const urls = new Set<string>();
  const counted: string[] = [];
  built.forEach(({ region, link, record }, i) => {
    if (search[i] || control[i] || urls.has(record.url)) return;
    urls.add(record.url);
    // Neither a snippet nor a card: no result, whatever its other evidence (read only for records that can be one).
    if (!hasSnippet(record) && !isCard(record)) return;
    const e = recordEvidence(ctx, evidence, region, link, record);
    // Without a snippet a record is not a result (the seed's test); the other evidence ranks lists of results.
    if (isResultLike(e)) {
      score += recordScore(e);
      withSnippet++;
      counted.push(record.url);
    }
  });
  // Weighed by how many sites the list leads to (a carousel of one site's videos is no result list), softly: the
  // results for a query about one shop's product can lead to that shop five times in six.
  score *= Math.sqrt(siteDiversity(counted, evidence.site));
  const records = built.length;
  const rule: RecordCluster = {
    ancestorPath: index.seq.paths[root]!,
    paths: members.map((m) => index.seq.paths[m]!),
    sampleRecords: records,
    titlePath,
    ...(titleFromText ? { titleFromText } : {}),
    score,
    role: "other",
  };
  return { rule, withSnippet, roots: built.map((b) => b.region.root) };
}

/** A short, stable hash of the sample page's tag-path sequence. */
export function sequenceHash(seq: TagPathSequence): string {
  const h = createHash("sha256");
  // Hashed in chunks of whole lines (the same bytes as a line at a time: one call into the hash per path cost more
  // than the hashing), short enough that a page of very deep paths never makes one huge string.
  let chunk = "";
  for (const id of seq.pathIds) {
    chunk += `${seq.paths[id]!}\n`;
    if (chunk.length >= 65536) {
      h.update(chunk);
      chunk = "";
    }
  }
  return h.update(chunk).digest("hex");
}
