/**
 * `bitext fetch-pages`: download the pages of stored records classified bilingual, keep them in the
 * store, and extract their sentence pairs into it. Exposed as `fetchBilingualPages` for the demo.
 *
 * Pages already stored are not downloaded again (unless `refetch`), but every stored page of the selection
 * is (re-)extracted, which is cheap and offline: a run interrupted between download and extraction
 * completes on the next run, and an improved extractor refreshes old pages.
 */
import {
  createFetcher,
  type Fetcher,
  FetchError,
  type FetcherOptions,
  isHtmlContentType,
  type Lane,
  schedule,
  type Timed,
} from "../net/index.js";
import { unprocessableReason } from "../html/index.js";
import type { PairScorer } from "../quality/index.js";
import {
  getPage,
  linkPageRecords,
  listRecords,
  pageReachedAt,
  markPageUnprocessable,
  replacePairs,
  type Store,
  upsertPage,
} from "../store/index.js";
import { EN_ZH } from "../text/index.js";
import { defaultScorer, toStoredPairs } from "./stored-pair.js";
import { type ExtractOptions, extractFromHtml } from "./extract.js";
import { storedPageText } from "./pages.js";

export interface FetchPagesOptions {
  /** The fetcher to use (default: a new polite fetcher with `fetcherOptions`). Share one across a run. */
  fetcher?: Fetcher;
  fetcherOptions?: Partial<FetcherOptions>;
  /** Only records whose probability of being bilingual is at least this. */
  minProbability?: number;
  /** At most this many pages (distinct URLs). */
  limit?: number;
  /** Download pages again even when stored. */
  refetch?: boolean;
  /** Pages processed at once, one per host at a time (the fetcher spaces a host's requests anyway). */
  concurrency?: number;
  extract?: Partial<ExtractOptions>;
  /** Called after each page with its outcome. */
  onPage?: (outcome: PageOutcome) => void;
  /** Called once with the number of pages to visit, before the first. */
  onTotal?: (pages: number) => void;
  /** Scores every extracted pair as it is stored (default: the pair's quality model; null: store unscored). */
  scorer?: PairScorer | null;
  /** Once aborted, no further page is started; the pages in flight finish and are stored. */
  signal?: AbortSignal;
}

export interface PageOutcome {
  url: string;
  /** "skipped": stored, but it cannot be processed (past the page caps, or its extraction failed): see `error`. */
  status: "fetched" | "stored" | "failed" | "skipped";
  /** Why the download failed, or why the page is skipped. */
  error?: string;
  pairs: number;
  /** Where the link led (after redirects), when that is another URL. */
  finalUrl?: string;
}

export interface FetchPagesSummary {
  records: number;
  urls: number;
  fetched: number;
  alreadyStored: number;
  failed: number;
  /** Stored pages that cannot be processed, marked so in the store and skipped (now and on later runs). */
  skipped: number;
  pairs: number;
  pages: PageOutcome[];
  /** The signal stopped the run before every page was visited (the rest are visited by the next run). */
  interrupted: boolean;
}

export async function fetchBilingualPages(store: Store, options: FetchPagesOptions = {}): Promise<FetchPagesSummary> {
  const records = await listRecords(store, {
    label: "bilingual",
    ...(options.minProbability === undefined ? {} : { minProbability: options.minProbability }),
  });
  // Which records led to each URL: the page's provenance (page_records).
  const recordsByUrl = new Map<string, number[]>();
  for (const r of records) recordsByUrl.set(r.url, [...(recordsByUrl.get(r.url) ?? []), r.id]);
  let urls = [...recordsByUrl.keys()].filter((u) => /^https?:\/\//iu.test(u));
  if (options.limit !== undefined) urls = urls.slice(0, options.limit);
  options.onTotal?.(urls.length);
  const fetcher = options.fetcher ?? createFetcher(options.fetcherOptions ?? {});
  const pair = options.extract?.pair ?? EN_ZH;
  const extractOptions: Partial<ExtractOptions> = { ...options.extract, pair };
  const scorer = options.scorer === undefined ? defaultScorer(pair) : options.scorer;
  const summary: FetchPagesSummary = {
    records: records.length,
    urls: urls.length,
    fetched: 0,
    alreadyStored: 0,
    failed: 0,
    skipped: 0,
    pairs: 0,
    pages: [],
    interrupted: false,
  };

  const count = (outcome: PageOutcome) => {
    summary.pages.push(outcome);
    if (outcome.status === "fetched") summary.fetched++;
    else if (outcome.status === "stored") summary.alreadyStored++;
    else if (outcome.status === "skipped") summary.skipped++;
    else summary.failed++;
    summary.pairs += outcome.pairs;
    options.onPage?.(outcome);
  };
  const lanes = hostLanes(urls);
  const { interrupted } = await schedule<PageTask>({
    lanes,
    concurrency: Math.max(1, options.concurrency ?? 4),
    ...(options.signal ? { signal: options.signal } : {}),
    start: (li, task) => {
      const lane = lanes[li]!;
      lane.busy = true;
      const job = {
        store,
        fetcher,
        url: task.url,
        refetch: options.refetch === true,
        extractOptions,
        scorer,
        recordIds: recordsByUrl.get(task.url) ?? [],
      };
      return onePage(job)
        .then(count)
        .finally(() => {
          lane.busy = false;
        });
    },
  });
  summary.interrupted = interrupted;
  return summary;
}

interface PageJob {
  store: Store;
  fetcher: Fetcher;
  url: string;
  refetch: boolean;
  extractOptions: Partial<ExtractOptions>;
  scorer: PairScorer | null;
  /** The records that led to the page. */
  recordIds: readonly number[];
}

/** One page: downloaded unless stored (or `refetch`), linked to its records, then its pairs extracted, scored and stored. */
async function onePage(job: PageJob): Promise<PageOutcome> {
  const { store, fetcher, url, refetch, extractOptions } = job;
  const stored = await pageReachedAt(store, url);
  let pageId: number;
  let status: PageOutcome["status"];
  if (stored?.unprocessable && !refetch) return { url, status: "skipped", error: stored.unprocessable, pairs: 0 };
  if (stored?.html && !refetch) {
    pageId = stored.id;
    status = "stored";
  } else {
    try {
      const page = await fetcher.fetch(url, { accept: isHtmlContentType });
      pageId = await upsertPage(store, {
        url,
        finalUrl: page.finalUrl === url ? null : page.finalUrl,
        httpStatus: page.status,
        contentType: page.contentType,
        charset: page.decoded?.charset ?? null,
        html: page.bytes,
      });
      status = "fetched";
    } catch (err) {
      if (!(err instanceof FetchError)) throw err;
      await upsertPage(store, { url, httpStatus: err.status ?? null, html: null, error: `${err.kind}: ${err.message}` });
      return { url, status: "failed", error: err.message, pairs: 0 };
    }
  }
  await linkPageRecords(store, pageId, job.recordIds);
  const page = await getPage(store, pageId);
  const text = page ? storedPageText(page) : null;
  let pairs: ReturnType<typeof extractFromHtml>["pairs"];
  try {
    pairs = text === null ? [] : extractFromHtml(text, page?.finalUrl ?? url, extractOptions).pairs;
  } catch (err) {
    // One page that cannot be processed must not stop the run, nor every later run: mark it with its reason.
    const reason = unprocessableReason(err);
    await markPageUnprocessable(store, pageId, reason);
    return { url, status: "skipped", error: reason, pairs: 0 };
  }
  await replacePairs(store, pageId, toStoredPairs(pairs, job.scorer));
  return { url, status, pairs: pairs.length, ...(page?.finalUrl ? { finalUrl: page.finalUrl } : {}) };
}

interface PageTask extends Timed {
  url: string;
}

interface HostLane extends Lane<PageTask> {
  busy: boolean;
}

/**
 * The URLs in a lane per host of the shared scheduler (as the harvest and the crawl use it), one page of a
 * host in flight at a time: a slot never waits out one host's spacing in the fetcher while another host's
 * page could use it.
 */
function hostLanes(urls: readonly string[]): HostLane[] {
  const byHost = new Map<string, HostLane>();
  for (const url of urls) {
    const host = URL.canParse(url) ? new URL(url).host : ""; // an unreadable URL fails in the fetcher
    let lane = byHost.get(host);
    if (!lane) {
      const created: HostLane = { queue: [], busy: false, readyIn: () => (created.busy ? Number.POSITIVE_INFINITY : 0) };
      lane = created;
      byHost.set(host, lane);
    }
    lane.queue.push({ url, notBefore: 0 });
  }
  return [...byHost.values()];
}
