import { decodeHTML } from "entities";
import type { TagPathSequence } from "../html/tagpaths.js";
import { extractRecords } from "../wrapper/extract.js";
import { learnWrapper } from "../wrapper/learn.js";
import type { Wrapper } from "../wrapper/types.js";
import { addCounts, type Counts, emptyCounts, matchMultiset, type Scores, scores } from "./metrics.js";

/**
 * `bitext eval records`: precision and recall of extracted record titles against expected records,
 * (a) with a wrapper learned on the page itself and (b) cross-page, with a wrapper learned on another
 * page of the same engine captured within the same period.
 */

export interface GoldPage {
  file: string;
  engine: string;
  /** The page's URL (to resolve links), if known. */
  url?: string;
  /** Capture time in seconds since the epoch, if known. */
  capturedAt?: number;
  seq: TagPathSequence;
  /** Expected titles (raw, possibly with markup and entities). */
  titles: string[];
}

/** Titles compare with tags stripped, entities decoded, whitespace removed and case folded. */
export function normaliseTitle(title: string): string {
  return decodeHTML(title.replace(/<[^>]*>/g, ""))
    .replace(/[\s\u00a0\u200b\u3000]+/g, "")
    .toLowerCase();
}

export interface EngineReport {
  engine: string;
  pages: number;
  self: Scores;
  cross: Scores & { pairs: number };
}

export interface RecordsReport {
  periodDays: number;
  engines: EngineReport[];
  overall: { pages: number; self: Scores; cross: Scores & { pairs: number } };
  /** Pages whose wrapper could not be learned, with the reason. */
  failures: Array<{ file: string; reason: string }>;
}

export interface EvaluateOptions {
  /** Two pages are of the same period when captured at most this many days apart. */
  periodDays?: number;
  /** Called after each page is learned (progress). */
  onPage?: (file: string) => void;
}

export const DEFAULT_PERIOD_DAYS = 180;

export function evaluateRecords(pages: readonly GoldPage[], options: EvaluateOptions = {}): RecordsReport {
  const periodDays = options.periodDays ?? DEFAULT_PERIOD_DAYS;
  const wrappers = new Map<GoldPage, Wrapper | null>();
  const failures: RecordsReport["failures"] = [];
  for (const page of pages) {
    try {
      wrappers.set(page, learnWrapper(page.seq, { engine: page.engine, pageUrl: page.url, file: page.file }));
    } catch (err) {
      wrappers.set(page, null);
      failures.push({ file: page.file, reason: (err as Error).message });
    }
    options.onPage?.(page.file);
  }
  const count = (wrapper: Wrapper | null, page: GoldPage): Counts => {
    const found = wrapper ? extractRecords(wrapper, page.seq, { pageUrl: page.url }).records : [];
    return matchMultiset(
      found.map((r) => normaliseTitle(r.title)),
      page.titles.map(normaliseTitle),
    );
  };
  const samePeriod = (a: GoldPage, b: GoldPage) =>
    a.capturedAt === undefined || b.capturedAt === undefined || Math.abs(a.capturedAt - b.capturedAt) <= periodDays * 86400;

  const engines = [...new Set(pages.map((p) => p.engine))].sort();
  const totalSelf = emptyCounts();
  const totalCross = emptyCounts();
  let totalPairs = 0;
  const reports: EngineReport[] = engines.map((engine) => {
    const group = pages.filter((p) => p.engine === engine);
    const self = emptyCounts();
    const cross = emptyCounts();
    let pairs = 0;
    for (const page of group) addCounts(self, count(wrappers.get(page) ?? null, page));
    for (const learnedOn of group) {
      for (const appliedTo of group) {
        if (learnedOn === appliedTo || !samePeriod(learnedOn, appliedTo)) continue;
        addCounts(cross, count(wrappers.get(learnedOn) ?? null, appliedTo));
        pairs++;
      }
    }
    addCounts(totalSelf, self);
    addCounts(totalCross, cross);
    totalPairs += pairs;
    return { engine, pages: group.length, self: scores(self), cross: { ...scores(cross), pairs } };
  });
  return {
    periodDays,
    engines: reports,
    overall: { pages: pages.length, self: scores(totalSelf), cross: { ...scores(totalCross), pairs: totalPairs } },
    failures,
  };
}
