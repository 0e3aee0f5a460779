import type { TagPathIndex } from "../html/index.js";
import type { ResultRecord } from "./types.js";
import { BLOCK, CITE, HEADING, HEADING_TAGS, LINK, rangeText, type TextContext } from "./record-text.js";

/**
 * Turning one record region (feng2010 §4.3: the positions from an occurrence of the ancestor path P_a
 * up to the next occurrence, within its subtree) into a result record: title, url, snippet.
 */

export interface RecordRegion {
  /** Position of the record's root element (an occurrence of P_a). */
  root: number;
  /** Exclusive end: the root's subtree end, or the next occurrence of P_a when records nest. */
  end: number;
}

/** Regions of the records led by the given occurrences of P_a (sorted positions). */
export function recordRegions(index: TagPathIndex, occurrences: ArrayLike<number>): RecordRegion[] {
  const regions: RecordRegion[] = [];
  for (let i = 0; i < occurrences.length; i++) {
    const root = occurrences[i]!;
    const next = i + 1 < occurrences.length ? occurrences[i + 1]! : Number.POSITIVE_INFINITY;
    regions.push({ root, end: Math.min(index.seq.ends[root]!, next) });
  }
  return flatRecords(index, regions) ?? regions;
}

/**
 * A flat list whose record is a run of sibling elements (`<dt>` title, `<dd>` snippet): when every record root is a
 * sibling of the next, with elements between them, and holds no text outside links (a title only), each record runs
 * to the next root, the last one over as many siblings as the others have. Null when the list is not such a list.
 */
function flatRecords(index: TagPathIndex, regions: readonly RecordRegion[]): RecordRegion[] | null {
  const { seq, parents } = index;
  if (regions.length < 2) return null;
  const parent = parents[regions[0]!.root]!;
  if (parent < 0) return null;
  let siblings = Number.POSITIVE_INFINITY;
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i]!;
    if (parents[r.root] !== parent || r.end !== seq.ends[r.root]) return null;
    if (!titleOnly(index, r.root)) return null;
    if (i + 1 < regions.length) {
      let n = 0;
      for (let p = r.end; p < regions[i + 1]!.root; p = seq.ends[p]!) if (parents[p] === parent) n++;
      if (n === 0) return null;
      siblings = Math.min(siblings, n);
    }
  }
  return regions.map((r, i) => {
    if (i + 1 < regions.length) return { root: r.root, end: regions[i + 1]!.root };
    let end = r.end;
    for (let k = 0; k < siblings && end < seq.ends[parent]! && parents[end] === parent; k++) end = seq.ends[end]!;
    return { root: r.root, end };
  });
}

/** Whether an element's text all sits in links (a title line, nothing beside it). */
function titleOnly(index: TagPathIndex, root: number): boolean {
  const { seq, parents } = index;
  let linked = false;
  for (let p = root + 1; p < seq.ends[root]!; p++) {
    if (!seq.texts[p]?.trim()) continue;
    let inLink = false;
    for (let a = parents[p]!; a > root && !inLink; a = parents[a]!) inLink = seq.paths[seq.pathIds[a]!]!.endsWith("\\a");
    if (!inLink) return false;
    linked = true;
  }
  return linked;
}

/** Path of `pos` relative to the record root at `root` (`h3\a`), or "" for the root itself. */
export function relativePath(index: TagPathIndex, root: number, pos: number): string {
  const rootPath = index.seq.paths[index.seq.pathIds[root]!]!;
  const path = index.seq.paths[index.seq.pathIds[pos]!]!;
  return path.length === rootPath.length ? "" : path.slice(rootPath.length + 1);
}

export function isNavigableHref(href: string | null): href is string {
  if (href === null) return false;
  const h = href.trim().toLowerCase();
  return h !== "" && !h.startsWith("#") && !h.startsWith("javascript:") && !h.startsWith("mailto:");
}

/** Whether position `p` is an `<a>` with a navigable href (looked up once per position and page). */
function isNavigableLink(ctx: TextContext, p: number): boolean {
  const known = ctx.memo.navigable[p]!;
  if (known !== 0) return known === 1;
  const yes = (ctx.kinds[ctx.index.seq.pathIds[p]!]! & LINK) !== 0 && isNavigableHref(ctx.index.seq.hrefs[p] ?? null);
  ctx.memo.navigable[p] = yes ? 1 : 2;
  return yes;
}

/**
 * Title text of a link: the text of the first heading inside it if it has one (Google's `<a><h3>`),
 * otherwise the link text without `<cite>` URL displays (Brave, Google's breadcrumbs).
 */
export function linkTitle(ctx: TextContext, link: number): { text: string; skip: number[] } {
  let title = ctx.memo.linkTitles.get(link);
  if (title === undefined) {
    title = readLinkTitle(ctx, link);
    ctx.memo.linkTitles.set(link, title);
  }
  return title;
}

function readLinkTitle(ctx: TextContext, link: number): { text: string; skip: number[] } {
  const { seq } = ctx.index;
  const end = seq.ends[link]!;
  for (let p = link + 1; p < end; p++) {
    if ((ctx.kinds[seq.pathIds[p]!]! & HEADING) !== 0) {
      const text = rangeText(ctx, p, seq.ends[p]!);
      if (text) return { text, skip: [] };
    }
  }
  const cites: number[] = [];
  for (let p = link + 1; p < end; p++) if ((ctx.kinds[seq.pathIds[p]!]! & CITE) !== 0) cites.push(p);
  // A card whose link holds the site line (name, displayed URL) and then the title: the title is what follows
  // the displayed URL's block, when something does.
  if (cites.length > 0) {
    const last = cites[cites.length - 1]!;
    let block = ctx.index.parents[last]!;
    while (block > link && ctx.index.parents[block]! > link) block = ctx.index.parents[block]!;
    if (block > link) {
      const after = rangeText(ctx, seq.ends[block]!, end);
      if (after) return { text: after, skip: [] };
    }
  }
  const text = rangeText(ctx, link, end, cites);
  return text || cites.length === 0 ? { text, skip: cites } : { text: rangeText(ctx, link, end), skip: [] };
}

/** Whether `pos` lies inside a heading element, or its subtree contains one, within the region. */
function headingRelated(ctx: TextContext, region: RecordRegion, pos: number): boolean {
  const { seq, parents } = ctx.index;
  for (let p = parents[pos]!; p >= region.root; p = parents[p]!) if ((ctx.kinds[seq.pathIds[p]!]! & HEADING) !== 0) return true;
  for (let p = pos + 1; p < seq.ends[pos]!; p++) if ((ctx.kinds[seq.pathIds[p]!]! & HEADING) !== 0) return true;
  return false;
}

/**
 * The record's main link. With a learned `titlePath`, the first navigable link with text at exactly
 * that relative path (a region without one is not a record of this kind: pagination, ads, answer boxes).
 * Without one (on the sample page, before the path is learned): the first navigable link in or around
 * a heading, else the first navigable link with text.
 */
export function findTitleLink(ctx: TextContext, region: RecordRegion, titlePath: string | null): number {
  let byRegion = ctx.memo.titleLinks.get(titlePath);
  if (byRegion === undefined) {
    byRegion = new Map();
    ctx.memo.titleLinks.set(titlePath, byRegion);
  }
  const key = region.root * (ctx.index.length + 1) + region.end;
  let link = byRegion.get(key);
  if (link === undefined) {
    link = readTitleLink(ctx, region, titlePath);
    byRegion.set(key, link);
  }
  return link;
}

function readTitleLink(ctx: TextContext, region: RecordRegion, titlePath: string | null): number {
  let firstWithText = -1;
  let firstHeading = -1;
  // A result list can hold one template at two depths (`li\h2\a` and `li\div\h2\a`): a record without a
  // link at the learned path takes one at the same heading-led tail of it (`h2\a`).
  // A title path without a heading (`div\div\a`, the heading inside the link: `<a><h3>`) takes, at another
  // depth, the first link that holds a heading.
  const tail = titlePath === null ? null : headingTail(titlePath);
  let tailMatch = -1;
  for (let p = region.root; p < region.end; p++) {
    if (!isNavigableLink(ctx, p)) continue;
    if (titlePath !== null) {
      const rel = relativePath(ctx.index, region.root, p);
      if (rel === titlePath && linkTitle(ctx, p).text) return p;
      if (tailMatch >= 0) continue;
      const atTail = tail !== null ? rel === tail || rel.endsWith(`\\${tail}`) : holdsHeading(ctx, p);
      if (atTail && linkTitle(ctx, p).text) tailMatch = p;
      continue;
    }
    if (firstWithText < 0 || firstHeading < 0) {
      if (!linkTitle(ctx, p).text) continue;
      if (firstWithText < 0) firstWithText = p;
      if (firstHeading < 0 && headingRelated(ctx, region, p)) firstHeading = p;
    }
  }
  if (titlePath !== null) return tailMatch;
  return firstHeading >= 0 ? firstHeading : firstWithText;
}

function holdsHeading(ctx: TextContext, link: number): boolean {
  const { seq } = ctx.index;
  for (let p = link + 1; p < seq.ends[link]!; p++) if ((ctx.kinds[seq.pathIds[p]!]! & HEADING) !== 0) return true;
  return false;
}

/** The part of a relative title path from its last heading on (`div\h2\a` → `h2\a`), or null without one. */
export function headingTail(titlePath: string): string | null {
  // Asked for every region and link with one of a few title paths: each is split once (the cache is kept small).
  const known = headingTails.get(titlePath);
  if (known !== undefined) return known;
  if (headingTails.size >= 256) headingTails.clear();
  const tail = readHeadingTail(titlePath);
  headingTails.set(titlePath, tail);
  return tail;
}

const headingTails = new Map<string, string | null>();

function readHeadingTail(titlePath: string): string | null {
  const tags = titlePath.split("\\");
  for (let i = tags.length - 1; i >= 0; i--) if (HEADING_TAGS.has(tags[i]!)) return tags.slice(i).join("\\");
  return null;
}

/** Navigable links in a record region. */
export function countLinks(ctx: TextContext, region: RecordRegion): number {
  let n = 0;
  for (let p = region.root; p < region.end; p++) if (isNavigableLink(ctx, p)) n++;
  return n;
}

/** Resolve a link against `<base href>` and the page URL; unresolvable links are returned as written. */
export function resolveUrl(href: string, pageUrl: string | undefined, baseHref: string | null): string {
  const raw = href.trim();
  try {
    const base = baseHref ? new URL(baseHref, pageUrl).href : pageUrl;
    // Without a base only an absolute URL parses: a relative one would throw, which costs more than parsing.
    if (base === undefined && !beginsWithScheme(raw)) return raw;
    return new URL(raw, base).href;
  } catch {
    return raw;
  }
}

/**
 * Whether `href` begins with a scheme as the URL parser reads one (past leading controls and spaces, tabs and
 * newlines ignored): an ASCII letter, then letters, digits, `+`, `-`, `.`, then `:`.
 */
function beginsWithScheme(href: string): boolean {
  let i = 0;
  while (i < href.length && href.charCodeAt(i) <= 32) i++;
  const first = href.charCodeAt(i) | 32;
  if (first < 97 || first > 122) return false;
  for (i++; i < href.length; i++) {
    const code = href.charCodeAt(i);
    if (code === 58) return true;
    const letter = code | 32;
    const schemeChar = (letter >= 97 && letter <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46;
    if (!schemeChar && code !== 9 && code !== 10 && code !== 13) return false;
  }
  return false;
}

/** Build the record of a region, or null when it has no main link with text. */
export function buildRecord(
  ctx: TextContext,
  region: RecordRegion,
  titlePath: string | null,
  pageUrl: string | undefined,
  titleFromText = false,
): Omit<ResultRecord, "rank"> | null {
  const { seq } = ctx.index;
  const link = findTitleLink(ctx, region, titlePath);
  if (link < 0) return null;
  // The snippet is the record's other text, without displayed URLs (`<cite>`), as engines define snippets.
  const cites: number[] = [];
  for (let p = region.root; p < region.end; p++) if ((ctx.kinds[seq.pathIds[p]!]! & CITE) !== 0) cites.push(p);
  const url = resolveUrl(seq.hrefs[link]!, pageUrl, seq.baseHref);
  if (titleFromText) {
    // The link is a control ("Read more »"): the title is the record's first block of text.
    const block = firstTextBlock(ctx, region);
    if (block < 0 || block >= link) return null;
    const title = rangeText(ctx, block, seq.ends[block]!);
    const snippet = joinTexts(rangeText(ctx, region.root, block, cites), rangeText(ctx, seq.ends[block]!, region.end, [...cites, link]));
    return title ? { title, url, snippet } : null;
  }
  const { text: title } = linkTitle(ctx, link);
  if (!title) return null;
  const before = rangeText(ctx, region.root, link, cites);
  const after = rangeText(ctx, seq.ends[link]!, region.end, cites);
  return { title, url, snippet: joinTexts(before, after) };
}

/** `normaliseSpace` of two normalised texts joined by a space, without reading them again. */
function joinTexts(a: string, b: string): string {
  return a && b ? `${a} ${b}` : a || b;
}

/** The innermost block element around the region's first text (the region's root if none is nearer), or -1. */
function firstTextBlock(ctx: TextContext, region: RecordRegion): number {
  const { seq, parents } = ctx.index;
  for (let p = region.root; p < region.end; p++) {
    if (!seq.texts[p]?.trim()) continue;
    let b = parents[p]!;
    while (b > region.root && (ctx.kinds[seq.pathIds[b]!]! & BLOCK) === 0) b = parents[b]!;
    return b;
  }
  return -1;
}

/**
 * Records leading where an earlier record of the list leads, with other text: the parts of one answer box
 * (its header, its text, its "Wikipedia" source line) all link to its source, while results of a list lead
 * to distinct pages (a box's parts follow each other). A record repeated whole (a directory listing a site under two
 * headings) is kept, and so is one with the same title further down the list: another item of one source (a second
 * post of one author, titled by the author).
 * (Snippets are no such evidence: distinct results share one when the engine has none for them.)
 */
export function repeatedRecordFlags(records: ReadonlyArray<{ url: string; title: string; snippet: string }>): boolean[] {
  const seen = new Map<string, { title: string; snippet: string; at: number }>();
  return records.map((r, i) => {
    const earlier = seen.get(r.url);
    if (earlier) return earlier.title !== r.title || (earlier.snippet !== r.snippet && earlier.at === i - 1);
    seen.set(r.url, { title: r.title, snippet: r.snippet, at: i });
    return false;
  });
}

/** A title read by at least this many records of a list is a control's label, not a title. */
const CONTROL_REPEATS = 3;

/**
 * Records whose "title" is a control's label: the same link text in several records of the list ("Read
 * more »", "Cached", "Translate this page") where the record's real title is not a link. Results for an exact
 * name can share a title, so a text saying one of the query's words is never a control, nor a title in a heading.
 */
export function controlTitleFlags(records: ReadonlyArray<{ title: string; headed?: boolean }>, queryTerms: readonly string[]): boolean[] {
  const counts = new Map<string, number>();
  const keys = records.map((r) => r.title.toLowerCase());
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  // A headed title is the record's name, however common (a shop's grid of one product line); controls are not headed.
  return keys.map((k, i) => counts.get(k)! >= CONTROL_REPEATS && !records[i]!.headed && !queryTerms.some((t) => k.includes(t)));
}
