import { parallelTextKey } from "../language-pair.js";
import { decodeHtml } from "../html/index.js";
import { unprocessableReason } from "../html/index.js";
import { tagPathsFromHtml } from "../html/index.js";
import {
  finishRun,
  getFetchHtml,
  keptResultPages,
  markFetchUnprocessable,
  type NewRecord,
  type QueryPair,
  recordFetch,
  type Store,
  startExclusiveRun,
} from "../store/index.js";
import { pageText } from "./driver.js";
import type { EngineSetup } from "./engine-files.js";
import { DEFAULT_INTERPRET, interpretPage } from "./interpret.js";

/**
 * Re-extract records from result pages kept in the store (`harvest --keep-html`) with the engines'
 * current wrappers, without asking the engines again: after a wrapper is re-learned or fixed, pages
 * that gave no or too few records come back. Each re-read page is stored as a new fetch of a
 * re-extraction run (the HTML is not copied again); records already stored are seen again, never duplicated.
 */

export interface ReextractOptions {
  engines: readonly EngineSetup[];
  /** Only these queries (all when absent). */
  queries?: readonly QueryPair[];
  runOptions?: unknown;
}

export interface ReextractSummary {
  runId: number;
  pages: number;
  ok: number;
  empty: number;
  blocked: number;
  errors: number;
  newRecords: number;
  seenAgain: number;
}

export async function reextractStoredPages(store: Store, o: ReextractOptions): Promise<ReextractSummary> {
  // A re-extraction writes fetches and records as a harvest does: not beside a harvest on the same store.
  const runId = await startExclusiveRun(store, o.runOptions ?? { reextract: true });
  const out: ReextractSummary = { runId, pages: 0, ok: 0, empty: 0, blocked: 0, errors: 0, newRecords: 0, seenAgain: 0 };
  const wanted = o.queries ? new Set(o.queries.map(parallelTextKey)) : null;
  try {
    for (const engine of o.engines) {
      // The latest kept page of each (query, page).
      const rows = await keptResultPages(store, engine.name);
      for (const row of rows) {
        if (wanted && !wanted.has(parallelTextKey(row.query))) continue;
        const html = (await getFetchHtml(store, row.fetchId))!;
        let seq: ReturnType<typeof tagPathsFromHtml>;
        try {
          seq = tagPathsFromHtml(decodeHtml(html).text);
        } catch (err) {
          await markFetchUnprocessable(store, row.fetchId, unprocessableReason(err)); // skipped from now on, never retried into the same failure
          out.errors++;
          continue;
        }
        const finalUrl = row.finalUrl ?? row.url;
        const v = interpretPage(
          {
            observation: {
              requestUrl: row.url,
              finalUrl,
              httpStatus: row.httpStatus,
              title: "",
              text: pageText(seq),
              blockSelectors: [],
              noResultsSelectors: [],
            },
            seq,
            error: null,
          },
          engine.definition,
          engine.wrapper,
          { ...DEFAULT_INTERPRET, learn: false },
          engine.previous,
        );
        const offset = (row.page - 1) * engine.definition.resultsPerPage;
        const records: NewRecord[] = v.records.map((r) => ({ url: r.url, title: r.title, snippet: r.snippet, rank: offset + r.rank }));
        const query = row.query;
        const stored = await recordFetch(
          store,
          {
            runId,
            engine: engine.name,
            query,
            page: row.page,
            url: row.url,
            finalUrl,
            status: v.status,
            httpStatus: row.httpStatus,
            detail: `re-extracted from the page kept with fetch ${row.fetchId}: ${v.detail}`,
            startedAt: row.startedAt,
            durationMs: 0,
            contentSha256: row.contentSha256,
          },
          records,
        );
        out.pages++;
        out[v.status === "error" ? "errors" : v.status]++;
        out.newRecords += stored.newRecords;
        out.seenAgain += stored.seenAgain;
      }
    }
  } catch (err) {
    await finishRun(store, runId, "failed", { ...out, error: String(err) });
    throw err;
  }
  await finishRun(store, runId, "completed", out);
  return out;
}
