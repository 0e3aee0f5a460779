import { decodeHTML } from "entities";
import type { TagPathSequence } from "../html/index.js";
import { addCounts, type Counts, emptyCounts, type Scores, scores } from "../eval/index.js";
import { extractRecords } from "./apply.js";
import { learnWrapper } from "./learn.js";
import type { Wrapper, WrapperParams } from "./types.js";

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

/** Cross-page figures, with how many pairs were refused as a layout mismatch (their expected titles count as missed). */
export type CrossFigures = Figures & { pairs: number; refused: number };

export interface EngineReport {
  engine: string;
  pages: number;
  self: Figures;
  cross: CrossFigures;
  /** With `folds: "engine"`: every other engine's wrappers applied to this engine's pages. */
  foreign?: ForeignFigures;
}

/**
 * Leave-one-engine-out: the engine's pages are read with wrappers learned on every other engine's pages only.
 * They should all be refused (mismatch); `records` counts what was taken anyway, `matched` how many of those
 * happen to be expected titles.
 */
export interface ForeignFigures {
  pairs: number;
  mismatch: number;
  empty: number;
  records: number;
  matched: number;
}

export interface PageReport {
  file: string;
  engine: string;
  self: Counts;
  status: string;
}

export interface PairReport {
  engine: string;
  /** The page the wrapper was learned on. */
  learnedOn: string;
  /** The page it was applied to. */
  appliedTo: string;
  counts: Counts;
  status: string;
  /** Why records were refused (a mismatch), or what was found. */
  detail: string;
}

export interface RecordsReport {
  periodDays: number;
  engines: EngineReport[];
  overall: { pages: number; self: Figures; cross: CrossFigures };
  /** Per page, self-learned (for finding what to fix). */
  pages: PageReport[];
  /** Per cross-page pair (wrapper learned on one page, applied to another of the same engine and period). */
  pairs: PairReport[];
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
  /** "engine": also apply every other engine's wrappers to each engine's pages (leave-one-engine-out). */
  folds?: "engine";
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

/** What scoring a set of pages needs: each page's learned wrapper (null: learning failed) and expected titles. */
interface ScoringContext {
  wrappers: Map<GoldPage, Wrapper | null>;
  gold: Map<GoldPage, string[]>;
}

type PairTally = Tally & { status: string; detail: string };

function learnEach(
  pages: readonly GoldPage[],
  options: EvaluateOptions,
): { wrappers: Map<GoldPage, Wrapper | null>; failures: RecordsReport["failures"] } {
  const wrappers = new Map<GoldPage, Wrapper | null>();
  const failures: RecordsReport["failures"] = [];
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
  return { wrappers, failures };
}

/** The titles a wrapper finds on a page, matched against the page's expected ones. */
function scorePair(ctx: ScoringContext, wrapper: Wrapper | null, page: GoldPage): PairTally {
  const result = wrapper ? extractRecords(wrapper, page.seq, { pageUrl: page.url }) : null;
  const found = (result?.records ?? []).map((r) => normaliseTitle(r.title));
  const expected = ctx.gold.get(page)!;
  return {
    match: matchTitles(found, expected),
    exact: matchTitles(found, expected, true),
    status: result?.status ?? "not learned",
    detail: result?.detail ?? "",
  };
}

/** One engine's self-learned and cross-page tallies; its page and pair reports are appended to `out`. */
function scoreEngine(
  ctx: ScoringContext,
  engine: string,
  group: readonly GoldPage[],
  periodDays: number,
  out: { pages: PageReport[]; pairs: PairReport[] },
): { self: Tally; cross: Tally; pairs: number; refused: number } {
  const self = emptyTally();
  const cross = emptyTally();
  let pairs = 0;
  let refused = 0;
  for (const page of group) {
    const t = scorePair(ctx, ctx.wrappers.get(page) ?? null, page);
    addTally(self, t);
    out.pages.push({ file: page.file, engine, self: t.match, status: t.status });
  }
  for (const learnedOn of group) {
    for (const appliedTo of group) {
      if (learnedOn === appliedTo || !samePeriod(learnedOn, appliedTo, periodDays)) continue;
      const t = scorePair(ctx, ctx.wrappers.get(learnedOn) ?? null, appliedTo);
      addTally(cross, t);
      out.pairs.push({ engine, learnedOn: learnedOn.file, appliedTo: appliedTo.file, counts: t.match, status: t.status, detail: t.detail });
      pairs++;
      if (t.status === "mismatch") refused++;
    }
  }
  return { self, cross, pairs, refused };
}

/** Leave-one-engine-out: the held-out engine's pages read with every other engine's wrappers. */
function foreignFigures(ctx: ScoringContext, others: readonly GoldPage[], group: readonly GoldPage[]): ForeignFigures {
  const f: ForeignFigures = { pairs: 0, mismatch: 0, empty: 0, records: 0, matched: 0 };
  for (const learnedOn of others) {
    const wrapper = ctx.wrappers.get(learnedOn);
    if (!wrapper) continue;
    for (const page of group) {
      const result = extractRecords(wrapper, page.seq, { pageUrl: page.url });
      f.pairs++;
      if (result.status === "mismatch") f.mismatch++;
      if (result.status === "empty") f.empty++;
      f.records += result.records.length;
      f.matched += matchTitles(
        result.records.map((r) => normaliseTitle(r.title)),
        ctx.gold.get(page)!,
      ).tp;
    }
  }
  return f;
}

export function evaluateRecords(pages: readonly GoldPage[], options: EvaluateOptions = {}): RecordsReport {
  const periodDays = options.periodDays ?? DEFAULT_PERIOD_DAYS;
  const { wrappers, failures } = learnEach(pages, options);
  const ctx: ScoringContext = { wrappers, gold: new Map(pages.map((p) => [p, p.titles.map(normaliseTitle)] as const)) };
  const out = { pages: [] as PageReport[], pairs: [] as PairReport[] };
  const totalSelf = emptyTally();
  const totalCross = emptyTally();
  let totalPairs = 0;
  let totalRefused = 0;
  const engines = [...new Set(pages.map((p) => p.engine))].sort();
  const reports: EngineReport[] = engines.map((engine) => {
    const group = pages.filter((p) => p.engine === engine);
    const { self, cross, pairs, refused } = scoreEngine(ctx, engine, group, periodDays, out);
    addTally(totalSelf, self);
    addTally(totalCross, cross);
    totalPairs += pairs;
    totalRefused += refused;
    const report: EngineReport = { engine, pages: group.length, self: figures(self), cross: { ...figures(cross), pairs, refused } };
    if (options.folds === "engine")
      report.foreign = foreignFigures(
        ctx,
        pages.filter((p) => p.engine !== engine),
        group,
      );
    return report;
  });
  return {
    periodDays,
    engines: reports,
    overall: { pages: pages.length, self: figures(totalSelf), cross: { ...figures(totalCross), pairs: totalPairs, refused: totalRefused } },
    pages: out.pages,
    pairs: out.pairs,
    failures,
  };
}
