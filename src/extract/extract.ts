/**
 * feng2011 end to end on one page: page analyser → seed extractor → wrapper constructor → candidate
 * ranker. Three systems, as in the paper's Table IV:
 * - "feng2011": HTML + language segmentation, wrappers with HTML styles, RWR ranking (the proposed method);
 * - "ranker": language-only segmentation, surface-only wrappers, RWR ranking ("Ranker-based");
 * - "baseline": language-only segmentation, each snippet paired with the next one in the other language
 *   when the length model accepts it, no wrappers, no ranker.
 * And the project's default, "full": structure first (`structure.ts`: the page's own template of parallel
 * units), with feng2011 for pages that have no regular template.
 */
import { EN_ZH, type LanguagePair } from "../text/index.js";
import { pageSnippets } from "./analyse.js";
import { DEFAULT_STRUCTURE_OPTIONS, type StructureOptions, structuralPairs } from "./structure.js";
import { parseTree, type TreeDocument } from "./tree.js";
import { randomWalkWithRestart, type WeightedEdge } from "./rank.js";
import { isSeed, type PairEvidence, PairScorer, type SeedThresholds } from "./seeds.js";
import type { SentencePair, SnippetPair } from "./types.js";
import { adjacentPairs, wrappersOf } from "./wrappers.js";

export type ExtractSystem = "baseline" | "ranker" | "feng2011" | "full";
export const EXTRACT_SYSTEMS: readonly ExtractSystem[] = ["baseline", "ranker", "feng2011", "full"];

export interface ExtractOptions {
  /** The page's two languages (default en–zh). */
  pair: LanguagePair;
  system: ExtractSystem;
  seeds: SeedThresholds;
  /** Candidates whose relevance, relative to the best candidate of the page, is below this are dropped. */
  minRelevance: number;
  /** Seeds are kept below `minRelevance`, down to this (a seed whose wrappers match mostly junk is junk). */
  minSeedRelevance: number;
  /** RWR restart probability. */
  restart: number;
  /** The structural pairing (full system). */
  structure: StructureOptions;
}

/**
 * Defaults. Seed thresholds from tatoeba-cmn-eng.dev (every 10th pair of the longer 70 %): |δ| ≤ 2.5 keeps
 * 98 % of true pairs; overlap ≥ 0.15 keeps 85 % of them and 3 % of mismatched neighbours (seeds must be precise;
 * the wrappers recover what they miss).
 */
export const DEFAULT_EXTRACT_OPTIONS: ExtractOptions = {
  pair: EN_ZH,
  system: "full",
  seeds: { maxDelta: 2.5, minOverlap: 0.15 },
  minRelevance: 0.25,
  minSeedRelevance: 0.05,
  restart: 0.15,
  structure: DEFAULT_STRUCTURE_OPTIONS,
};

/** What happened on a page, for `--json` diagnostics and the evaluation. */
export interface PageStats {
  snippets: number;
  adjacentPairs: number;
  seeds: number;
  wrappers: number;
  candidates: number;
  /** Pairs found by the page's template (structure.ts). */
  templatePairs: number;
  pairs: number;
}

export interface PageExtraction {
  pairs: SentencePair[];
  stats: PageStats;
}

/** Extract the sentence pairs of an HTML page. */
export function extractFromHtml(html: string, sourceUrl: string, options: Partial<ExtractOptions> = {}): PageExtraction {
  return extractFromDocument(parseTree(html), sourceUrl, options);
}

export function extractFromDocument(doc: TreeDocument, sourceUrl: string, options: Partial<ExtractOptions> = {}): PageExtraction {
  const opts: ExtractOptions = { ...DEFAULT_EXTRACT_OPTIONS, ...options };
  if (opts.system === "full") return extractFull(doc, sourceUrl, opts);
  const useHtml = opts.system !== "ranker";
  const { snippets, trailingGap } = pageSnippets(doc, {
    pair: opts.pair,
    segmentation: useHtml ? "html" : "language",
  });
  const page: SnippetPage = {
    snippets,
    trailingGap,
    pairs: adjacentPairs(snippets),
    scorer: new PairScorer(opts.pair),
    useHtml,
    sourceUrl,
    opts,
  };
  const stats: PageStats = {
    snippets: snippets.length,
    adjacentPairs: page.pairs.length,
    seeds: 0,
    wrappers: 0,
    candidates: 0,
    templatePairs: 0,
    pairs: 0,
  };
  const pairs = opts.system === "baseline" ? baselinePairs(page) : rankedPairs(page, stats);
  stats.pairs = pairs.length;
  return { pairs, stats };
}

/** A page cut into snippets, with what the systems share to pair them. */
interface SnippetPage {
  snippets: ReturnType<typeof pageSnippets>["snippets"];
  trailingGap: ReturnType<typeof pageSnippets>["trailingGap"];
  /** Pairs of adjacent snippets in the two languages. */
  pairs: SnippetPair[];
  scorer: PairScorer;
  useHtml: boolean;
  sourceUrl: string;
  opts: ExtractOptions;
}

/**
 * The "full" system: the page's template first. A page with a regular template is its own evidence; one
 * without (pairs inside running text, menus of terms) gets feng2011's seeds and wrappers for the text the
 * templates did not take.
 */
function extractFull(doc: TreeDocument, sourceUrl: string, opts: ExtractOptions): PageExtraction {
  const found = structuralPairs(doc, opts.pair, opts.structure);
  const templ = found.pairs.map(
    (p): SentencePair => ({ langs: opts.pair, a: p.a, b: p.b, score: round3(p.score), method: "template", sourceUrl }),
  );
  const stats: PageStats = {
    snippets: 0,
    adjacentPairs: 0,
    seeds: 0,
    wrappers: 0,
    candidates: 0,
    templatePairs: templ.length,
    pairs: templ.length,
  };
  if (found.regular) return { pairs: templ, stats };
  const rest = extractFromDocument(doc, sourceUrl, { ...opts, system: "feng2011" });
  const used = templ.flatMap((p) => [p.a, p.b]).join("\u0000");
  const extra = rest.pairs.filter((p) => !used.includes(p.a) && !used.includes(p.b));
  const pairs = [...templ, ...extra];
  return { pairs, stats: { ...rest.stats, templatePairs: templ.length, pairs: pairs.length } };
}

function toSentencePair(page: SnippetPage, p: SnippetPair, score: number, method: SentencePair["method"]): SentencePair {
  const langs = page.opts.pair;
  const [a, b] = p.first.lang === langs.a ? [p.first, p.second] : [p.second, p.first];
  return { langs, a: a.text, b: b.text, score, method, sourceUrl: page.sourceUrl };
}

/** The baseline: each snippet paired with the next one in the other language when the length model accepts it. */
function baselinePairs(page: SnippetPage): SentencePair[] {
  const out: SentencePair[] = [];
  let lastUsed = -1;
  for (const p of page.pairs) {
    if (p.first.index <= lastUsed) continue;
    const e = page.scorer.evidence(p);
    if (Math.abs(e.delta) > page.opts.seeds.maxDelta) continue;
    out.push(toSentencePair(page, p, e.lengthProbability, "adjacent"));
    lastUsed = p.second.index;
  }
  return out;
}

/** Seeds, the wrappers they derive and the candidates those wrappers match. */
interface SeedsAndWrappers {
  evidence: Map<SnippetPair, PairEvidence>;
  /** The keys of the wrappers of every adjacent pair. */
  wrapperKeys: Map<SnippetPair, string[]>;
  seeds: SnippetPair[];
  /** The seeds' wrappers, numbered. */
  wrapperIds: Map<string, number>;
  candidates: SnippetPair[];
}

function seedsAndWrappers(page: SnippetPage): SeedsAndWrappers {
  const { pairs, snippets, opts } = page;
  const evidence = new Map<SnippetPair, PairEvidence>();
  for (const p of pairs) evidence.set(p, page.scorer.evidence(p));
  const after = (p: SnippetPair): readonly string[] => snippets[p.second.index + 1]?.gapBefore ?? page.trailingGap;
  const wrapperKeys = new Map<SnippetPair, string[]>();
  for (const p of pairs)
    wrapperKeys.set(
      p,
      wrappersOf(p, after(p), page.useHtml).map((w) => w.key),
    );
  // A snippet translates one neighbour at most: of two eligible seeds sharing a snippet, the one with more
  // word overlap is kept (in a table whose rows all say "… error / …错误", row pairs beat cross-row pairs).
  const eligible = pairs.filter((p) => isSeed(evidence.get(p)!, opts.seeds)).map((pair) => ({ pair }));
  const seeds = bestMatching(eligible, (s) => evidence.get(s.pair)!.overlap).map((s) => s.pair);
  const wrapperIds = new Map<string, number>();
  for (const s of seeds) for (const k of wrapperKeys.get(s)!) if (!wrapperIds.has(k)) wrapperIds.set(k, wrapperIds.size);
  const candidates = pairs.filter((p) => wrapperKeys.get(p)!.some((k) => wrapperIds.has(k)));
  return { evidence, wrapperKeys, seeds, wrapperIds, candidates };
}

/** feng2011 and the ranker system: seeds → wrappers → candidates, ranked by RWR. */
function rankedPairs(page: SnippetPage, stats: PageStats): SentencePair[] {
  const found = seedsAndWrappers(page);
  stats.seeds = found.seeds.length;
  stats.wrappers = found.wrapperIds.size;
  stats.candidates = found.candidates.length;
  if (found.seeds.length === 0) return [];
  return chooseCandidates(page, found, candidateRelevance(found, page.opts));
}

/** RWR relevance of every candidate on the graph of feng2011 Table III: page ⇄ seeds ⇄ wrappers ⇄ candidates. */
function candidateRelevance(found: SeedsAndWrappers, opts: ExtractOptions): number[] {
  const { seeds, wrapperIds, candidates, wrapperKeys, evidence } = found;
  const PAGE = 0;
  const seedNode = (i: number) => 1 + i;
  const wrapperNode = (i: number) => 1 + seeds.length + i;
  const candidateNode = (i: number) => 1 + seeds.length + wrapperIds.size + i;
  const nodeCount = 1 + seeds.length + wrapperIds.size + candidates.length;
  const edges: WeightedEdge[] = [];
  const link = (from: number, to: number, weight: number, back = 1) => {
    edges.push({ from, to, weight });
    edges.push({ from: to, to: from, weight: back });
  };
  for (const [i, s] of seeds.entries()) {
    link(PAGE, seedNode(i), 1); // find / find⁻¹
    for (const k of wrapperKeys.get(s)!) link(seedNode(i), wrapperNode(wrapperIds.get(k)!), 1); // derive / derive⁻¹
  }
  for (const [i, c] of candidates.entries()) {
    // extract / extract⁻¹; a wrapper passes on less to candidates whose lengths do not fit.
    const weight = lengthFit(evidence.get(c)!, opts.seeds.maxDelta);
    for (const k of wrapperKeys.get(c)!) {
      const w = wrapperIds.get(k);
      if (w !== undefined) link(wrapperNode(w), candidateNode(i), weight);
    }
  }
  const relevance = randomWalkWithRestart(
    nodeCount,
    edges,
    seeds.map((_, i) => seedNode(i)),
    { restart: opts.restart },
  );
  return candidates.map((_, i) => relevance[candidateNode(i)]!);
}

/** The candidates kept by their relevance (`raw`, per candidate), at most one pair per snippet, in page order. */
function chooseCandidates(page: SnippetPage, found: SeedsAndWrappers, raw: number[]): SentencePair[] {
  const { opts } = page;
  const { candidates, seeds, evidence } = found;
  // Relevance relative to the page's best candidate. A wrapper passes the mass of its seeds to all its
  // candidates, so a candidate's relevance is roughly the share of seeds among its wrapper's candidates: near
  // the best for `langs_en`/`langs_cn` items, tiny for a table-cell wrapper that one accidental seed learned
  // and that matches two hundred cells of a technical page.
  const best = Math.max(...raw);
  const scored = candidates.map((c, i) => ({ pair: c, score: best > 0 ? raw[i]! / best : 0 }));
  const seedSet = new Set(seeds);
  // Seeds stay whatever their rank: they carry their own evidence (length and dictionary), and on a page
  // where their wrapper also matches look-alike junk (a three-column "code | English | 中文" error table
  // among "name | String | 描述" parameter tables) their relevance is diluted with the junk's.
  const kept = scored.filter((s) => s.score >= opts.minRelevance || (seedSet.has(s.pair) && s.score >= opts.minSeedRelevance));
  // Where two candidates compete for a snippet, dictionary evidence counts too: up to 3× for twice the seed overlap.
  const chosen = bestMatching(kept, (s) => s.score * (1 + Math.min(2, evidence.get(s.pair)!.overlap / opts.seeds.minOverlap)));
  chosen.sort((x, y) => x.pair.first.index - y.pair.first.index);
  return chosen.map((c) => toSentencePair(page, c.pair, round3(c.score), seedSet.has(c.pair) ? "seed" : "wrapper"));
}

/**
 * Each snippet goes into one pair at most. Candidates are adjacent snippets, so the choice is a matching
 * on a path: dynamic programming picks the set of non-overlapping candidates with the largest total weight.
 * In `E1 C1 E2 C2 …` this prefers the n pairs (Ei, Ci) to the n − 1 pairs (Ci, Ei+1) when both look alike.
 */
export function bestMatching<T extends { pair: SnippetPair }>(candidates: readonly T[], weight: (c: T) => number): T[] {
  const byFirst = new Map<number, T>();
  let last = -1;
  for (const c of candidates) {
    byFirst.set(c.pair.first.index, c);
    last = Math.max(last, c.pair.second.index);
  }
  // best[i]: the best total over snippets 0 … i−1; take[i]: whether it ends with the pair (i−2, i−1).
  const best = new Float64Array(last + 2);
  const take = new Uint8Array(last + 2);
  for (let i = 1; i <= last + 1; i++) {
    best[i] = best[i - 1]!;
    const c = i >= 2 ? byFirst.get(i - 2) : undefined;
    if (c && best[i - 2]! + weight(c) > best[i]!) {
      best[i] = best[i - 2]! + weight(c);
      take[i] = 1;
    }
  }
  const out: T[] = [];
  for (let i = last + 1; i >= 1; ) {
    if (take[i]) {
      out.push(byFirst.get(i - 2)!);
      i -= 2;
    } else i--;
  }
  return out.reverse();
}

/** 1 within the seed tolerance, falling off quadratically beyond it (to 1/2 at twice the tolerance). */
function lengthFit(e: PairEvidence, maxDelta: number): number {
  const excess = Math.max(0, Math.abs(e.delta) - maxDelta) / maxDelta;
  return 1 / (1 + excess * excess);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
