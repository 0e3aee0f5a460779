import { decodeHTML } from "entities";
import type { TagPathSequence } from "../html/tagpaths.js";
import { extractRecords } from "../wrapper/extract.js";
import { learnWrapper } from "../wrapper/learn.js";
import type { Wrapper, WrapperParams } from "../wrapper/types.js";
import { addCounts, type Counts, emptyCounts, type Scores, scores } from "./metrics.js";

/**
 * `bitext eval records`: precision and recall of extracted record titles against expected records,
 * (a) with a wrapper learned on the page itself and (b) cross-page, with a wrapper learned on another
 * page of the same engine captured within the same period. Titles match one to one, the way
 * `../shared/tools/score_dev.py` scores them: equal after normalisation, or one holding the other and
 * covering at least 60 % of it (engines truncate titles; some expected titles carry the displayed URL).
 */

export interface GoldPage {
  file: string;
  engine: string;
  /** The page's URL (to resolve links), if known. */
  url?: string;
  /** Capture time in seconds since the epoch, if known. */
  capturedAt?: number;
  /** "year": only the capture year is known (cross-page pairs are then pages of the same year). */
  timeKind?: "exact" | "year";
  seq: TagPathSequence;
  /** Expected titles (raw, possibly with markup and entities). */
  titles: string[];
}

/** Titles compare with tags stripped, entities decoded, NFKC, whitespace removed and case folded. */
export function normaliseTitle(title: string): string {
  return decodeHTML(title.replace(/<[^>]*>/g, ""))
    .normalize("NFKC")
    .replace(/[\s\u00a0\u200b\u3000]+/g, "")
    .toLowerCase();
}

/** The share of the longer title the shorter must cover when one holds the other. */
export const CONTAINMENT = 0.6;

export function similarTitles(a: string, b: string): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long.includes(short) && short.length >= CONTAINMENT * long.length;
}

/** Greedy one-to-one matching of normalised titles (each expected title matches once), as score_dev does. */
export function matchTitles(predicted: readonly string[], gold: readonly string[], exact = false): Counts {
  const used = new Array<boolean>(gold.length).fill(false);
  let tp = 0;
  for (const p of predicted) {
    for (let i = 0; i < gold.length; i++) {
      if (!used[i] && (exact ? p !== "" && p === gold[i] : similarTitles(p, gold[i]!))) {
        used[i] = true;
        tp++;
        break;
      }
    }
  }
  return { tp, fp: predicted.length - tp, fn: gold.length - tp };
}

export interface Figures {
  /** Titles matched by containment (the official rule). */
  match: Scores;
  /** Titles matched only when equal. */
  exact: Scores;
}

export interface EngineReport {
  engine: string;
  pages: number;
  self: Figures;
  cross: Figures & { pairs: number };
}

export interface PageReport {
  file: string;
  engine: string;
  self: Counts;
  status: string;
}

export interface RecordsReport {
  periodDays: number;
  engines: EngineReport[];
  overall: { pages: number; self: Figures; cross: Figures & { pairs: number } };
  /** Per page, self-learned (for finding what to fix). */
  pages: PageReport[];
  /** Pages whose wrapper could not be learned, with the reason. */
  failures: Array<{ file: string; reason: string }>;
}

export interface EvaluateOptions {
  /** Two pages are of the same period when captured at most this many days apart (pages known only by year: the same year). */
  periodDays?: number;
  /** Learner parameters (default: the learner's). */
  params?: Partial<WrapperParams>;
  /** Called after each page is learned (progress). */
  onPage?: (file: string) => void;
}

export const DEFAULT_PERIOD_DAYS = 180;

interface Tally {
  match: Counts;
  exact: Counts;
}

const emptyTally = (): Tally => ({ match: emptyCounts(), exact: emptyCounts() });
const addTally = (into: Tally, more: Tally) => {
  addCounts(into.match, more.match);
  addCounts(into.exact, more.exact);
};
const figures = (t: Tally): Figures => ({ match: scores(t.match), exact: scores(t.exact) });

export function samePeriod(a: GoldPage, b: GoldPage, periodDays: number): boolean {
  if (a.capturedAt === undefined || b.capturedAt === undefined) return true;
  if (a.timeKind === "year" || b.timeKind === "year") {
    return new Date(a.capturedAt * 1000).getUTCFullYear() === new Date(b.capturedAt * 1000).getUTCFullYear();
  }
  return Math.abs(a.capturedAt - b.capturedAt) <= periodDays * 86400;
}

export function evaluateRecords(pages: readonly GoldPage[], options: EvaluateOptions = {}): RecordsReport {
  const periodDays = options.periodDays ?? DEFAULT_PERIOD_DAYS;
  const wrappers = new Map<GoldPage, Wrapper | null>();
  const failures: RecordsReport["failures"] = [];
  const gold = new Map(pages.map((p) => [p, p.titles.map(normaliseTitle)] as const));
  for (const page of pages) {
    try {
      const params = options.params ? { params: options.params } : {};
      wrappers.set(page, learnWrapper(page.seq, { engine: page.engine, pageUrl: page.url, file: page.file, ...params }));
    } catch (err) {
      wrappers.set(page, null);
      failures.push({ file: page.file, reason: (err as Error).message });
    }
    options.onPage?.(page.file);
  }
  const count = (wrapper: Wrapper | null, page: GoldPage): Tally & { status: string } => {
    const result = wrapper ? extractRecords(wrapper, page.seq, { pageUrl: page.url }) : null;
    const found = (result?.records ?? []).map((r) => normaliseTitle(r.title));
    const expected = gold.get(page)!;
    return {
      match: matchTitles(found, expected),
      exact: matchTitles(found, expected, true),
      status: result?.status ?? "not learned",
    };
  };

  const engines = [...new Set(pages.map((p) => p.engine))].sort();
  const totalSelf = emptyTally();
  const totalCross = emptyTally();
  const pageReports: PageReport[] = [];
  let totalPairs = 0;
  const reports: EngineReport[] = engines.map((engine) => {
    const group = pages.filter((p) => p.engine === engine);
    const self = emptyTally();
    const cross = emptyTally();
    let pairs = 0;
    for (const page of group) {
      const t = count(wrappers.get(page) ?? null, page);
      addTally(self, t);
      pageReports.push({ file: page.file, engine, self: t.match, status: t.status });
    }
    for (const learnedOn of group) {
      for (const appliedTo of group) {
        if (learnedOn === appliedTo || !samePeriod(learnedOn, appliedTo, periodDays)) continue;
        addTally(cross, count(wrappers.get(learnedOn) ?? null, appliedTo));
        pairs++;
      }
    }
    addTally(totalSelf, self);
    addTally(totalCross, cross);
    totalPairs += pairs;
    return { engine, pages: group.length, self: figures(self), cross: { ...figures(cross), pairs } };
  });
  return {
    periodDays,
    engines: reports,
    overall: { pages: pages.length, self: figures(totalSelf), cross: { ...figures(totalCross), pairs: totalPairs } },
    pages: pageReports,
    failures,
  };
}
