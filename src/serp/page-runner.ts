import { type CpuTurns, inTurn } from "./cpu-turns.js";
import {
  engineNeedsBrowser,
  inTransaction,
  type NewRecord,
  noteEngineNeedsBrowser,
  nowIso,
  pageTaskKey,
  type QueryPair,
  recordFetch,
  setFetchTransport,
  type Store,
} from "../store/index.js";
import type { LoadedPage } from "./driver.js";
import type { LoadOptions } from "./load-options.js";
import { type EngineDefinition, type FetchMode, searchUrl } from "./engines.js";
import type { DriftReport, HealthWatch } from "./health-watch.js";
import { type InterpretOptions, interpretPage, type Verdict } from "./interpret.js";
import { queryText } from "./queries.js";
import { type RequestPacer, requestGapMs } from "./request-pacer.js";
import type { EngineWrappers, WrapperRegistry } from "./wrapper-registry.js";

export type { EngineWrappers };

/**
 * One result page, from end to end: fetch → interpret → store. Loads the page, reads it with the
 * engine's wrapper (adopting an earlier or re-learned wrapper when the page asks for it, and saving a
 * new one), classifies its records, and stores the fetch with its records in one transaction. The
 * whole of it — load and our work — runs against one deadline. What to do next (retry, next page,
 * give the engine up) is the caller's.
 */

/** Classifies records as they are stored (the classify module's `Classifier` satisfies this). */
export interface RecordClassifier {
  modelId: string;
  classify(inputs: Array<{ query: QueryPair; title: string; url: string; snippet: string }>): Array<{
    label: "bilingual" | "monolingual";
    probability: number;
  }>;
}

/** Loads result pages (the Playwright driver; a test may give another). */
export interface PageLoader {
  /** The deadline of one page, load and interpretation (ms). */
  readonly timeoutMs: number;
  /** Load one page (see `LoadOptions.beforeSend` for the engine's lease). */
  load(def: EngineDefinition, url: string, options: LoadOptions): Promise<LoadedPage>;
  /** A page loaded through the engine's proxy was blocked (the proxy is rested after a few). */
  proxyBlocked?(def: EngineDefinition): void;
}

export interface PageRunContext {
  store: Store;
  runId: number;
  /**
   * What the page tasks belong to (a local run, a distributed run's name): a page of it is stored completed once
   * (`pageTaskKey`), whichever of two workers that fetched it commits first.
   */
  harvest: string;
  /** The browser. */
  loader: PageLoader;
  /** The plain HTTP client, for engines fetched with `http` or `auto` (absent: everything goes through the browser). */
  http?: PageLoader | null;
  /** One fetch mode for every engine, overriding their definitions. */
  fetchMode?: FetchMode | null;
  keepHtml: boolean;
  interpret: InterpretOptions;
  classifier: RecordClassifier | null;
  /** The engines' health watch (absent: pages are not judged for drift). */
  health?: HealthWatch | null;
  /** Where a wrapper a page taught is kept (the engine's file, the store's versions). */
  wrappers: WrapperRegistry;
  /** The lease taken right before each request to an engine (its rate limit, held at the request); absent: none. */
  pacer?: RequestPacer | null;
  /** The process's turns for CPU work (reading pages), shared by its runs; absent: read at once. */
  cpu?: CpuTurns | null;
}

export interface PageResult {
  url: string;
  finalUrl: string;
  verdict: Verdict;
  /** Records stored for the first time / seen again. */
  newRecords: number;
  seenAgain: number;
  classified: number;
  /** A wrapper was learned from this page (and saved). */
  learned: boolean;
  /** The page drifted from its engine's health profile (stored as a drift event), or null. */
  drift: DriftReport | null;
  /** The wait the engine's answer asked for (`Retry-After`, ms); null: none. */
  retryAfterMs: number | null;
  timings: { navigateMs: number; evaluateMs: number; bodyMs: number; oursMs: number };
}

/** Run one page. Returns null when the signal aborted during the load (nothing stored: the next run fetches it). */
export async function runPage(
  ctx: PageRunContext,
  w: EngineWrappers,
  task: { query: QueryPair; page: number },
  signal?: AbortSignal,
): Promise<PageResult | null> {
  const def = w.setup.definition;
  const url = searchUrl(def, queryText(task.query), task.page);
  const fetched = await fetchAndInterpret(ctx, w, url, signal);
  if (fetched === null) return null;
  const { loaded, interpretStart, sent } = fetched;
  const health = (await ctx.health?.check(def.engine, loaded, fetched.verdict, queryText(task.query), w.wrapper)) ?? null;
  const v = health?.verdict ?? fetched.verdict;
  if (v.cause === "blocked" && loaded.proxy) (loaded.fetchedWith === "http" ? ctx.http : ctx.loader)?.proxyBlocked?.(def);
  const trace = (await loaded.finishTrace?.(v.status !== "ok" && v.status !== "empty")) ?? null;
  const learnedAt = adoptWrapper(w, v);
  if (learnedAt !== null) await ctx.wrappers.learned(w);
  const records = await inTurn(ctx.cpu, () => classified(ctx.classifier, task.query, resultRecords(v, task.page, def.resultsPerPage)));
  const outcome = await storePage(
    ctx,
    {
      runId: ctx.runId,
      engine: def.engine,
      query: task.query,
      page: task.page,
      url,
      finalUrl: loaded.observation.finalUrl,
      status: v.status,
      httpStatus: loaded.observation.httpStatus,
      detail: trace ? `${v.detail} (trace: ${trace})` : v.detail,
      startedAt: sent.at,
      durationMs: performance.now() - sent.started,
      contentSha256: loaded.contentSha256,
      html: ctx.keepHtml ? loaded.body : null,
      wrapperLearnedAt: learnedAt,
      taskKey: pageTaskKey(ctx.harvest, def.engine, task.query, task.page),
    },
    records,
    loaded,
  );
  if (health?.drift) await ctx.health!.record(ctx.runId, outcome.fetchId, health.drift);
  return {
    url,
    finalUrl: loaded.observation.finalUrl,
    verdict: v,
    newRecords: outcome.newRecords,
    seenAgain: outcome.seenAgain,
    classified: ctx.classifier ? records.length : 0,
    learned: v.learned !== null,
    drift: health?.drift ?? null,
    retryAfterMs: loaded.observation.retryAfterMs ?? null,
    timings: {
      navigateMs: loaded.timings.navigateMs,
      evaluateMs: loaded.timings.evaluateMs,
      bodyMs: loaded.timings.bodyMs,
      oursMs: performance.now() - interpretStart,
    },
  };
}

/** When the page's requests left (performance.now()); before any did, when the page began. */
interface SentAt {
  /** The first request: the page's start, stored with it. */
  started: number;
  /** The same moment as an ISO date. */
  at: string;
  /** The last request (the browser's, when `auto` asked it again): the page's deadline runs from there. */
  last: number;
}

/**
 * Fetch the page by the engine's mode and read it with its wrappers, within the page's deadline. In `auto` a
 * page that came but gave no records over HTTP (script, consent, block, layout) is asked again in the browser.
 * Null when the signal aborted meanwhile.
 */
export async function fetchAndInterpret(
  ctx: PageRunContext,
  w: EngineWrappers,
  url: string,
  signal?: AbortSignal,
): Promise<{ loaded: LoadedPage; verdict: Verdict; interpretStart: number; sent: SentAt } | null> {
  const def = w.setup.definition;
  const sent: SentAt = { started: performance.now(), at: nowIso(), last: performance.now() };
  let sends = 0;
  // The engine's lease, taken by the loader right before the request leaves (after the browser, the context and
  // the tab are ready, which can take seconds): what lies between a lease and its request spaces requests unevenly.
  const options: LoadOptions = {
    keepBody: ctx.keepHtml,
    beforeSend: async () => {
      await ctx.pacer?.take(def.engine, requestGapMs(def.politeness), signal);
      if (signal?.aborted) return false; // the run is stopping: the page is left for the next run
      sent.last = performance.now();
      if (sends++ === 0) Object.assign(sent, { started: sent.last, at: nowIso() });
      return true;
    },
  };
  /** The page's deadline: the loader's timeout from its request (load + our work), not from the wait for its turn. */
  const deadlineOf = (l: PageLoader) => {
    const from = sent.last;
    return { passed: () => performance.now() > from + l.timeoutMs, seconds: Math.round(l.timeoutMs / 100) / 10 };
  };
  let mode = ctx.http ? (ctx.fetchMode ?? def.fetch) : "browser";
  // An engine whose pages came only through the browser before: straight to it, one download a page.
  if (mode === "auto" && (await engineNeedsBrowser(ctx.store, def.engine, NEEDS_BROWSER_MEMORY_MS)) !== null) mode = "browser";
  const first = mode === "browser" ? ctx.loader : ctx.http!;
  let loaded = await first.load(def, url, options);
  if (signal?.aborted) return abandon(loaded);
  const interpretStart = performance.now();
  // In auto mode the HTTP page only reads records; pages that teach wrappers are the browser's.
  const read = loaded;
  let v = await inTurn(ctx.cpu, () =>
    interpretPage(read, def, w.wrapper, mode === "auto" ? { ...ctx.interpret, learn: false } : ctx.interpret, w.earlier, deadlineOf(first)),
  );
  if (mode === "auto" && v.status !== "ok" && loaded.error === null) {
    const why = v.detail;
    const wrapperRead = w.wrapper !== null; // the HTTP page was read with a wrapper (not only a page to learn one from)
    loaded = await ctx.loader.load(def, url, options); // a second request to the engine: a lease of its own
    if (signal?.aborted) return abandon(loaded);
    const reread = loaded;
    v = await inTurn(ctx.cpu, () => interpretPage(reread, def, w.wrapper, ctx.interpret, w.earlier, deadlineOf(ctx.loader)));
    v = { ...v, detail: `by browser, as HTTP gave no records (${why}): ${v.detail}` };
    // The same wrapper read records in the browser and none in the HTML: the engine needs the browser.
    if (wrapperRead && v.status === "ok" && v.learned === null) await noteEngineNeedsBrowser(ctx.store, def.engine, why);
  }
  if (loaded.consentAccepted) v = { ...v, detail: `consent accepted ("${loaded.consentAccepted}"); ${v.detail}` };
  return { loaded, verdict: v, interpretStart, sent };
}

/** How long `auto` remembers that an engine needs the browser before trying HTTP again (engines change). */
export const NEEDS_BROWSER_MEMORY_MS = 7 * 24 * 3600_000;

async function abandon(l: LoadedPage): Promise<null> {
  await l.finishTrace?.(false).catch(() => null);
  return null;
}

/** Take up the wrapper the page brought back into use or taught (the caller keeps it); the new one's date. */
function adoptWrapper(w: EngineWrappers, v: Verdict): string | null {
  if (v.reused) {
    // Pages of the earlier layout still come (an A/B test, or answers overtaking each other across a switch).
    w.earlier = [w.wrapper!, ...w.earlier.filter((x) => x !== v.reused)];
    w.wrapper = v.reused;
  }
  if (!v.learned) return null;
  if (w.wrapper) w.earlier = [w.wrapper, ...w.earlier].slice(0, 5);
  w.wrapper = v.learned;
  return v.learned.learnedAt;
}

/** The page's records, ranked over the whole result list (page 2's first record follows page 1's last). */
function resultRecords(v: Verdict, page: number, perPage: number): NewRecord[] {
  const offset = (page - 1) * perPage;
  return v.records.map((r) => ({ url: r.url, title: r.title, snippet: r.snippet, rank: offset + r.rank }));
}

/** The records with the classifier's label, when there is a classifier. */
function classified(classifier: RecordClassifier | null, query: QueryPair, records: NewRecord[]): NewRecord[] {
  if (!classifier || records.length === 0) return records;
  const predictions = classifier.classify(records.map((r) => ({ query, title: r.title, url: r.url, snippet: r.snippet })));
  records.forEach((r, i) => {
    const p = predictions[i]!;
    r.classification = { label: p.label, probability: p.probability, model: classifier.modelId };
  });
  return records;
}

/** The fetch, its records and how it was fetched: one transaction. */
function storePage(ctx: PageRunContext, fetch: Parameters<typeof recordFetch>[1], records: NewRecord[], loaded: LoadedPage) {
  return inTransaction(ctx.store, async () => {
    const stored = await recordFetch(ctx.store, fetch, records);
    await setFetchTransport(ctx.store, stored.fetchId, { proxy: loaded.proxy ?? null, fetchedWith: loaded.fetchedWith ?? "browser" });
    return stored;
  });
}
