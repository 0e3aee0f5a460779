import { pageTaskKey, type QueryPair } from "../store/index.js";

/**
 * What travels through the queue: one job per (run, engine, query, page), its id made of those alone
 * so that adding the same page of the same run twice adds it once (BullMQ keeps one job per id).
 */

/** The per-run settings every page job carries (a worker's own settings are its machine's: store, browser, wrappers). */
export interface RunSettings {
  /** The run's name: the jobs of a run are counted together (`bitext queue status`). */
  run: string;
  /** Result pages per query (later pages only while pages come back full). */
  pages: number;
  /** Skip a page fetched successfully this recently (0: fetch it again). */
  maxAgeMs: number;
  keepHtml: boolean;
  /** Retries of a page after an error, and after a block. */
  retries: number;
  blockRetries: number;
  /** Network failures in a row after which the engine is given up for the run. */
  downAfter: number;
  /** First retry delay (BullMQ's exponential back-off doubles it). */
  backoffMs: number;
}

export interface PageJob extends RunSettings {
  engine: string;
  /** The query's two sides, each with its language (the run's pair travels in every job), and where it was read. */
  query: QueryPair;
  page: number;
  /** Failed attempts so far, by kind (the page policy's retry budgets). */
  errors: number;
  blocks: number;
}

/** Every engine has its own BullMQ queue, so each has its own rate limit and concurrency over all workers. */
export const QUEUE_PREFIX = "bitext-harvest-";

export function queueName(engine: string): string {
  return `${QUEUE_PREFIX}${engine}`;
}

export function engineOfQueue(name: string): string | null {
  return name.startsWith(QUEUE_PREFIX) ? name.slice(QUEUE_PREFIX.length) : null;
}

/** The deterministic id of a page job: its page task's key in the store (`pageTaskKey`), the run being the harvest. */
export function pageJobId(run: string, engine: string, query: QueryPair, page: number): string {
  return pageTaskKey(run, engine, query, page);
}

export function pageJob(
  settings: RunSettings,
  engine: string,
  query: QueryPair,
  page: number,
): { name: string; data: PageJob; jobId: string } {
  return {
    name: settings.run,
    data: { ...settings, engine, query: jobQuery(query), page, errors: 0, blocks: 0 },
    jobId: pageJobId(settings.run, engine, query, page),
  };
}

/** The query as a job carries it: both sides with their languages, and where it was read (the worker stores it). */
function jobQuery(q: QueryPair): QueryPair {
  const origin = q.file === undefined ? {} : { file: q.file, line: q.line, note: q.note ?? null };
  return { source: { ...q.source }, target: { ...q.target }, ...origin };
}

/**
 * BullMQ's options for a page job. Attempts leave room for every retry the page policy may grant
 * (it ends a page's retries itself, as an unrecoverable failure); back-off between them is BullMQ's.
 * Finished jobs are kept a week: their ids keep a re-enqueued list from being fetched again, and
 * `bitext queue status` counts them.
 */
export function pageJobOptions(s: RunSettings, jobId: string) {
  const week = 7 * 24 * 3600;
  return {
    jobId,
    attempts: 2 + s.retries + s.blockRetries,
    backoff: { type: "exponential" as const, delay: s.backoffMs, jitter: 0.5 },
    removeOnComplete: { age: week },
    removeOnFail: { age: week },
  };
}
