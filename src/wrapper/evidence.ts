import type { TagPathSequence } from "../html/index.js";
import { pageQuery, queryTerms } from "./query-rewrite.js";
import { BLOCK_TAGS, HEADING_TAGS, normaliseSpace, rangeText, type TextContext } from "./record-text.js";
import type { RecordRegion } from "./records.js";
import type { ResultRecord } from "./types.js";

/**
 * Evidence that a candidate record list is the page's result list, beyond the seed's "records with a
 * title and a snippet" (feng2010 §4.3 keeps every essential cluster). Each record of a candidate list is
 * scored by what organic results share on any engine, and the list's score is the sum:
 * - a snippet of plausible length (the seed's test) and a title of words, not a host name (both required);
 * - a heading around or inside the title link (results are headed; menus, sitelinks and filters are not);
 * - the query's words in the record, or highlighted words (`<em>`, `<b>`, `<strong>`, `<mark>`): results answer
 *   the query and engines mark its words, while navigation, "people also ask" and carousels rarely do;
 * - an absolute title link (results lead to other sites; in-page controls and new searches are relative).
 * and the list's sum is weighed by its share of records leading to distinct sites (`siteDiversity`): results
 * come from many sites, while a video carousel, a result's sitelinks or a site's own menu lead to one.
 * The weights are fixed, not tuned per engine (the same on every page).
 */

/** A bare host name or URL. */
export const URL_LIKE = /^(https?:\/\/)?(www\.)?([\p{L}\p{N}-]+\.)+\p{L}{2,}(\/\S*)?$/u;
/** A snippet's plausible length (the seed's test), in characters. */
const MIN_SNIPPET = 20;
const MAX_SNIPPET = 1500;
/** A record's "snippet" is a list of links when less than this share of it is text outside them. */
const LINK_LIST_PLAIN = 0.1;
const HIGHLIGHT_TAGS = new Set(["em", "b", "strong", "mark"]);

export interface PageEvidence {
  /** The submitted query as the page states it, if it does. */
  query: string | null;
  terms: string[];
  /** The engine's own site (`engineSite`). */
  site: string | null;
}

/** `site`: the page's `pageSite` when already known (it depends on the page's URL and links, not on its tag paths). */
export function pageEvidence(seq: TagPathSequence, pageUrl?: string, site = pageSite(seq, pageUrl)): PageEvidence {
  const query = pageQuery(seq);
  return { query, terms: query ? queryTerms(query) : [], site };
}

/** The site the page belongs to: its URL's, else the one its links mostly lead to. */
export function pageSite(seq: TagPathSequence, pageUrl?: string): string | null {
  return engineSite(pageUrl) ?? dominantSite(seq);
}

/**
 * The page's own site when its URL is not given: the domain that more than half of the page's absolute links lead
 * to (a shop's pages link to its items and sections; a web engine's results lead to many sites). Null when none does.
 */
export function dominantSite(seq: TagPathSequence): string | null {
  const counts = new Map<string, number>();
  let total = 0;
  for (const href of seq.hrefs) {
    if (!href || !/^(https?:)?\/\//i.test(href)) continue;
    const host = hostSite(href.startsWith("//") ? `http:${href}` : href);
    if (host === null) continue;
    const domain = siteDomain(host);
    counts.set(domain, (counts.get(domain) ?? 0) + 1);
    total++;
  }
  for (const [domain, n] of counts) if (n * 2 > total) return domain;
  return null;
}

export interface RecordEvidence {
  snippet: boolean;
  /** No snippet, but a descriptive title and some text beside it: a card of a grid (a product with its price). */
  card: boolean;
  /** The title is words, not a bare host name or URL (the site line of a card, a displayed URL). */
  worded: boolean;
  heading: boolean;
  query: boolean;
  absolute: boolean;
}

export function recordEvidence(
  ctx: TextContext,
  page: PageEvidence,
  region: RecordRegion,
  link: number,
  record: Omit<ResultRecord, "rank">,
): RecordEvidence {
  const { seq } = ctx.index;
  const heading = titleHeaded(ctx, region.root, link);
  // A "snippet" made of the texts of links leading elsewhere than the title, with (nearly) no text of its own, is a
  // list of links (a category menu's sub-entries), not a snippet; a snippet linking to the title's own page is one
  // (a plain-HTML layout), and so is a card's line of a shop link and a price.
  const pageOf = (href: string | null | undefined) => (href ?? "").replace(/#.*$/, "");
  const titlePage = pageOf(seq.hrefs[link]);
  let linked = 0;
  let links = 0;
  for (let p = region.root; p < region.end; p++) {
    if (p === link || ctx.tags[seq.pathIds[p]!] !== "a") continue;
    if (p < link && seq.ends[p]! > link) continue; // a link holding the title link (a card wrapped in one link)
    if (pageOf(seq.hrefs[p]) === titlePage) continue;
    const end = seq.ends[p]!;
    let blocks = false;
    for (let q = p + 1; q < end && !blocks; q++) blocks = BLOCK_TAGS.has(ctx.tags[seq.pathIds[q]!]!);
    const text = normaliseSpace(rangeText(ctx, p, end)).length;
    p = end - 1;
    if (blocks) continue; // a link holding blocks (a sitelink: its title and description) is no menu entry
    linked += text + 1;
    links++;
  }
  const linkList = links >= 2 && record.snippet.length - linked < LINK_LIST_PLAIN * record.snippet.length;
  let highlight = false;
  for (let p = region.root; p < region.end && !highlight; p++) {
    if (HIGHLIGHT_TAGS.has(ctx.tags[seq.pathIds[p]!]!) && p + 1 < seq.ends[p]! && seq.texts[p + 1]) highlight = true;
  }
  const text = `${record.title} ${record.snippet}`.toLowerCase();
  const query = highlight || page.terms.some((t) => text.includes(t));
  const href = (seq.hrefs[link] ?? "").trim().toLowerCase();
  return {
    snippet: hasSnippet(record) && !linkList,
    card: isCard(record) && !linkList,
    worded: !URL_LIKE.test(record.title.trim()),
    heading,
    query,
    absolute: /^(https?:)?\/\//.test(href),
  };
}

/** Whether a title link sits in a heading (within its record) or holds one. */
export function titleHeaded(ctx: TextContext, recordRoot: number, link: number): boolean {
  const { seq, parents } = ctx.index;
  for (let p = parents[link]!; p >= recordRoot; p = parents[p]!) if (HEADING_TAGS.has(ctx.tags[seq.pathIds[p]!]!)) return true;
  for (let p = link + 1; p < seq.ends[link]!; p++) if (HEADING_TAGS.has(ctx.tags[seq.pathIds[p]!]!)) return true;
  return false;
}

export const EVIDENCE_WEIGHTS: Readonly<Record<keyof RecordEvidence, number>> = {
  snippet: 1,
  card: 0.5,
  worded: 0,
  heading: 0.5,
  query: 0.5,
  absolute: 0.25,
};

/** The seed's snippet: text beside the title of a plausible length. */
export function hasSnippet(record: Pick<ResultRecord, "snippet">): boolean {
  return record.snippet.length >= MIN_SNIPPET && record.snippet.length <= MAX_SNIPPET;
}

/**
 * A card of a site search's grid (a product, a profile, a repository): the title describes the item (as long as a
 * snippet) and some text of the record's own sits beside it (a price, a place, a rating), but less than a snippet.
 * Menus, filters and footers have short link texts; a title with nothing beside it is a bare link.
 */
export function isCard(record: Pick<ResultRecord, "title" | "snippet">): boolean {
  return record.snippet.length > 0 && record.snippet.length < MIN_SNIPPET && record.title.trim().length >= MIN_SNIPPET;
}

/** Whether a record can count as a result at all: a worded title with a snippet, or a card. */
export function isResultLike(e: RecordEvidence): boolean {
  return (e.snippet || e.card) && e.worded;
}

/** Whether a record read from a page looks like a result (the same test on its text alone). */
export function looksLikeResult(record: Pick<ResultRecord, "title" | "snippet">): boolean {
  return (hasSnippet(record) || isCard(record)) && !URL_LIKE.test(record.title.trim());
}

export function recordScore(e: RecordEvidence): number {
  let s = 0;
  for (const k of Object.keys(EVIDENCE_WEIGHTS) as Array<keyof RecordEvidence>) if (e[k]) s += EVIDENCE_WEIGHTS[k];
  return s;
}

/**
 * Share of a list's records that lead to a site no earlier record of it leads to. A record whose site cannot be
 * read, or is the engine's own or a subdomain of its domain (a redirect that does not carry its target, an on-site
 * link: a shop's item pages), counts as distinct:
 * nothing is known against it.
 */
export function siteDiversity(urls: readonly string[], engineSite: string | null): number {
  if (urls.length === 0) return 1;
  const seen = new Set<string>();
  const own = engineSite === null ? null : siteDomain(engineSite);
  let distinct = 0;
  for (const url of urls) {
    const site = targetSite(url);
    if (site === null || siteDomain(site) === own || !seen.has(site)) distinct++;
    if (site !== null) seen.add(site);
  }
  return distinct / urls.length;
}

/**
 * A host's domain without its subdomains (`search.example.com` and `item.example.com` are one site's): the last
 * two labels, three when the second-to-last is a short second-level label under a country code (`example.co.uk`).
 */
export function siteDomain(host: string): string {
  // The labels found from the end by their dots (no array of all of them).
  const last = host.lastIndexOf(".");
  const second = last > 0 ? host.lastIndexOf(".", last - 1) : -1;
  if (second < 0) return host; // two labels or fewer
  const third = second > 0 ? host.lastIndexOf(".", second - 1) : -1;
  const n = host.length - last - 1 === 2 && last - second - 1 <= 3 ? 3 : 2;
  return n === 2 ? host.slice(second + 1) : third < 0 ? host : host.slice(third + 1);
}

/** The engine's own site: the page URL's, when known. */
export function engineSite(pageUrl?: string): string | null {
  return pageUrl ? targetSite(pageUrl.replace(/[?#].*$/, "")) : null;
}

function hostSite(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, "").toLowerCase() || null;
  } catch {
    return null;
  }
}

/** A parameter value too long to be a word or an id, with no spaces: an encrypted or encoded target. */
const OPAQUE_TOKEN = /^[\w%.\-+/=~]{40,}$/;
const EMBEDDED_URL = /https?(:|%3a)(\/|%2f){2}/i;

/**
 * The site a record leads to: the host of the URL a redirect link carries (in a parameter, escaped or
 * base64-encoded, or in its path), else the link's own host, without `www.`; null when it cannot be read (a
 * redirect carrying an opaque token, not a URL).
 */
export function targetSite(url: string): string | null {
  const embedded = embeddedUrl(url);
  if (embedded) return hostSite(embedded);
  // A redirect whose target is an opaque token (an encrypted link): its site cannot be read.
  const q = url.indexOf("?");
  if (
    q >= 0 &&
    url
      .slice(q + 1)
      .split(/[&;]/)
      .some((p) => OPAQUE_TOKEN.test(p.slice(p.indexOf("=") + 1)))
  )
    return null;
  return hostSite(url);
}

/** The URL a redirect link carries (in a parameter, escaped or base64-encoded, or in its path), or null. */
export function embeddedUrl(url: string): string | null {
  // Past the link's own scheme and slashes: a relative redirect (`/url?q=https://…`) has none to skip.
  const from = /^[a-z][a-z\d+.-]*:\/\//i.test(url) ? url.indexOf("//") + 2 : 0;
  const m = EMBEDDED_URL.exec(url.slice(from));
  if (m) return safeDecode(url.slice(from + m.index).split(/[&;#]/, 1)[0]!);
  for (const value of url.slice(url.indexOf("?") + 1).split(/[&;]/)) {
    const v = value.slice(value.indexOf("=") + 1);
    // A base64 URL, possibly behind a short version prefix: "aHR0c" is how "http" starts in base64.
    const at = v.indexOf("aHR0c");
    if (at < 0 || at > 3) continue;
    const text = Buffer.from(v.slice(at).replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1");
    if (/^https?:\/\/[\w.-]+/.test(text)) return text;
  }
  return null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
