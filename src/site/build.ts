/**
 * From raw pages (bytes + URL) to a `Site`: decode, extract features, decide each page's language,
 * tokenise its text, resolve its hyperlinks to other pages of the site. The page HTML is dropped as soon
 * as its features are taken, so a site of thousands of pages fits in memory.
 */
import { decodeHtml } from "../html/charset.js";
import { isPageSkipped, unprocessableReason } from "../html/limits.js";
import { contentTokens, EN_ZH, type LanguagePair } from "../text/index.js";
import { type PageLanguageOptions, pageLanguage } from "./language.js";
import { pageFeatures } from "./page-features.js";
import type { DroppedPage, Site, SitePage } from "./types.js";

export interface RawPage {
  /** Name in outputs (relative path or URL). */
  key: string;
  /** Absolute URL the page's links resolve against (a virtual one for a mirror). */
  url: string;
  /** The URL the URL keys read (the relative path for a mirror, the URL for a crawl). */
  keyUrl: string;
  bytes: Uint8Array;
  contentType?: string | null;
  /** Other URLs that reach this page (redirected requests, `dir/` for `dir/index.html`). */
  aliases?: string[];
}

export interface BuildSiteOptions {
  pair?: LanguagePair;
  /** Pages with less visible text than this (UTF-8 bytes) are dropped (liu2014: 100). */
  minContentBytes?: number;
  language?: PageLanguageOptions;
  /** Absolute links to these hosts count as links within the site (a mirror of, or a local copy of, that host). */
  hostAliases?: readonly string[];
  /** Called after each page. */
  onPage?: () => void;
}

export const DEFAULT_MIN_CONTENT_BYTES = 100;

export function buildSite(
  source: Site["source"],
  root: string,
  raws: Iterable<RawPage>,
  options: BuildSiteOptions = {},
): Site {
  const pair = options.pair ?? EN_ZH;
  const minBytes = options.minContentBytes ?? DEFAULT_MIN_CONTENT_BYTES;
  const tagIds = new Map<string, number>();
  const tagNames: string[] = [];
  const vocabIds = new Map<string, number>();
  const vocabulary: string[] = [];
  const pages: SitePage[] = [];
  const rawLinks: string[][] = [];
  const dropped: DroppedPage[] = [];
  const byUrl = new Map<string, number>();
  const aliasHosts = new Set((options.hostAliases ?? []).map((h) => h.toLowerCase()));
  let siteOrigin: string | null = null;

  for (const raw of raws) {
    options.onPage?.();
    let html: string;
    try {
      html = decodeHtml(raw.bytes, { contentType: raw.contentType ?? null }).text;
    } catch (err) {
      dropped.push({ key: raw.key, reason: `cannot decode (${(err as Error).message})` });
      continue;
    }
    let f: ReturnType<typeof pageFeatures>;
    try {
      f = pageFeatures(html, raw.url);
    } catch (err) {
      if (!isPageSkipped(err)) throw err;
      dropped.push({ key: raw.key, reason: `cannot be processed: ${unprocessableReason(err)}` });
      continue;
    }
    const contentBytes = Buffer.byteLength(f.text, "utf8");
    if (contentBytes < minBytes) {
      dropped.push({ key: raw.key, reason: `${contentBytes} bytes of text (< ${minBytes})` });
      continue;
    }
    const lang = pageLanguage(f.proseText || f.text, pair, options.language);
    if (lang.lang === null) {
      dropped.push({ key: raw.key, reason: `no letters of ${pair.a} or ${pair.b}` });
      continue;
    }
    const tags = new Uint16Array(f.tags.length);
    for (let i = 0; i < f.tags.length; i++) {
      const t = f.tags[i]!;
      let id = tagIds.get(t);
      if (id === undefined) {
        id = tagNames.length;
        tagNames.push(t);
        tagIds.set(t, id);
      }
      tags[i] = Math.min(id, 0xffff);
    }
    const counts = new Map<number, number>();
    for (const tok of contentTokens(f.text, lang.lang)) {
      let id = vocabIds.get(tok);
      if (id === undefined) {
        id = vocabulary.length;
        vocabulary.push(tok);
        vocabIds.set(tok, id);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const ids = Int32Array.from(counts.keys()).sort();
    const termCounts = Int32Array.from(ids, (id) => counts.get(id)!);
    const index = pages.length;
    siteOrigin ??= originOf(raw.url);
    for (const u of [raw.url, ...(raw.aliases ?? [])]) {
      const n = normaliseUrl(u);
      if (!byUrl.has(n)) byUrl.set(n, index);
    }
    pages.push({
      key: raw.key,
      url: raw.keyUrl,
      title: f.title,
      lang: lang.lang,
      shares: lang.shares,
      contentBytes,
      tags,
      termIds: ids,
      termCounts,
      links: [],
    });
    rawLinks.push(f.links);
  }

  // Links to pages of the site (aliased hosts rewritten to the site's origin), deduplicated, self excluded.
  for (let i = 0; i < pages.length; i++) {
    const out = new Set<number>();
    for (const link of rawLinks[i]!) {
      const n = normaliseUrl(rewriteAliased(link, aliasHosts, siteOrigin));
      // `/about` reaches `/about/` (servers redirect it; mirrors store it as about/index.html).
      const target = byUrl.get(n) ?? (n.endsWith("/") || n.includes("?") ? undefined : byUrl.get(`${n}/`));
      if (target !== undefined && target !== i) out.add(target);
    }
    pages[i]!.links = [...out].sort((x, y) => x - y);
  }
  return { source, root, pair, pages, tagNames, vocabulary, dropped };
}

/** A URL in the form links are matched by: no fragment, and `dir/index.html` read as `dir/`. */
export function normaliseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  u.hash = "";
  u.pathname = u.pathname.replace(/\/(index|default)\.(html?|shtml|php|aspx?|jsp)$/i, "/");
  return u.href;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function rewriteAliased(link: string, aliasHosts: ReadonlySet<string>, origin: string | null): string {
  if (aliasHosts.size === 0 || origin === null) return link;
  try {
    const u = new URL(link);
    if (!aliasHosts.has(u.host.toLowerCase()) && !aliasHosts.has(u.hostname.toLowerCase())) return link;
    return origin + u.pathname + u.search;
  } catch {
    return link;
  }
}
