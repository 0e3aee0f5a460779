import type { TagPathIndex } from "../html/tagpaths.js";
import type { ResultRecord } from "./types.js";
import { HEADING_TAGS, normaliseSpace, rangeText, type TextContext } from "./record-text.js";

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
  return regions;
}

/** Path of `pos` relative to the record root at `root` (`h3\a`), or "" for the root itself. */
export function relativePath(index: TagPathIndex, root: number, pos: number): string {
  const rootPath = index.seq.paths[index.seq.pathIds[root]!]!;
  const path = index.seq.paths[index.seq.pathIds[pos]!]!;
  return path.length === rootPath.length ? "" : path.slice(rootPath.length + 1);
}

function isNavigableHref(href: string | null): href is string {
  if (href === null) return false;
  const h = href.trim().toLowerCase();
  return h !== "" && !h.startsWith("#") && !h.startsWith("javascript:") && !h.startsWith("mailto:");
}

/**
 * Title text of a link: the text of the first heading inside it if it has one (Google's `<a><h3>`),
 * otherwise the link text without `<cite>` URL displays (Brave, Google's breadcrumbs).
 */
export function linkTitle(ctx: TextContext, link: number): { text: string; skip: number[] } {
  const { seq } = ctx.index;
  const end = seq.ends[link]!;
  for (let p = link + 1; p < end; p++) {
    if (HEADING_TAGS.has(ctx.tags[seq.pathIds[p]!]!)) {
      const text = rangeText(ctx, p, seq.ends[p]!);
      if (text) return { text, skip: [] };
    }
  }
  const cites: number[] = [];
  for (let p = link + 1; p < end; p++) if (ctx.tags[seq.pathIds[p]!] === "cite") cites.push(p);
  const text = rangeText(ctx, link, end, cites);
  return text || cites.length === 0 ? { text, skip: cites } : { text: rangeText(ctx, link, end), skip: [] };
}

/** Whether `pos` lies inside a heading element, or its subtree contains one, within the region. */
function headingRelated(ctx: TextContext, region: RecordRegion, pos: number): boolean {
  const { seq, parents } = ctx.index;
  for (let p = parents[pos]!; p >= region.root; p = parents[p]!) if (HEADING_TAGS.has(ctx.tags[seq.pathIds[p]!]!)) return true;
  for (let p = pos + 1; p < seq.ends[pos]!; p++) if (HEADING_TAGS.has(ctx.tags[seq.pathIds[p]!]!)) return true;
  return false;
}

/**
 * The record's main link. With a learned `titlePath`, the first navigable link with text at exactly
 * that relative path (a region without one is not a record of this kind: pagination, ads, answer boxes).
 * Without one (on the sample page, before the path is learned): the first navigable link in or around
 * a heading, else the first navigable link with text.
 */
export function findTitleLink(ctx: TextContext, region: RecordRegion, titlePath: string | null): number {
  const { seq } = ctx.index;
  let firstWithText = -1;
  let firstHeading = -1;
  // A result list can hold one template at two depths (`li\h2\a` and `li\div\h2\a`): a record without a
  // link at the learned path takes one at the same heading-led tail of it (`h2\a`).
  const tail = titlePath === null ? null : headingTail(titlePath);
  let tailMatch = -1;
  for (let p = region.root; p < region.end; p++) {
    if (ctx.tags[seq.pathIds[p]!] !== "a" || !isNavigableHref(seq.hrefs[p] ?? null)) continue;
    if (titlePath !== null) {
      const rel = relativePath(ctx.index, region.root, p);
      if (rel === titlePath && linkTitle(ctx, p).text) return p;
      if (tailMatch < 0 && tail !== null && (rel === tail || rel.endsWith(`\\${tail}`)) && linkTitle(ctx, p).text) tailMatch = p;
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

/** The part of a relative title path from its last heading on (`div\h2\a` → `h2\a`), or null without one. */
function headingTail(titlePath: string): string | null {
  const tags = titlePath.split("\\");
  for (let i = tags.length - 1; i >= 0; i--) if (HEADING_TAGS.has(tags[i]!)) return tags.slice(i).join("\\");
  return null;
}

/** Navigable links in a record region. */
export function countLinks(ctx: TextContext, region: RecordRegion): number {
  const { seq } = ctx.index;
  let n = 0;
  for (let p = region.root; p < region.end; p++) if (ctx.tags[seq.pathIds[p]!] === "a" && isNavigableHref(seq.hrefs[p] ?? null)) n++;
  return n;
}

/** Resolve a link against `<base href>` and the page URL; unresolvable links are returned as written. */
export function resolveUrl(href: string, pageUrl: string | undefined, baseHref: string | null): string {
  const raw = href.trim();
  try {
    const base = baseHref ? new URL(baseHref, pageUrl).href : pageUrl;
    return new URL(raw, base).href;
  } catch {
    return raw;
  }
}

/** Build the record of a region, or null when it has no main link with text. */
export function buildRecord(
  ctx: TextContext,
  region: RecordRegion,
  titlePath: string | null,
  pageUrl: string | undefined,
): Omit<ResultRecord, "rank"> | null {
  const { seq } = ctx.index;
  const link = findTitleLink(ctx, region, titlePath);
  if (link < 0) return null;
  const { text: title } = linkTitle(ctx, link);
  if (!title) return null;
  // The snippet is the record's other text, without displayed URLs (`<cite>`), as engines define snippets.
  const cites: number[] = [];
  for (let p = region.root; p < region.end; p++) if (ctx.tags[seq.pathIds[p]!] === "cite") cites.push(p);
  const before = rangeText(ctx, region.root, link, cites);
  const after = rangeText(ctx, seq.ends[link]!, region.end, cites);
  const snippet = normaliseSpace(`${before} ${after}`);
  return { title, url: resolveUrl(seq.hrefs[link]!, pageUrl, seq.baseHref), snippet };
}
