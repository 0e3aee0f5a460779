/**
 * `bitext eval extract`: precision, recall and F1 of extracted pairs against gold pairs, per system
 * (feng2011 Table IV), with an exact match (the paper's: both texts identical after trimming) and a
 * lenient match (both texts equal after normalisation: width folding, case, whitespace and punctuation).
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { addCounts, type Counts, emptyCounts, isHeldOut, matchMultiset, type Scores, scores } from "../eval/index.js";
import { UserError } from "../errors.js";
import { readSavedPage } from "../html/index.js";
import { normalizeText } from "../text/index.js";
import { type ExtractOptions, type ExtractSystem, extractFromHtml } from "./extract.js";
import { readGoldPairs } from "./gold.js";
import { DEFAULT_STRUCTURE_OPTIONS, type StructureOptions } from "./structure.js";
import type { SentencePair } from "./types.js";

export type MatchMode = "exact" | "lenient";

export interface PageResult {
  page: string;
  system: ExtractSystem;
  gold: number;
  predicted: number;
  exact: Counts;
  lenient: Counts;
}

export interface SystemResult {
  system: ExtractSystem;
  exact: Scores;
  lenient: Scores;
}

export interface ExtractEvaluation {
  pages: PageResult[];
  systems: SystemResult[];
}

/** Text as the lenient match compares it. */
export function lenientKey(text: string): string {
  return normalizeText(text)
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");
}

function pairKey(a: string, b: string, mode: MatchMode): string {
  return mode === "exact" ? `${a.trim()}\u0000${b.trim()}` : `${lenientKey(a)}\u0000${lenientKey(b)}`;
}

/** Pages with gold in `dir`: every `X.html` (or `.htm`) with an `X.pairs.tsv` beside it. */
export function findGoldPages(dir: string): Array<{ html: string; gold: string }> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    throw new UserError(`${dir}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const out: Array<{ html: string; gold: string }> = [];
  for (const n of names) {
    const m = /^(.*)\.html?$/u.exec(n);
    if (!m) continue;
    const gold = join(dir, `${m[1]}.pairs.tsv`);
    if (existsSync(gold)) out.push({ html: join(dir, n), gold });
  }
  if (out.length === 0) throw new UserError(`${dir}: no page with gold pairs (X.html beside X.pairs.tsv)`);
  return out;
}

export function compareToGold(predicted: readonly SentencePair[], gold: ReadonlyArray<{ a: string; b: string }>, mode: MatchMode): Counts {
  return matchMultiset(
    predicted.map((p) => pairKey(p.a, p.b, mode)),
    gold.map((g) => pairKey(g.a, g.b, mode)),
  );
}

/** Evaluate each system on every gold page of `dir`. */
export function evaluateExtraction(
  dir: string,
  systems: readonly ExtractSystem[],
  options: Partial<ExtractOptions> = {},
  onPage?: () => void,
): ExtractEvaluation {
  const pages: PageResult[] = [];
  const totals = new Map<ExtractSystem, { exact: Counts; lenient: Counts }>();
  for (const s of systems) totals.set(s, { exact: emptyCounts(), lenient: emptyCounts() });
  for (const { html, gold } of findGoldPages(dir)) {
    const goldPage = readGoldPairs(gold);
    const page = readSavedPage(html);
    for (const system of systems) {
      const { pairs } = extractFromHtml(page.text, html, { ...options, pair: goldPage.pair, system });
      const exact = compareToGold(pairs, goldPage.pairs, "exact");
      const lenient = compareToGold(pairs, goldPage.pairs, "lenient");
      const t = totals.get(system)!;
      addCounts(t.exact, exact);
      addCounts(t.lenient, lenient);
      pages.push({ page: basename(html), system, gold: goldPage.pairs.length, predicted: pairs.length, exact, lenient });
    }
    onPage?.();
  }
  return {
    pages,
    systems: systems.map((system) => {
      const t = totals.get(system)!;
      return { system, exact: scores(t.exact), lenient: scores(t.lenient) };
    }),
  };
}

/** One source (folder) of real bilingual pages, scored as `../shared/tools/score_dev.py extract` does. */
export interface SourceResult {
  source: string;
  pages: number;
  /** Distinct predicted pairs (normalised). */
  predicted: number;
  /** Gold lines of the pages' `pairs.tsv`. */
  gold: number;
  tp: number;
  precision: number;
  recall: number;
  f1: number;
}

/** A page with gold: the page, its `pairs.tsv` and, optionally, an alternative gold (a second script). */
export interface RealPage {
  source: string;
  html: string;
  gold: string;
  alt: string | null;
}

/**
 * Pages of a folder of sources (`real/<source>/<page>.html` beside `<page>.pairs.tsv`, maybe
 * `<page>.pairs.alt.tsv`). `exclude` holds paths (or path endings) of held-out pages.
 */
export function findRealPages(base: string, exclude: readonly string[] = []): RealPage[] {
  let sources: string[];
  try {
    sources = readdirSync(base, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (err) {
    throw new UserError(`${base}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const out: RealPage[] = [];
  for (const source of sources) {
    for (const { html, gold } of findGoldPages(join(base, source))) {
      if (isHeldOut(html, exclude)) continue;
      const alt = gold.replace(/\.pairs\.tsv$/u, ".pairs.alt.tsv");
      out.push({ source, html, gold, alt: existsSync(alt) ? alt : null });
    }
  }
  return out;
}

/** score_dev's normalisation: NFKC, whitespace removed, case folded. */
export function devKey(text: string): string {
  return text.normalize("NFKC").replace(/\s+/gu, "").toLowerCase();
}

/** Per source: distinct predicted pairs against pairs.tsv ∪ pairs.alt.tsv; recall against pairs.tsv's lines. */
export function evaluateRealPages(pages: readonly RealPage[], options: Partial<ExtractOptions> = {}, onPage?: () => void): SourceResult[] {
  const bySource = new Map<string, { pages: number; predicted: number; gold: number; tp: number }>();
  for (const p of pages) {
    const main = readGoldPairs(p.gold);
    const goldKeys = new Set<string>();
    for (const g of [...main.pairs, ...(p.alt ? readGoldPairs(p.alt).pairs : [])]) goldKeys.add(`${devKey(g.a)}\u0000${devKey(g.b)}`);
    const { pairs } = extractFromHtml(readSavedPage(p.html).text, p.html, { ...options, pair: main.pair });
    const predicted = new Set(pairs.map((x) => `${devKey(x.a)}\u0000${devKey(x.b)}`));
    let tp = 0;
    for (const k of predicted) if (goldKeys.has(k)) tp++;
    const t = bySource.get(p.source) ?? { pages: 0, predicted: 0, gold: 0, tp: 0 };
    t.pages++;
    t.predicted += predicted.size;
    t.gold += main.pairs.length;
    t.tp += tp;
    bySource.set(p.source, t);
    onPage?.();
  }
  return [...bySource.entries()].map(([source, t]) => {
    const precision = t.predicted ? t.tp / t.predicted : 0;
    const recall = t.gold ? Math.min(1, t.tp / t.gold) : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    return { source, ...t, precision, recall, f1 };
  });
}

/** Parameter settings tried by the leave-one-source-out evaluation (the structural pairing's two thresholds). */
export const STRUCTURE_GRID: ReadonlyArray<Partial<StructureOptions>> = [2.5, 3, 4, 5, 6].flatMap((maxDelta) =>
  [0.4, 0.5, 0.6].map((minFitShare) => ({ maxDelta, minFitShare })),
);

export interface LosoResult {
  source: string;
  /** The setting chosen on the other sources (best mean F over them). */
  chosen: Partial<StructureOptions>;
  /** This source's figures with that setting. */
  result: SourceResult;
}

/**
 * Leave one source out: for each source, the grid setting with the best mean F over the *other* sources,
 * and this source's figures with it. (Each setting is run once over all pages; the folds only choose.)
 */
export function leaveOneSourceOut(pages: readonly RealPage[], onRun?: () => void): LosoResult[] {
  const table = STRUCTURE_GRID.map((setting) => {
    const r = evaluateRealPages(pages, { structure: { ...DEFAULT_STRUCTURE_OPTIONS, ...setting } });
    onRun?.();
    return { setting, bySource: new Map(r.map((s) => [s.source, s])) };
  });
  const sources = [...table[0]!.bySource.keys()];
  return sources.map((source) => {
    let best = table[0]!;
    let bestF = -1;
    for (const row of table) {
      const others = sources.filter((s) => s !== source).map((s) => row.bySource.get(s)!.f1);
      const f = others.length ? others.reduce((x, y) => x + y, 0) / others.length : 0;
      if (f > bestF) {
        best = row;
        bestF = f;
      }
    }
    return { source, chosen: best.setting, result: best.bySource.get(source)! };
  });
}
