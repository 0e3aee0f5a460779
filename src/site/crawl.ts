/**
 * `bitext site crawl`: a polite spider for one bilingual site. Breadth-first from the start URLs, same
 * host only, HTML only, bounded in depth and pages, `concurrency` requests in flight (the shared dispatcher,
 * `src/net/scheduler.ts`, one lane) while the shared fetcher keeps robots.txt and the per-host delay.
 * Besides hyperlinks it follows hreflang alternates, meta refreshes and sitemaps: the other language of a
 * site, and pages no menu lists, are often reachable only through them.
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
import { decodeHtml, unprocessableReason } from "../html/index.js";
import { writeFileAtomic, writeJsonAtomic } from "../io/index.js";
import {
  createFetcher,
  type FetchedPage,
  type Fetcher,
  FetchError,
  type FetcherOptions,
  isHtmlContentType,
  type Lane,
  schedule,
} from "../net/index.js";
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
  /** It ended because it kept `maxPages` pages. */
  pageLimitReached: boolean;
  /** Pages whose links were not followed because they, and the pages before them, added nothing new. */
  barren: number;
  /** Pages already in the folder from an unfinished crawl that this one resumed. */
  resumed: number;
  ms: number;
}

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
const NOT_HTML =
  /\.(jpe?g|png|gif|webp|svg|ico|bmp|tiff?|css|js|mjs|json|xml|rss|atom|pdf|docx?|xlsx?|pptx?|zip|gz|tgz|rar|7z|tar|mp[34]|m4a|wav|avi|mov|wmv|flv|swf|exe|dmg|iso|apk|woff2?|ttf|eot|txt|csv)$/i;

export async function crawlSite(starts: readonly string[], options: Partial<CrawlOptions> & { out: string }): Promise<CrawlSummary> {
  const opts: CrawlOptions = { ...DEFAULT_CRAWL_OPTIONS, hostAliases: [], force: false, sitemaps: true, fetch: {}, ...options };
  const startUrls = parseStarts(starts);
  const earlier = prepareFolder(
    opts.out,
    opts.force,
    startUrls.map((u) => u.href),
  );
  const crawl = new Crawl(opts, startUrls, opts.fetcher ?? createFetcher(opts.fetch), earlier);
  const t0 = performance.now();
  crawl.resume(earlier);
  crawl.save(false); // loadable from the first moment: a crawl that dies keeps what it has
  if (opts.sitemaps) for (const sm of await crawl.fetcher.sitemaps(startUrls[0]!.href)) await crawl.readSitemap(sm);
  const { interrupted } = await crawl.run();
  crawl.save(!interrupted);
  if (!interrupted) crawl.assertStartReached();
  return {
    manifest: join(opts.out, CRAWL_MANIFEST),
    pages: crawl.pages.length,
    skipped: crawl.skipped.length,
    interrupted,
    stopReason: crawl.stopReason(interrupted),
    pageLimitReached: !interrupted && crawl.pageLimitReached(),
    barren: crawl.barren,
    resumed: earlier?.pages.length ?? 0,
    ms: Math.round(performance.now() - t0),
  };
}

/** The start URLs, checked: absolute http(s) URLs without fragments. */
function parseStarts(starts: readonly string[]): URL[] {
  if (starts.length === 0) throw new UserError("site crawl: give at least one start URL");
  return starts.map((s) => {
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
}

/** Which URLs belong to the site: the start hosts, and its aliases' URLs rewritten to the start origin. */
class Scope {
  private readonly origin: string;
  private readonly hosts: Set<string>;
  private readonly aliases: Set<string>;

  constructor(startUrls: readonly URL[], hostAliases: readonly string[]) {
    this.origin = startUrls[0]!.origin;
    this.hosts = new Set(startUrls.map((u) => u.host));
    this.aliases = new Set(hostAliases.map((h) => h.toLowerCase()));
  }

  /** The URL as this site's (fragment dropped), or null when it is not the site's. */
  url(raw: string): string | null {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return null;
    }
    if (this.aliases.has(u.host.toLowerCase()) || this.aliases.has(u.hostname.toLowerCase()))
      u = new URL(u.pathname + u.search, this.origin);
    if ((u.protocol !== "http:" && u.protocol !== "https:") || !this.hosts.has(u.host)) return null;
    u.hash = "";
    return u.href;
  }
}

/** One crawl's state: the frontier, the pages kept and skipped, the manifest; each page visited in `visit`. */
class Crawl {
  readonly pages: CrawledPage[] = [];
  readonly skipped: CrawlManifest["skipped"] = [];
  barren = 0;
  /** Pages requested (the start page unreachable is told from a crawl that found nothing to keep). */
  private fetched = 0;
  /** Normalised final URL → page kept. */
  private readonly stored = new Map<string, CrawledPage>();
  private readonly seen = new Set<string>();
  /** The frontier: one lane of the shared dispatcher. */
  private readonly lane: Lane<QueueItem>;
  private running = 0;
  private readonly templates = new Set<number>();
  private readonly sitemapsSeen = new Set<string>();
  private readonly scope: Scope;
  private readonly startedAt: string;
  private lastSave = performance.now();
  private savedPages = 0;

  constructor(
    private readonly opts: CrawlOptions,
    private readonly startUrls: readonly URL[],
    readonly fetcher: Fetcher,
    earlier: CrawlManifest | null,
  ) {
    this.scope = new Scope(startUrls, opts.hostAliases);
    this.startedAt = earlier?.startedAt ?? new Date().toISOString();
    // Pages still possible: kept ones plus those in flight stay within maxPages.
    this.lane = { queue: [], readyIn: () => (this.pages.length + this.running < opts.maxPages ? 0 : Number.POSITIVE_INFINITY) };
  }

  /** Resuming: the pages kept so far stay; the frontier is the start and their links not yet visited. */
  resume(earlier: CrawlManifest | null): void {
    for (const p of earlier?.pages ?? []) {
      const key = normaliseUrl(p.url);
      this.stored.set(key, p);
      this.pages.push(p);
      this.seen.add(key);
      for (const a of p.aliases) this.seen.add(normaliseUrl(a));
    }
    for (const u of this.startUrls) this.enqueue(u.href, 0);
    for (const p of earlier?.pages ?? []) for (const link of p.links) this.enqueue(link, p.depth + 1);
    this.savedPages = this.pages.length;
  }

  /** Visit the frontier, `concurrency` pages at a time, until it is empty, the page limit is met, or the signal aborts. */
  run(): Promise<{ interrupted: boolean }> {
    return schedule<QueueItem>({
      lanes: [this.lane],
      concurrency: Math.max(1, this.opts.concurrency),
      ...(this.opts.signal ? { signal: this.opts.signal } : {}),
      start: (_, item) => {
        this.running++;
        return this.visit(item).finally(() => {
          this.running--;
          this.opts.onProgress?.({
            fetched: this.fetched,
            kept: this.pages.length,
            queued: this.lane.queue.length,
            skipped: this.skipped.length,
          });
        });
      },
    });
  }

  private enqueue(raw: string, depth: number, from: Lineage | null = null): void {
    const url = this.scope.url(raw);
    if (!url || depth > this.opts.maxDepth) return;
    const key = normaliseUrl(url);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (NOT_HTML.test(new URL(url).pathname)) return;
    this.lane.queue.push({ url, depth, from, notBefore: 0 });
  }

  /** One page: fetch it, follow its links (unless it is barren), read its sitemaps, keep it if it has text enough. */
  private async visit({ url, depth, from }: QueueItem): Promise<void> {
    const page = await this.fetchPage(url);
    if (!page) return;
    const finalUrl = this.scope.url(page.finalUrl);
    if (!finalUrl) {
      this.skipped.push({ url, reason: `redirected off the site to ${page.finalUrl}` });
      return;
    }
    const key = normaliseUrl(finalUrl);
    if (this.isKnownAlias(key, url)) return;
    this.seen.add(key);
    const html = page.decoded?.text ?? decodeHtml(page.bytes, { contentType: page.contentType }).text;
    let features: ReturnType<typeof pageFeatures>;
    try {
      features = pageFeatures(html, finalUrl); // past the page caps it throws PageSkipped
    } catch (err) {
      this.skipped.push({ url: finalUrl, reason: `cannot be processed: ${unprocessableReason(err)}` });
      return;
    }
    this.follow(finalUrl, features, depth, from);
    if (this.opts.sitemaps) for (const sitemap of features.sitemaps) await this.readSitemap(sitemap);
    const contentBytes = Buffer.byteLength(features.text, "utf8");
    if (contentBytes < this.opts.minContentBytes) {
      this.skipped.push({ url: finalUrl, reason: `${contentBytes} bytes of text (< ${this.opts.minContentBytes})` });
      return;
    }
    if (this.pages.length < this.opts.maxPages) this.keep({ url, finalUrl, key, depth, page, links: features.links });
  }

  /** The page, or null when it failed (its reason noted among the skipped, unless the crawl was interrupted). */
  private async fetchPage(url: string): Promise<FetchedPage | null> {
    try {
      return await this.fetcher.fetch(url, { accept: isHtmlContentType, ...(this.opts.signal ? { signal: this.opts.signal } : {}) });
    } catch (err) {
      if (!(err instanceof FetchError)) throw err;
      if (err.kind !== "aborted")
        this.skipped.push({ url, reason: `${err.kind}: ${err.reason}${err.url === url ? "" : ` (at ${err.url})`}` });
      return null;
    } finally {
      this.fetched++;
    }
  }

  /** A page already kept under another URL (a redirect to it): that URL becomes one of its aliases. */
  private isKnownAlias(key: string, url: string): boolean {
    const existing = this.stored.get(key);
    if (!existing) return false;
    if (existing.url !== url && !existing.aliases.includes(url)) existing.aliases.push(url);
    return true;
  }

  /** Queue the page's links and alternates, unless it ends a chain of barren pages. */
  private follow(finalUrl: string, features: ReturnType<typeof pageFeatures>, depth: number, from: Lineage | null): void {
    const lineage = judge(features, from, this.templates, this.opts.minContentBytes);
    if (lineage.barrenChain >= MAX_BARREN_CHAIN) {
      this.barren++;
      this.skipped.push({
        url: finalUrl,
        reason: `links not followed: ${lineage.barrenChain} pages in a row added no new text or template`,
      });
      return;
    }
    for (const link of features.links) this.enqueue(link, depth + 1, lineage);
    for (const link of features.discover) this.enqueue(link, depth + 1, lineage);
  }

  private keep(p: { url: string; finalUrl: string; key: string; depth: number; page: FetchedPage; links: string[] }): void {
    const file = `pages/${String(this.pages.length + 1).padStart(6, "0")}.html`;
    writeFileAtomic(join(this.opts.out, file), p.page.bytes);
    const entry: CrawledPage = {
      url: p.finalUrl,
      aliases: p.finalUrl === p.url ? [] : [p.url],
      file,
      contentType: p.page.contentType,
      depth: p.depth,
      bytes: p.page.bytes.length,
      links: p.links,
    };
    this.stored.set(p.key, entry);
    this.pages.push(entry);
    // The manifest grows with the crawl: rewrite it every SAVE_EVERY_MS or when the pages have doubled since,
    // not every few pages (that is quadratic); doubling keeps the first pages safe at linear total cost.
    if (performance.now() - this.lastSave >= SAVE_EVERY_MS || this.pages.length >= 2 * this.savedPages) {
      this.lastSave = performance.now();
      this.savedPages = this.pages.length;
      this.save(false);
    }
  }

  /** Sitemaps list pages no link reaches; their URLs count as one step from the start. */
  async readSitemap(raw: string): Promise<void> {
    const url = this.scope.url(raw);
    if (!url || this.sitemapsSeen.has(url) || this.sitemapsSeen.size >= MAX_SITEMAPS || /\.gz$/i.test(url)) return;
    this.sitemapsSeen.add(url);
    let text: string;
    try {
      const res = await this.fetcher.fetch(url, this.opts.signal ? { signal: this.opts.signal } : {});
      text = res.decoded?.text ?? "";
    } catch (err) {
      if (!(err instanceof FetchError)) throw err;
      if (err.kind !== "aborted") this.skipped.push({ url, reason: `sitemap ${err.kind}: ${err.reason}` });
      return;
    }
    const isIndex = /<sitemapindex[\s>]/i.test(text);
    for (const m of text.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)) {
      const loc = m[1]!.replace(/&amp;/g, "&");
      if (isIndex) await this.readSitemap(loc);
      else this.enqueue(loc, 1);
    }
  }

  save(finished: boolean): void {
    const { opts, fetcher } = this;
    const manifest: CrawlManifest = {
      format: CRAWL_FORMAT,
      start: this.startUrls.map((u) => u.href),
      startedAt: this.startedAt,
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
      pages: this.pages,
      skipped: this.skipped,
    };
    writeJsonAtomic(join(opts.out, CRAWL_MANIFEST), manifest);
  }

  /** A crawl that kept nothing because its start page could not be fetched at all fails (kind `start-unreachable`), naming why. */
  assertStartReached(): void {
    if (this.pages.length > 0) return;
    const start = this.startUrls[0]!.href;
    const why = this.skipped.find((s) => s.url === start)?.reason;
    if (why && this.fetched <= this.startUrls.length + 1) {
      throw new UserError(`${start}: cannot crawl: the start page is unreachable (${why})`, { kind: "start-unreachable" });
    }
  }

  pageLimitReached(): boolean {
    return this.pages.length >= this.opts.maxPages;
  }

  /** Why the crawl ended, in words. */
  stopReason(interrupted: boolean): string {
    if (interrupted) return "interrupted";
    if (this.pageLimitReached()) return `page limit reached (${this.opts.maxPages} pages)`;
    if (this.barren > 0) {
      return `no pages left to visit; ${this.barren} barren page(s) (${MAX_BARREN_CHAIN} in a row adding no new text or template) were not followed`;
    }
    return "no pages left to visit";
  }
}

interface QueueItem {
  url: string;
  depth: number;
  /** The page that linked here (null for start, sitemap and resumed links). */
  from: Lineage | null;
  /** Always 0: a crawl has no back-off (the fetcher spaces requests per host). */
  notBefore: number;
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
      if (!isCrawl) throw new UserError(`${out}: folder is not empty and holds no crawl`, { kind: "crawl-folder-foreign" });
      const earlier = entries.includes(CRAWL_MANIFEST) ? readCrawlManifest(out) : null;
      const sameStart = earlier !== null && earlier.start.join(" ") === start.join(" ");
      if (!force && earlier?.finishedAt === null && sameStart) return earlier;
      if (!force && earlier !== null) {
        // Replacing it is the caller's choice (`force`): the CLI says how.
        throw earlier.finishedAt === null
          ? new UserError(`${out}: holds an unfinished crawl of ${earlier.start.join(" ")}; crawl that again to resume it`, {
              kind: "crawl-unfinished",
            })
          : new UserError(`${out}: holds an earlier crawl`, { kind: "crawl-folder-taken" });
      }
      rmSync(join(out, "pages"), { recursive: true, force: true });
      rmSync(join(out, CRAWL_MANIFEST), { force: true });
    }
  }
  mkdirSync(join(out, "pages"), { recursive: true });
  return null;
}
