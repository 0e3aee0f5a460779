import type { TagPathSequence } from "../html/index.js";
import type { FetchStatus } from "../store/index.js";
import { betterReading, DEFAULT_HEAL, extractRecords, type HealOptions, learnOnPage, readsWell } from "../wrapper/index.js";
import { findQueryRewriteNotice } from "../wrapper/index.js";
import type { LayoutMatch, ResultRecord, Wrapper } from "../wrapper/index.js";
import { consentReason, hardBlockReason, type PageObservation, saysNoResults, softBlockReason, softConsentReason } from "./blocks.js";
import type { EngineDefinition } from "./engines.js";
import type { FailureKind } from "./failures.js";

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
  /** Why the page failed (blocked or error), by kind; null for ok and empty pages. */
  cause: FailureKind | null;
  /** How the engine's current wrapper matched the page, when its reading is the verdict's (the health watch reads it). */
  match?: LayoutMatch | null;
  /** The failure will not go away by asking again (an HTTP 4xx other than 408 and 429): not retried. */
  permanent?: boolean;
}

/** When to heal (`healShare`, `minLearnedRecords`): the wrapper layer's decision, shared with `bitext records`. */
export interface InterpretOptions extends HealOptions {
  /** Learn / re-learn wrappers from pages (self-healing). */
  learn: boolean;
}

export const DEFAULT_INTERPRET: InterpretOptions = { learn: true, ...DEFAULT_HEAL };

export interface LoadedResultPage {
  observation: PageObservation;
  seq: TagPathSequence | null;
  error: string | null;
  /** The kind of `error` (a network failure unless said otherwise). */
  errorKind?: FailureKind | null;
}

/**
 * The page's deadline, checked between the steps of interpretation (each step — extraction with one
 * wrapper, learning one — runs to its end; the page-size caps bound a single step).
 */
export interface Deadline {
  passed(): boolean;
  /** For the message: the deadline in seconds. */
  seconds: number;
}

export function interpretPage(
  loaded: LoadedResultPage,
  def: EngineDefinition,
  wrapper: Wrapper | null,
  options: InterpretOptions = DEFAULT_INTERPRET,
  /** Earlier wrappers of the engine, newest first: tried before re-learning (pages of two layouts may interleave). */
  earlier: readonly Wrapper[] = [],
  deadline: Deadline | null = null,
): Verdict {
  const obs = loaded.observation;
  if (loaded.error) return failed(loaded.errorKind ?? "network", loaded.error);
  const consent = consentReason(obs, def.consent);
  if (consent) return failed("consent", consent);
  const hard = hardBlockReason(obs, def.blocks);
  if (hard) return failed("blocked", hard);
  const seq = loaded.seq;
  if (!seq) return failed("layout", "the page could not be read");
  if (obs.httpStatus !== null && obs.httpStatus >= 400) {
    const v = failed("http", `HTTP ${obs.httpStatus} from ${hostOf(obs.finalUrl)}`);
    return isPermanentStatus(obs.httpStatus) ? { ...v, detail: `${v.detail} (permanent: not retried)`, permanent: true } : v;
  }
  const late = () =>
    deadline?.passed() ? failed("timeout", `timeout: page not processed within ${deadline.seconds} s (interpreting the page)`) : null;
  const pageUrl = obs.finalUrl;

  if (!wrapper) {
    if (!options.learn) return failed("layout", `no wrapper for ${def.engine}: learn one from a sample page first`);
    const fresh = learnOnPage(seq, { engine: def.engine, pageUrl });
    if (fresh && fresh.result.records.length >= options.minLearnedRecords) {
      return {
        ...ok(fresh.result.records, `wrapper learned from this page (${fresh.result.records.length} records)`),
        learned: fresh.wrapper,
      };
    }
    return noRecords(obs, def, seq, "no wrapper yet, and no record structure to learn one from");
  }

  const current = extractRecords(wrapper, seq, { pageUrl });
  if (readsWell(wrapper, current, options)) return { ...ok(current.records, current.detail), match: current.match ?? null };

  if (current.records.length === 0) {
    const soft = softFailure(obs, def);
    if (soft) return soft;
  }
  if (current.status === "empty") {
    // The engine's layout without records. Trust it when the engine says "no results" or answered
    // another query; otherwise the layout may have changed under the same outer structure: try to re-learn.
    if (saysNoResults(obs, def.noResults) === true) return verdict("empty", 'the engine\'s "no results" page');
    if (findQueryRewriteNotice(seq) !== null) return verdict("empty", current.detail);
  }

  for (const older of earlier) {
    const over = late();
    if (over) return over;
    const result = extractRecords(older, seq, { pageUrl });
    if (betterReading(result, current, 1)) {
      return { ...ok(result.records, `${result.detail}, with the wrapper learned ${older.learnedAt} (an earlier layout)`), reused: older };
    }
  }
  if (options.learn) {
    const over = late();
    if (over) return over;
    const fresh = learnOnPage(seq, { engine: def.engine, pageUrl });
    if (fresh && betterReading(fresh.result, current, options.minLearnedRecords)) {
      return {
        ...ok(
          fresh.result.records,
          `wrapper re-learned: the old one gave ${current.records.length} records (${current.detail}), the new one ${fresh.result.records.length}`,
        ),
        learned: fresh.wrapper,
      };
    }
  }
  if (current.status === "ok") return { ...ok(current.records, current.detail), match: current.match ?? null };
  if (current.status === "empty") return verdict("empty", current.detail);
  return noRecords(obs, def, seq, current.detail);
}

/** A page with no records for us: a "no results" page, a block we only know by its words, or unrecognised. */
function noRecords(obs: PageObservation, def: EngineDefinition, seq: TagPathSequence, why: string): Verdict {
  const soft = softFailure(obs, def);
  if (soft) return soft;
  if (saysNoResults(obs, def.noResults) === true) return verdict("empty", 'the engine\'s "no results" page');
  const notice = findQueryRewriteNotice(seq);
  if (notice !== null) return verdict("empty", `the engine answered another query ("${notice}")`);
  return failed("layout", `unrecognised page: ${why}`);
}

/** A page without records that reads like a consent interstitial or a block page. */
function softFailure(obs: PageObservation, def: EngineDefinition): Verdict | null {
  const consent = softConsentReason(obs, def.consent);
  if (consent) return failed("consent", consent);
  const block = softBlockReason(obs, def.blocks);
  return block ? failed("blocked", block) : null;
}

/** Client errors are the request's fault and stay so, except a request timeout (408) and a rate limit (429). */
export function isPermanentStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function verdict(status: FetchStatus, detail: string): Verdict {
  return { status, records: [], detail, learned: null, reused: null, cause: null };
}

/** A blocked page (blocks and consent pages) or an error, with its cause. */
function failed(cause: FailureKind, detail: string): Verdict {
  const status: FetchStatus = cause === "blocked" || cause === "consent" ? "blocked" : "error";
  return { status, records: [], detail, learned: null, reused: null, cause };
}

function ok(records: ResultRecord[], detail: string): Verdict {
  return { status: "ok", records, detail, learned: null, reused: null, cause: null };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
