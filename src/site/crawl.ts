/**
 * `bitext site crawl`: a polite spider for one bilingual site. Breadth-first from the start URLs, same
 * host only, HTML only, bounded in depth and pages, `concurrency` requests in flight (p-limit) while the
 * shared fetcher keeps robots.txt and the per-host delay. Besides hyperlinks it follows hreflang
 * alternates, meta refreshes and sitemaps: the other language of a site, and pages no menu lists, are
 * often reachable only through them.
 * Pages with under 100 bytes of text are not kept (liu2014), but their links are followed — unless the
 * page is barren (see `isBarren`): a calendar-like trap, an endless `next` chain of near-empty pages,
 * is left after a few steps instead of after `maxPages`.
 *
 * The manifest is written atomically from the start and as the crawl goes, so a crawl that dies is loadable;
 * crawling again into a folder holding an unfinished crawl resumes it. Pages past the page caps
 * (`src/html/limits.ts`) are skipped with their reason.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import pLimit from "p-limit";
import { decodeHtml } from "../html/charset.js";
import { unprocessableReason } from "../html/limits.js";
import { writeFileAtomic, writeJsonAtomic } from "../io/atomic-write.js";
import { createFetcher, type Fetcher, FetchError, type FetcherOptions, isHtmlContentType } from "../net/index.js";
import { UserError } from "../errors.js";
import { hashString } from "../random.js";
import { DEFAULT_MIN_CONTENT_BYTES, normaliseUrl } from "./build.js";
import { CRAWL_FORMAT, CRAWL_MANIFEST, type CrawledPage, type CrawlManifest, readCrawlManifest } from "./crawl-store.js";
import { pageFeatures } from "./page-features.js";

export interface CrawlOptions {
  /** Folder to write the crawl to (created; must be empty or hold an earlier crawl to replace with `force`). */
  out: string;
  maxPages: number;
  maxDepth: number;
  concurrency: number;
  minContentBytes: number;
  /** Hosts whose links count as this site's (a copy of the site served elsewhere); rewritten to the start origin. */
  hostAliases: string[];
  /** Replace an earlier crawl in `out`. */
  force: boolean;
  /** Read the site's sitemaps (robots.txt `Sitemap:` lines, `<link rel="sitemap">`) for pages no link reaches. */
  sitemaps: boolean;
  /** Fetcher settings (delay, robots, limits) when no `fetcher` is given. */
  fetch: Partial<FetcherOptions>;
  fetcher?: Fetcher;
  signal?: AbortSignal;
  onProgress?: (progress: { fetched: number; kept: number; queued: number; skipped: number }) => void;
}

export const DEFAULT_CRAWL_OPTIONS = Object.freeze({
  maxPages: 5000,
  maxDepth: 20,
  concurrency: 4,
  minContentBytes: DEFAULT_MIN_CONTENT_BYTES,
});

export interface CrawlSummary {
  manifest: string;
  pages: number;
  skipped: number;
  interrupted: boolean;
  /** Why the crawl ended, in words (frontier exhausted, page limit, interrupted; with the barren pages left). */
  stopReason: string;
  /** Pages whose links were not followed because they, and the pages before them, added nothing new. */
  barren: number;
  /** Pages already in the folder from an unfinished crawl that this one resumed. */
  resumed: number;
  ms: number;
}

/** Exit status when the start page cannot be fetched at all (sysexits' EX_UNAVAILABLE). */
export const UNREACHABLE_EXIT = 69;

/** After this many barren pages in a row along a chain of links, their links are no longer followed. */
const MAX_BARREN_CHAIN = 3;

/** Bigrams of a page's text remembered to judge what its linked pages add. */
const MAX_BIGRAMS = 4000;

/** What a page passes on to the pages it links to, to judge whether they add anything. */
interface Lineage {
  bigrams: Set<number>;
  /** Barren pages in a row ending with this one (0: it added something). */
  barrenChain: number;
}

/** How often the manifest of a running crawl is saved, so an interrupted crawl keeps its pages. */
const SAVE_EVERY_MS = 15_000;

/** Sitemap files read at most (a sitemap index can list many). */
const MAX_SITEMAPS = 100;

/** Extensions that are never HTML pages: not even requested. */
const NOT_HTML = /\.(jpe?g|png|gif|webp|svg|ico|bmp|tiff?|css|js|mjs|json|xml|rss|atom|pdf|docx?|xlsx?|pptx?|zip|gz|tgz|rar|7z|tar|mp[34]|m4a|wav|avi|mov|wmv|flv|swf|exe|dmg|iso|apk|woff2?|ttf|eot|txt|csv)$/i;

export async function crawlSite(starts: readonly string[], options: Partial<CrawlOptions> & { out: string }): Promise<CrawlSummary> {
  const opts = { ...DEFAULT_CRAWL_OPTIONS, hostAliases: [], force: false, sitemaps: true, fetch: {}, ...options };
  if (starts.length === 0) throw new UserError("site crawl: give at least one start URL");
  const startUrls = starts.map((s) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      throw new UserError(`${s}: not an absolute URL (e.g. https://www.example.gov.hk/)`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new UserError(`${s}: only http and https sites can be crawled`);
    u.hash = "";
    return u;
  });
  const origin = startUrls[0]!.origin;
  const hosts = new Set(startUrls.map((u) => u.host));
  const aliases = new Set(opts.hostAliases.map((h) => h.toLowerCase()));
  const earlier = prepareFolder(opts.out, opts.force, startUrls.map((u) => u.href));

  const fetcher = opts.fetcher ?? createFetcher(opts.fetch);
  const startedAt = earlier?.startedAt ?? new Date().toISOString();
  const pages: CrawledPage[] = [];
  const skipped: CrawlManifest["skipped"] = [];
  const stored = new Map<string, CrawledPage>(); // normalised final URL → page
  const seen = new Set<string>();
  const queue: QueueItem[] = [];
  const templates = new Set<number>();
  let barren = 0;
  let fetched = 0;
  let lastSave = performance.now();
  let savedPages = 0;
  const t0 = performance.now();

  const inScope = (raw: string): string | null => {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return null;
    }
    if (aliases.has(u.host.toLowerCase()) || aliases.has(u.hostname.toLowerCase())) u = new URL(u.pathname + u.search, origin);
    if ((u.protocol !== "http:" && u.protocol !== "https:") || !hosts.has(u.host)) return null;
    u.hash = "";
    return u.href;
  };
  const enqueue = (raw: string, depth: number, from: Lineage | null = null) => {
    const url = inScope(raw);
    if (!url || depth > opts.maxDepth) return;
    const key = normaliseUrl(url);
    if (seen.has(key)) return;
    seen.add(key);
    if (NOT_HTML.test(new URL(url).pathname)) return;
    queue.push({ url, depth, from });
  };
  const save = (finished: boolean) => {
    const manifest: CrawlManifest = {
      format: CRAWL_FORMAT,
      start: startUrls.map((u) => u.href),
      startedAt,
      finishedAt: finished ? new Date().toISOString() : null,
      options: {
        maxPages: opts.maxPages,
        maxDepth: opts.maxDepth,
        concurrency: opts.concurrency,
        minContentBytes: opts.minContentBytes,
        hostAliases: opts.hostAliases,
        sitemaps: opts.sitemaps,
        delayMs: fetcher.options.delayMs,
        robots: fetcher.options.robots,
        userAgent: fetcher.options.userAgent,
      },
      pages,
      skipped,
    };
    writeJsonAtomic(join(opts.out, CRAWL_MANIFEST), manifest);
  };

  const visit = async ({ url, depth, from }: QueueItem): Promise<void> => {
    let page: Awaited<ReturnType<Fetcher["fetch"]>>;
    try {
      page = await fetcher.fetch(url, { accept: isHtmlContentType, ...(opts.signal ? { signal: opts.signal } : {}) });
    } catch (err) {
      if (err instanceof FetchError) {
        if (err.kind !== "aborted") skipped.push({ url, reason: `${err.kind}: ${err.reason}${err.url === url ? "" : ` (at ${err.url})`}` });
        return;
      }
      throw err;
    } finally {
      fetched++;
    }
    const finalUrl = inScope(page.finalUrl);
    if (!finalUrl) {
      skipped.push({ url, reason: `redirected off the site to ${page.finalUrl}` });
      return;
    }
    const key = normaliseUrl(finalUrl);
    const existing = stored.get(key);
    if (existing) {
      if (existing.url !== url && !existing.aliases.includes(url)) existing.aliases.push(url);
      return;
    }
    seen.add(key);
    const html = page.decoded?.text ?? decodeHtml(page.bytes, { contentType: page.contentType }).text;
    let features: ReturnType<typeof pageFeatures>;
    try {
      features = pageFeatures(html, finalUrl); // past the page caps it throws PageSkipped
    } catch (err) {
      skipped.push({ url: finalUrl, reason: `cannot be processed: ${unprocessableReason(err)}` });
      return;
    }
    const lineage = judge(features, from, templates, opts.minContentBytes);
    if (lineage.barrenChain >= MAX_BARREN_CHAIN) {
      barren++;
      skipped.push({ url: finalUrl, reason: `links not followed: ${lineage.barrenChain} pages in a row added no new text or template` });
    } else {
      for (const link of features.links) enqueue(link, depth + 1, lineage);
      for (const link of features.discover) enqueue(link, depth + 1, lineage);
    }
    if (opts.sitemaps) for (const sitemap of features.sitemaps) await readSitemap(sitemap);
    const contentBytes = Buffer.byteLength(features.text, "utf8");
    if (contentBytes < opts.minContentBytes) {
      skipped.push({ url: finalUrl, reason: `${contentBytes} bytes of text (< ${opts.minContentBytes})` });
      return;
    }
    if (pages.length >= opts.maxPages) return;
    const file = `pages/${String(pages.length + 1).padStart(6, "0")}.html`;
    writeFileAtomic(join(opts.out, file), page.bytes);
    const entry: CrawledPage = {
      url: finalUrl,
      aliases: finalUrl === url ? [] : [url],
      file,
      contentType: page.contentType,
      depth,
      bytes: page.bytes.length,
      links: features.links,
    };
    stored.set(key, entry);
    pages.push(entry);
    // The manifest grows with the crawl: rewrite it every SAVE_EVERY_MS or when the pages have doubled since,
    // not every few pages (that is quadratic); doubling keeps the first pages safe at linear total cost.
    if (performance.now() - lastSave >= SAVE_EVERY_MS || pages.length >= 2 * savedPages) {
      lastSave = performance.now();
      savedPages = pages.length;
      save(false);
    }
  };

  // Sitemaps list pages no link reaches; their URLs count as one step from the start.
  const sitemapsSeen = new Set<string>();
  const readSitemap = async (raw: string): Promise<void> => {
    const url = inScope(raw);
    if (!url || sitemapsSeen.has(url) || sitemapsSeen.size >= MAX_SITEMAPS || /\.gz$/i.test(url)) return;
    sitemapsSeen.add(url);
    let text: string;
    try {
      const res = await fetcher.fetch(url, opts.signal ? { signal: opts.signal } : {});
      text = res.decoded?.text ?? "";
    } catch (err) {
      if (err instanceof FetchError) {
        if (err.kind !== "aborted") skipped.push({ url, reason: `sitemap ${err.kind}: ${err.reason}` });
        return;
      }
      throw err;
    }
    const isIndex = /<sitemapindex[\s>]/i.test(text);
    for (const m of text.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)) {
      const loc = m[1]!.replace(/&amp;/g, "&");
      if (isIndex) await readSitemap(loc);
      else enqueue(loc, 1);
    }
  };

  // Resuming: the pages kept so far stay; the frontier is their links not yet visited.
  for (const p of earlier?.pages ?? []) {
    const key = normaliseUrl(p.url);
    stored.set(key, p);
    pages.push(p);
    seen.add(key);
    for (const a of p.aliases) seen.add(normaliseUrl(a));
  }
  for (const u of startUrls) enqueue(u.href, 0);
  for (const p of earlier?.pages ?? []) for (const link of p.links) enqueue(link, p.depth + 1);
  savedPages = pages.length;
  save(false); // loadable from the first moment: a crawl that dies keeps what it has
  if (opts.sitemaps) for (const sm of await fetcher.sitemaps(startUrls[0]!.href)) await readSitemap(sm);
  const limit = pLimit(Math.max(1, opts.concurrency));
  const running = new Set<Promise<void>>();
  let interrupted = false;
  while (queue.length > 0 || running.size > 0) {
    if (opts.signal?.aborted) {
      interrupted = true;
      limit.clearQueue();
      break;
    }
    // Pages still possible: kept ones plus those in flight stay within maxPages.
    while (queue.length > 0 && running.size < opts.concurrency && pages.length + running.size < opts.maxPages) {
      const item = queue.shift()!;
      const task = limit(() => visit(item)).finally(() => {
        running.delete(task);
        opts.onProgress?.({ fetched, kept: pages.length, queued: queue.length, skipped: skipped.length });
      });
      running.add(task);
    }
    if (running.size === 0) break; // maxPages reached with nothing in flight
    await Promise.race(running);
  }
  await Promise.allSettled(running);
  save(!interrupted);
  const resumed = earlier?.pages.length ?? 0;
  if (pages.length === 0 && !interrupted) {
    const start = startUrls[0]!.href;
    const why = skipped.find((s) => s.url === start)?.reason;
    if (why && fetched <= startUrls.length + 1) {
      throw new UserError(`${start}: cannot crawl: the start page is unreachable (${why})`, { exitCode: UNREACHABLE_EXIT });
    }
  }
  const stopReason = interrupted
    ? "interrupted"
    : pages.length >= opts.maxPages
      ? `page limit reached (--max-pages ${opts.maxPages})`
      : barren > 0
        ? `no pages left to visit; ${barren} barren page(s) (${MAX_BARREN_CHAIN} in a row adding no new text or template) were not followed`
        : "no pages left to visit";
  return {
    manifest: join(opts.out, CRAWL_MANIFEST),
    pages: pages.length,
    skipped: skipped.length,
    interrupted,
    stopReason,
    barren,
    resumed,
    ms: Math.round(performance.now() - t0),
  };
}

interface QueueItem {
  url: string;
  depth: number;
  /** The page that linked here (null for start, sitemap and resumed links). */
  from: Lineage | null;
}

/**
 * What a page adds to the one that linked to it. A page is barren when its template (its tag sequence)
 * was seen before on the site and its text adds under `minBytes` of word (or CJK character) bigrams that
 * the linking page lacks — the pages of a calendar, an endless `next` chain, differ only in a date.
 * Its barren chain counts such pages in a row; content pages reset it.
 */
function judge(features: { tags: string[]; text: string }, from: Lineage | null, templates: Set<number>, minBytes: number): Lineage {
  const template = hashString(features.tags.join(" "));
  const knownTemplate = templates.has(template);
  templates.add(template);
  const bigrams = new Set<number>();
  let added = 0;
  const tokens = features.text.match(/\p{sc=Han}|[\p{L}\p{N}]+/gu) ?? [];
  for (let i = 0; i + 1 < tokens.length && bigrams.size < MAX_BIGRAMS; i++) {
    const h = hashString(`${tokens[i]} ${tokens[i + 1]}`);
    if (bigrams.has(h)) continue;
    bigrams.add(h);
    if (!from?.bigrams.has(h)) added += Buffer.byteLength(tokens[i]!, "utf8") + 1;
  }
  const isBarren = from !== null && knownTemplate && added < minBytes;
  return { bigrams, barrenChain: isBarren ? from.barrenChain + 1 : 0 };
}

/**
 * The output folder must be new, empty, an unfinished crawl of the same start (returned, to resume), or
 * (with `force`) an earlier crawl, whose pages are then removed. A folder holding only `pages/` is a
 * crawl that died before its first manifest: it is started again.
 */
function prepareFolder(out: string, force: boolean, start: readonly string[]): CrawlManifest | null {
  if (existsSync(out)) {
    const entries = readdirSync(out).filter((e) => !e.startsWith(".")); // atomic writes' leftovers
    if (entries.length > 0) {
      const isCrawl = entries.includes(CRAWL_MANIFEST) || (entries.length === 1 && entries[0] === "pages");
      if (!isCrawl) throw new UserError(`${out}: folder is not empty and holds no crawl; choose another --out`);
      const earlier = entries.includes(CRAWL_MANIFEST) ? readCrawlManifest(out) : null;
      const sameStart = earlier !== null && earlier.start.join(" ") === start.join(" ");
      if (!force && earlier?.finishedAt === null && sameStart) return earlier;
      if (!force && earlier !== null) {
        throw new UserError(
          earlier.finishedAt === null
            ? `${out}: holds an unfinished crawl of ${earlier.start.join(" ")}; crawl that again to resume it, or add --force to replace it`
            : `${out}: holds an earlier crawl; add --force to replace it`,
        );
      }
      rmSync(join(out, "pages"), { recursive: true, force: true });
      rmSync(join(out, CRAWL_MANIFEST), { force: true });
    }
  }
  mkdirSync(join(out, "pages"), { recursive: true });
  return null;
}
