/**
 * From raw pages (bytes + URL) to a `Site`: decode, extract features, decide each page's language,
 * tokenise its text, resolve its hyperlinks to other pages of the site. The page HTML is dropped as soon
 * as its features are taken, so a site of thousands of pages fits in memory.
 */
import { decodeHtml } from "../html/index.js";
import { isPageSkipped, unprocessableReason } from "../html/index.js";
import { contentTokens, EN_ZH, type Lang, type LanguagePair } from "../text/index.js";
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

export function buildSite(source: Site["source"], root: string, raws: Iterable<RawPage>, options: BuildSiteOptions = {}): Site {
  const pair = options.pair ?? EN_ZH;
  const minBytes = options.minContentBytes ?? DEFAULT_MIN_CONTENT_BYTES;
  const tags = new Interner();
  const vocabulary = new Interner();
  const pages: SitePage[] = [];
  const rawLinks: string[][] = [];
  const dropped: DroppedPage[] = [];
  const byUrl = new Map<string, number>();
  let siteOrigin: string | null = null;

  for (const raw of raws) {
    options.onPage?.();
    const read = readPage(raw, pair, minBytes, options.language);
    if (typeof read === "string") {
      dropped.push({ key: raw.key, reason: read });
      continue;
    }
    const { features: f, contentBytes, lang } = read;
    const { termIds, termCounts } = termsOf(f.text, lang.lang, vocabulary);
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
      tags: Uint16Array.from(f.tags, (t) => Math.min(tags.id(t), 0xffff)),
      termIds,
      termCounts,
      links: [],
    });
    rawLinks.push(f.links);
  }
  const aliasHosts = new Set((options.hostAliases ?? []).map((h) => h.toLowerCase()));
  resolveLinks(pages, rawLinks, byUrl, (link) => rewriteAliased(link, aliasHosts, siteOrigin));
  return { source, root, pair, pages, tagNames: tags.names, vocabulary: vocabulary.names, dropped };
}

/** Dense ids for strings, in order of first appearance. */
class Interner {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }
}

interface ReadPage {
  features: ReturnType<typeof pageFeatures>;
  contentBytes: number;
  lang: ReturnType<typeof pageLanguage> & { lang: Lang };
}

/** A page's features, text size and language, or the reason it is dropped. */
function readPage(raw: RawPage, pair: LanguagePair, minBytes: number, language: PageLanguageOptions | undefined): ReadPage | string {
  let html: string;
  try {
    html = decodeHtml(raw.bytes, { contentType: raw.contentType ?? null }).text;
  } catch (err) {
    return `cannot decode (${(err as Error).message})`;
  }
  let features: ReturnType<typeof pageFeatures>;
  try {
    features = pageFeatures(html, raw.url);
  } catch (err) {
    if (!isPageSkipped(err)) throw err;
    return `cannot be processed: ${unprocessableReason(err)}`;
  }
  const contentBytes = Buffer.byteLength(features.text, "utf8");
  if (contentBytes < minBytes) return `${contentBytes} bytes of text (< ${minBytes})`;
  const lang = pageLanguage(features.proseText || features.text, pair, language);
  if (lang.lang === null) return `no letters of ${pair.a} or ${pair.b}`;
  return { features, contentBytes, lang: lang as ReadPage["lang"] };
}

/** A page's content words: ids (ascending) and counts. */
function termsOf(text: string, lang: Lang, vocabulary: Interner): { termIds: Int32Array; termCounts: Int32Array } {
  const counts = new Map<number, number>();
  for (const tok of contentTokens(text, lang)) {
    const id = vocabulary.id(tok);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const termIds = Int32Array.from(counts.keys()).sort();
  return { termIds, termCounts: Int32Array.from(termIds, (id) => counts.get(id)!) };
}

/** Links to pages of the site (aliased hosts rewritten to the site's origin), deduplicated, self excluded. */
function resolveLinks(
  pages: SitePage[],
  rawLinks: readonly string[][],
  byUrl: ReadonlyMap<string, number>,
  rewrite: (link: string) => string,
): void {
  for (let i = 0; i < pages.length; i++) {
    const out = new Set<number>();
    for (const link of rawLinks[i]!) {
      const n = normaliseUrl(rewrite(link));
      // `/about` reaches `/about/` (servers redirect it; mirrors store it as about/index.html).
      const target = byUrl.get(n) ?? (n.endsWith("/") || n.includes("?") ? undefined : byUrl.get(`${n}/`));
      if (target !== undefined && target !== i) out.add(target);
    }
    pages[i]!.links = [...out].sort((x, y) => x - y);
  }
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
