import pLimit from "p-limit";
import {
  type FetchStatus,
  finishRun,
  lastCompletedFetch,
  type NewRecord,
  nowIso,
  type QueryPair,
  recordFetch,
  type Store,
  startExclusiveRun,
} from "../store/index.js";
import type { Wrapper } from "../wrapper/types.js";
import type { SerpDriver } from "./driver.js";
import { type EngineSetup, saveWrapper } from "./engine-files.js";
import { searchUrl, supportsPaging } from "./engines.js";
import { DEFAULT_INTERPRET, type InterpretOptions, interpretPage } from "./interpret.js";
import { type BreakerOptions, backoffMs, CircuitBreaker, DEFAULT_BREAKER, EngineGate } from "./politeness.js";
import { queryText } from "./queries.js";

/**
 * The harvest (feng2010 §3.2, §4.1): submit every query pair to every engine, page after page,
 * extract the result records with the engine's wrapper inside the loaded page, and store each fetch
 * with its records in one transaction. Resumable and idempotent: an (engine, query, page) fetched
 * successfully within `maxAgeMs` is skipped, so a rerun after a crash fetches only what is missing.
 *
 * Scheduling: a dispatcher starts page loads while fewer than `concurrency` are in flight, choosing
 * among engines whose politeness gate and circuit breaker allow a request now, so a paused or slow
 * engine never holds a slot while the others can go on.
 */

/** Classifies records as they are stored (the classify module's `Classifier` satisfies this). */
export interface RecordClassifier {
  modelId: string;
  classify(inputs: Array<{ query: QueryPair; title: string; url: string; snippet: string }>): Array<{
    label: "bilingual" | "monolingual";
    probability: number;
  }>;
}

export interface HarvestOptions {
  queries: readonly QueryPair[];
  engines: readonly EngineSetup[];
  driver: SerpDriver;
  /** Result pages per query (later pages only while pages come back full enough). */
  pages?: number;
  /** Page loads in flight at once, over all engines. */
  concurrency?: number;
  /** Skip an (engine, query, page) fetched successfully this recently (0: fetch everything again). */
  maxAgeMs?: number;
  /** Keep each result page's HTML (compressed) in the store. */
  keepHtml?: boolean;
  /** Retries of a page after a network error, timeout or unrecognised page. */
  retries?: number;
  /** Retries of a page after a block (each waits for the engine's breaker). */
  blockRetries?: number;
  backoff?: { baseMs: number; maxMs: number };
  breaker?: BreakerOptions;
  interpret?: InterpretOptions;
  classifier?: RecordClassifier | null;
  /** Recorded with the run (the command line's options). */
  runOptions?: unknown;
  signal?: AbortSignal;
  onEvent?: (event: HarvestEvent) => void;
  onProgress?: (stats: HarvestStats) => void;
}

export type HarvestEvent =
  | { kind: "wrapper-learned"; engine: string; url: string; detail: string; file: string }
  | { kind: "blocked"; engine: string; url: string; detail: string }
  | { kind: "engine-paused"; engine: string; seconds: number; trip: number }
  | { kind: "engine-given-up"; engine: string; left: number }
  | { kind: "error"; engine: string; url: string; detail: string; willRetry: boolean };

/** What happened to the result pages of a run (or of one engine in it). */
export interface PageCounts {
  fetched: number;
  ok: number;
  empty: number;
  blocked: number;
  errors: number;
  /** Pages skipped because they were fetched within the max age. */
  skipped: number;
  newRecords: number;
  seenAgain: number;
  relearned: number;
  /** Pages not fetched because the engine was given up (they are fetched by the next run). */
  left: number;
}

export interface EngineStats extends PageCounts {
  givenUp: boolean;
}

export interface HarvestStats extends PageCounts {
  /** (engine, query) pairs to harvest, and how many are finished. */
  jobs: number;
  jobsDone: number;
  classified: number;
  engines: Record<string, EngineStats>;
}

export interface HarvestSummary extends HarvestStats {
  runId: number;
  status: "completed" | "interrupted";
  durationMs: number;
  /** Per-page timings (medians, ms): in the browser (navigation), in the page (evaluation), ours (interpret + store). */
  timing: { pages: number; navigateMs: number; evaluateMs: number; bodyMs: number; oursMs: number };
}

interface PageTask {
  query: QueryPair;
  page: number;
  errors: number;
  blocks: number;
  notBefore: number;
}

interface EngineState {
  setup: EngineSetup;
  wrapper: Wrapper | null;
  /** Wrappers it replaced, newest first. */
  earlier: Wrapper[];
  gate: EngineGate;
  breaker: CircuitBreaker;
  queue: PageTask[];
  maxPages: number;
  stats: EngineStats;
}

export async function harvest(store: Store, o: HarvestOptions): Promise<HarvestSummary> {
  const started = Date.now();
  const pages = Math.max(1, o.pages ?? 1);
  const concurrency = Math.max(1, o.concurrency ?? 2);
  const maxAgeMs = o.maxAgeMs ?? 24 * 3600_000;
  const retries = o.retries ?? 2;
  const blockRetries = o.blockRetries ?? 2;
  const backoff = o.backoff ?? { baseMs: 2000, maxMs: 60_000 };
  const interpretOptions = o.interpret ?? DEFAULT_INTERPRET;
  const since = new Date(Date.now() - maxAgeMs).toISOString();

  const runId = startExclusiveRun(store, o.runOptions ?? {}); // refuses while another harvest runs on this store
  const engines: EngineState[] = o.engines.map((setup) => ({
    setup,
    wrapper: setup.wrapper,
    earlier: [...setup.previous],
    gate: new EngineGate(setup.definition.politeness),
    breaker: new CircuitBreaker(o.breaker ?? DEFAULT_BREAKER),
    queue: o.queries.map((query) => ({ query, page: 1, errors: 0, blocks: 0, notBefore: 0 })),
    maxPages: supportsPaging(setup.definition) ? pages : 1,
    stats: emptyEngineStats(),
  }));
  const stats: HarvestStats = {
    jobs: o.queries.length * engines.length,
    jobsDone: 0,
    fetched: 0,
    ok: 0,
    empty: 0,
    blocked: 0,
    errors: 0,
    skipped: 0,
    newRecords: 0,
    seenAgain: 0,
    classified: 0,
    relearned: 0,
    left: 0,
    engines: Object.fromEntries(engines.map((e) => [e.setup.name, e.stats])),
  };
  const timings = { navigate: [] as number[], evaluate: [] as number[], body: [] as number[], ours: [] as number[] };
  const emit = (e: HarvestEvent) => o.onEvent?.(e);
  const progress = () => o.onProgress?.(stats);
  // A page this full suggests more results follow (engines fill a page with 8–10 organic results of 10).
  const continueAt = (e: EngineState) => Math.ceil(e.setup.definition.resultsPerPage * 0.7);

  /** After page `task.page` of a query: fetch its next page, or finish the job. */
  const nextPage = (e: EngineState, task: PageTask, records: number) => {
    if (task.page < e.maxPages && records >= continueAt(e)) {
      e.queue.unshift({ query: task.query, page: task.page + 1, errors: 0, blocks: 0, notBefore: 0 });
    } else {
      stats.jobsDone++;
    }
  };
  const count = (e: EngineState, status: FetchStatus) => {
    stats.fetched++;
    e.stats.fetched++;
    const key = status === "error" ? "errors" : status;
    stats[key]++;
    e.stats[key]++;
  };

  const runTask = async (e: EngineState, task: PageTask): Promise<void> => {
    const def = e.setup.definition;
    const url = searchUrl(def, queryText(task.query), task.page);
    const startedAt = nowIso();
    const loaded = await o.driver.load(def, url, { keepBody: o.keepHtml ?? false });
    if (o.signal?.aborted) {
      e.queue.unshift(task); // not stored: the next run fetches it
      return;
    }
    const t0 = performance.now();
    const v = interpretPage(loaded, def, e.wrapper, interpretOptions, e.earlier);
    let learnedAt: string | null = null;
    if (v.reused) {
      // Pages of the earlier layout still come (an A/B test, or answers overtaking each other across a switch).
      e.earlier = [e.wrapper!, ...e.earlier.filter((w) => w !== v.reused)];
      e.wrapper = v.reused;
    }
    if (v.learned) {
      if (e.wrapper) e.earlier = [e.wrapper, ...e.earlier].slice(0, 5);
      e.wrapper = v.learned;
      learnedAt = v.learned.learnedAt;
      saveWrapper(e.setup.file, v.learned);
      stats.relearned++;
      e.stats.relearned++;
      emit({ kind: "wrapper-learned", engine: def.engine, url: loaded.observation.finalUrl, detail: v.detail, file: e.setup.file });
    }
    const offset = (task.page - 1) * def.resultsPerPage;
    const records: NewRecord[] = v.records.map((r) => ({ url: r.url, title: r.title, snippet: r.snippet, rank: offset + r.rank }));
    if (o.classifier && records.length > 0) {
      const predictions = o.classifier.classify(
        records.map((r) => ({ query: task.query, title: r.title, url: r.url, snippet: r.snippet })),
      );
      records.forEach((r, i) => {
        const p = predictions[i]!;
        r.classification = { label: p.label, probability: p.probability, model: o.classifier!.modelId };
      });
      stats.classified += records.length;
    }
    const outcome = recordFetch(
      store,
      {
        runId,
        engine: def.engine,
        query: task.query,
        page: task.page,
        url,
        finalUrl: loaded.observation.finalUrl,
        status: v.status,
        httpStatus: loaded.observation.httpStatus,
        detail: v.detail,
        startedAt,
        durationMs: loaded.timings.totalMs,
        contentSha256: loaded.contentSha256,
        html: o.keepHtml ? loaded.body : null,
        wrapperLearnedAt: learnedAt,
      },
      records,
    );
    timings.navigate.push(loaded.timings.navigateMs);
    timings.evaluate.push(loaded.timings.evaluateMs);
    timings.body.push(loaded.timings.bodyMs);
    timings.ours.push(performance.now() - t0);
    count(e, v.status);
    stats.newRecords += outcome.newRecords;
    stats.seenAgain += outcome.seenAgain;
    e.stats.newRecords += outcome.newRecords;
    e.stats.seenAgain += outcome.seenAgain;

    const now = Date.now();
    if (v.status === "ok" || v.status === "empty") {
      e.breaker.recordSuccess();
      nextPage(e, task, v.records.length);
    } else if (v.status === "blocked") {
      emit({ kind: "blocked", engine: def.engine, url, detail: v.detail });
      const b = e.breaker.recordBlock(now);
      if (b?.kind === "paused") emit({ kind: "engine-paused", engine: def.engine, seconds: Math.round((b.untilMs - now) / 1000), trip: b.trip });
      if (task.blocks < blockRetries) {
        e.queue.push({ ...task, blocks: task.blocks + 1, notBefore: now + backoffMs(task.blocks + 1, backoff.baseMs, backoff.maxMs) });
      } else {
        e.stats.left++;
        stats.left++;
        stats.jobsDone++;
      }
      if (b?.kind === "gave-up") giveUp(e);
    } else {
      const willRetry = task.errors < retries;
      emit({ kind: "error", engine: def.engine, url, detail: v.detail, willRetry });
      if (willRetry) {
        e.queue.push({ ...task, errors: task.errors + 1, notBefore: now + backoffMs(task.errors + 1, backoff.baseMs, backoff.maxMs) });
      } else {
        stats.jobsDone++;
      }
    }
    progress();
  };

  const giveUp = (e: EngineState) => {
    const left = e.queue.length;
    e.stats.givenUp = true;
    e.stats.left += left;
    stats.left += left;
    stats.jobsDone += left;
    e.queue = [];
    emit({ kind: "engine-given-up", engine: e.setup.name, left });
  };

  // ---- the dispatcher ----
  const limit = pLimit(concurrency);
  const inflight = new Set<Promise<void>>();
  let wake: (() => void) | null = null;
  const signalWake = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const waitForEvent = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(resolve, Math.max(1, ms)) : null;
      wake = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  o.signal?.addEventListener("abort", signalWake, { once: true });
  let failure: unknown = null;
  let turn = 0;

  progress();
  while (!o.signal?.aborted && failure === null) {
    if (inflight.size === 0 && engines.every((e) => e.queue.length === 0)) break;
    if (limit.activeCount + limit.pendingCount >= concurrency) {
      await waitForEvent(Number.POSITIVE_INFINITY);
      continue;
    }
    const now = Date.now();
    let chosen: { e: EngineState; index: number } | null = null;
    let soonest = Number.POSITIVE_INFINITY;
    for (let k = 0; k < engines.length && !chosen; k++) {
      const e = engines[(turn + k) % engines.length]!;
      if (e.queue.length === 0) continue;
      let wait = Math.max(e.gate.waitMs(now), e.breaker.waitMs(now));
      if (e.breaker.probing && e.gate.active > 0) wait = Number.POSITIVE_INFINITY; // one probe at a time
      let index = -1;
      let taskWait = Number.POSITIVE_INFINITY;
      for (const [i, t] of e.queue.entries()) {
        if (t.notBefore <= now) {
          index = i;
          taskWait = 0;
          break;
        }
        taskWait = Math.min(taskWait, t.notBefore - now);
      }
      wait = Math.max(wait, taskWait);
      if (wait <= 0) chosen = { e, index };
      else soonest = Math.min(soonest, wait);
    }
    if (!chosen) {
      await waitForEvent(soonest);
      continue;
    }
    turn = (engines.indexOf(chosen.e) + 1) % engines.length;
    const { e } = chosen;
    const task = e.queue.splice(chosen.index, 1)[0]!;
    const fresh = lastCompletedFetch(store, { engine: e.setup.name, query: task.query, page: task.page }, since);
    if (fresh) {
      stats.skipped++;
      e.stats.skipped++;
      nextPage(e, task, fresh.recordCount);
      progress();
      continue;
    }
    e.gate.start(now);
    const p: Promise<void> = limit(() => runTask(e, task))
      .catch((err) => {
        // After Ctrl-C the driver is closed under in-flight loads: their failures are expected.
        if (!o.signal?.aborted) failure ??= err;
      })
      .finally(() => {
        e.gate.finish();
        inflight.delete(p);
        signalWake();
      });
    inflight.add(p);
  }
  const interrupted = o.signal?.aborted ?? false;
  if (interrupted) await o.driver.close(); // in-flight loads end now; their pages are fetched by the next run
  await Promise.all(inflight);
  if (failure !== null) {
    finishRun(store, runId, "failed", { ...stats, error: String(failure) });
    throw failure;
  }
  const summary: HarvestSummary = {
    ...stats,
    runId,
    status: interrupted ? "interrupted" : "completed",
    durationMs: Date.now() - started,
    timing: {
      pages: timings.navigate.length,
      navigateMs: median(timings.navigate),
      evaluateMs: median(timings.evaluate),
      bodyMs: median(timings.body),
      oursMs: median(timings.ours),
    },
  };
  finishRun(store, runId, summary.status, summary);
  return summary;
}

function emptyEngineStats(): EngineStats {
  return { fetched: 0, ok: 0, empty: 0, blocked: 0, errors: 0, skipped: 0, newRecords: 0, seenAgain: 0, relearned: 0, left: 0, givenUp: false };
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round((s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) * 10) / 10;
}
