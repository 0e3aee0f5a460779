import type { TagPathSequence } from "../html/index.js";
import { extractRecords } from "./apply.js";
import { learnWrapper } from "./learn.js";
import { findQueryRewriteNotice } from "./query-rewrite.js";
import type { ExtractResult, Wrapper } from "./types.js";

/**
 * Self-healing: when a wrapper no longer reads a page well (a layout mismatch, or far fewer records than its
 * sample page had), a wrapper learned from the page itself is tried and its reading kept if it is better.
 * One decision for the harvest (`serp/interpret`) and for `bitext records --wrapper`.
 */

export interface HealOptions {
  /**
   * A page yields "too few" records below this share of the records on the wrapper's sample page
   * (at least 2): then a re-learned wrapper is tried.
   */
  healShare: number;
  /** A wrapper learned from a page must find at least this many records to be adopted. */
  minLearnedRecords: number;
}

export const DEFAULT_HEAL: HealOptions = { healShare: 0.5, minLearnedRecords: 3 };

/** Whether the wrapper's reading of a page stands: records, at least `healShare` of its sample page's. */
export function readsWell(wrapper: Wrapper, result: ExtractResult, options: HealOptions = DEFAULT_HEAL): boolean {
  const expected = wrapper.clusters[0]?.sampleRecords ?? 10;
  return result.status === "ok" && result.records.length >= Math.max(2, Math.ceil(expected * options.healShare));
}

/** A reading replaces the current one only if it finds more records (at least `minRecords`), every record the current one found among them. */
export function betterReading(fresh: ExtractResult, current: ExtractResult, minRecords: number): boolean {
  if (fresh.status !== "ok" || fresh.records.length < minRecords || fresh.records.length <= current.records.length) return false;
  const urls = new Set(fresh.records.map((r) => r.url));
  return current.records.every((r) => urls.has(r.url));
}

/** A wrapper learned from the page and its reading of that page; null when the page has no record structure. */
export function learnOnPage(
  seq: TagPathSequence,
  options: { engine: string; pageUrl?: string },
): { wrapper: Wrapper; result: ExtractResult } | null {
  let wrapper: Wrapper;
  try {
    wrapper = learnWrapper(seq, { engine: options.engine, pageUrl: options.pageUrl });
  } catch {
    return null; // no record structure at all (a harvest goes on with the next page whatever the learner says)
  }
  return { wrapper, result: extractRecords(wrapper, seq, { pageUrl: options.pageUrl }) };
}

export interface HealedReading {
  /** The reading kept: the wrapper's, or the re-learned wrapper's when that one is better. */
  result: ExtractResult;
  /** The wrapper learned from the page when its reading was kept (null: the given wrapper's reading stands). */
  learned: Wrapper | null;
  /** The given wrapper's own reading (the same object as `result` when nothing was re-learned). */
  strict: ExtractResult;
}

/**
 * Apply the wrapper; when it reads the page poorly, re-learn from the page and keep the better reading. A page
 * the wrapper reads as answering another query (a rewrite or "no results" notice) is trusted as it is.
 */
export function applyWithHealing(
  wrapper: Wrapper,
  seq: TagPathSequence,
  options: { pageUrl?: string; heal?: HealOptions } = {},
): HealedReading {
  const heal = options.heal ?? DEFAULT_HEAL;
  const strict = extractRecords(wrapper, seq, { pageUrl: options.pageUrl });
  const stands = { result: strict, learned: null, strict };
  if (readsWell(wrapper, strict, heal)) return stands;
  if (strict.status === "empty" && findQueryRewriteNotice(seq) !== null) return stands;
  const fresh = learnOnPage(seq, { engine: wrapper.engine, pageUrl: options.pageUrl });
  if (!fresh || !betterReading(fresh.result, strict, heal.minLearnedRecords)) return stands;
  return { result: fresh.result, learned: fresh.wrapper, strict };
}
