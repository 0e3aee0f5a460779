import type { TagPathSequence } from "../html/tagpaths.js";
import type { FetchStatus } from "../store/index.js";
import { extractRecords } from "../wrapper/extract.js";
import { learnWrapper } from "../wrapper/learn.js";
import { findQueryRewriteNotice } from "../wrapper/query-rewrite.js";
import type { ExtractResult, ResultRecord, Wrapper } from "../wrapper/types.js";
import { hardBlockReason, type PageObservation, saysNoResults, softBlockReason } from "./blocks.js";
import type { EngineDefinition } from "./engines.js";

/**
 * What a loaded result page means: records, a genuine "no results" page, a block, or an error —
 * and, when the wrapper no longer fits (a page that is neither blocked nor empty yields too few
 * records), a wrapper re-learned from this very page (self-healing). Pure: the caller stores the
 * verdict and saves the new wrapper.
 */

export interface Verdict {
  status: FetchStatus;
  records: ResultRecord[];
  detail: string;
  /** A wrapper learned from this page, to replace the engine's (null: keep it). */
  learned: Wrapper | null;
  /** An earlier wrapper of the engine that fits this page better than the current one (null: none used). */
  reused: Wrapper | null;
}

export interface InterpretOptions {
  /** Learn / re-learn wrappers from pages (self-healing). */
  learn: boolean;
  /**
   * A page yields "too few" records below this share of the records on the wrapper's sample page
   * (at least 2): then a re-learned wrapper is tried.
   */
  healShare: number;
  /** A wrapper learned from a page must find at least this many records to be adopted. */
  minLearnedRecords: number;
}

export const DEFAULT_INTERPRET: InterpretOptions = { learn: true, healShare: 0.5, minLearnedRecords: 3 };

export interface LoadedResultPage {
  observation: PageObservation;
  seq: TagPathSequence | null;
  error: string | null;
}

export function interpretPage(
  loaded: LoadedResultPage,
  def: EngineDefinition,
  wrapper: Wrapper | null,
  options: InterpretOptions = DEFAULT_INTERPRET,
  /** Earlier wrappers of the engine, newest first: tried before re-learning (pages of two layouts may interleave). */
  earlier: readonly Wrapper[] = [],
): Verdict {
  const obs = loaded.observation;
  if (loaded.error) return verdict("error", loaded.error);
  const hard = hardBlockReason(obs, def.blocks);
  if (hard) return verdict("blocked", hard);
  const seq = loaded.seq;
  if (!seq) return verdict("error", "the page could not be read");
  if (obs.httpStatus !== null && obs.httpStatus >= 400) return verdict("error", `HTTP ${obs.httpStatus}`);
  const pageUrl = obs.finalUrl;

  if (!wrapper) {
    if (!options.learn) return verdict("error", `no wrapper for ${def.engine}: run bitext wrapper learn --engine ${def.engine}`);
    const fresh = tryLearn(seq, def, pageUrl);
    if (fresh && fresh.result.records.length >= options.minLearnedRecords) {
      return { ...ok(fresh.result.records, `wrapper learned from this page (${fresh.result.records.length} records)`), learned: fresh.wrapper };
    }
    return noRecords(obs, def, seq, "no wrapper yet, and no record structure to learn one from");
  }

  const current = extractRecords(wrapper, seq, { pageUrl });
  const expected = wrapper.clusters[0]?.sampleRecords ?? 10;
  const enough = Math.max(2, Math.ceil(expected * options.healShare));
  if (current.status === "ok" && current.records.length >= enough) return ok(current.records, current.detail);

  if (current.records.length === 0) {
    const soft = softBlockReason(obs, def.blocks);
    if (soft) return verdict("blocked", soft);
  }
  if (current.status === "empty") {
    // The engine's layout without records. Trust it when the engine says "no results" or answered
    // another query; otherwise the layout may have changed under the same outer structure: try to re-learn.
    if (saysNoResults(obs, def.noResults) === true) return verdict("empty", "the engine's \"no results\" page");
    if (findQueryRewriteNotice(seq) !== null) return verdict("empty", current.detail);
  }

  for (const older of earlier) {
    const result = extractRecords(older, seq, { pageUrl });
    if (adopt(result, current, 1)) {
      return { ...ok(result.records, `${result.detail}, with the wrapper learned ${older.learnedAt} (an earlier layout)`), reused: older };
    }
  }
  if (options.learn) {
    const fresh = tryLearn(seq, def, pageUrl);
    if (fresh && adopt(fresh.result, current, options.minLearnedRecords)) {
      return {
        ...ok(
          fresh.result.records,
          `wrapper re-learned: the old one gave ${current.records.length} records (${current.detail}), the new one ${fresh.result.records.length}`,
        ),
        learned: fresh.wrapper,
      };
    }
  }
  if (current.status === "ok") return ok(current.records, current.detail);
  if (current.status === "empty") return verdict("empty", current.detail);
  return noRecords(obs, def, seq, current.detail);
}

/** A page with no records for us: a "no results" page, a block we only know by its words, or unrecognised. */
function noRecords(obs: PageObservation, def: EngineDefinition, seq: TagPathSequence, why: string): Verdict {
  const soft = softBlockReason(obs, def.blocks);
  if (soft) return verdict("blocked", soft);
  if (saysNoResults(obs, def.noResults) === true) return verdict("empty", "the engine's \"no results\" page");
  const notice = findQueryRewriteNotice(seq);
  if (notice !== null) return verdict("empty", `the engine answered another query ("${notice}")`);
  return verdict("error", `unrecognised page: ${why}`);
}

/** Adopt a re-learned wrapper only if it finds more records, including every record the old one found. */
function adopt(fresh: ExtractResult, current: ExtractResult, minRecords: number): boolean {
  if (fresh.status !== "ok" || fresh.records.length < minRecords || fresh.records.length <= current.records.length) return false;
  const urls = new Set(fresh.records.map((r) => r.url));
  return current.records.every((r) => urls.has(r.url));
}

function tryLearn(seq: TagPathSequence, def: EngineDefinition, pageUrl: string): { wrapper: Wrapper; result: ExtractResult } | null {
  let wrapper: Wrapper;
  try {
    wrapper = learnWrapper(seq, { engine: def.engine, pageUrl });
  } catch {
    return null; // no record structure at all
  }
  return { wrapper, result: extractRecords(wrapper, seq, { pageUrl }) };
}

function verdict(status: FetchStatus, detail: string): Verdict {
  return { status, records: [], detail, learned: null, reused: null };
}

function ok(records: ResultRecord[], detail: string): Verdict {
  return { status: "ok", records, detail, learned: null, reused: null };
}
