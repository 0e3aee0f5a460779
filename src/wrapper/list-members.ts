import type { TagPathIndex } from "../html/index.js";
import { lowerBound } from "../stats.js";
import { hasAdLabel } from "./ads.js";
import { embeddedUrl, targetSite } from "./evidence.js";
import { rangeText, type TextContext } from "./record-text.js";
import { countLinks, isNavigableHref, linkTitle, type RecordRegion, relativePath } from "./records.js";

/**
 * Which regions under a wrapper's root paths are members of the result list: the tests `readRecords` (apply.ts)
 * asks of each region besides its own title, ad label and notices. Each reader is built once per page.
 */

/** A region under a cluster's root path, with what it is read with. */
export type AnchoredRegion = RecordRegion & { titlePath: string | null; titleFromText: boolean; template: string[]; loose?: boolean };

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
export function learnedListReader(
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
    if (!(lists.has(parents[region.root]!) || nested(region, i))) return false;
    const links = countLinks(ctx, region);
    if (links > maxLinks + 1) return false;
    const ownText = plainText(ctx, region).length >= MIN_SNIPPET;
    // One link more than the learned records hold ("Translate this page" beside the title) is allowed a record
    // with a snippet of its own.
    if (links > maxLinks) return ownText && linkTargets(ctx, region).size <= typical() + 1;
    return linkTargets(ctx, region).size <= typical() || ownText;
  };
}

/** Two letters in a row: a title says words, not a duration, a count or a rating. */
const WORDS = /\p{L}{2}/u;

/** A snippet's least length (the seed's test, `recordEvidence`). */
const MIN_SNIPPET = 20;

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
    const href = seq.hrefs[p] ?? null;
    if (ctx.tags[seq.pathIds[p]!] === "a" && isNavigableHref(href)) pages.add(pageOf(href));
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
export function siteRowReader(
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
export function adHeaderReader(index: TagPathIndex, regions: readonly RecordRegion[]): (region: RecordRegion, lastKept: number) => boolean {
  const { seq, parents } = index;
  const inRegion = new Uint8Array(index.length);
  for (const r of regions) inRegion.fill(1, r.root, Math.min(r.end, index.length));
  const half = regions.length / 2;
  const regionRoots = regions.map((r) => r.root);
  const regionsIn = (from: number, to: number) => lowerBound(regionRoots, to) - lowerBound(regionRoots, from);
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
