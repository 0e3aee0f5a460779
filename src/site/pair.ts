/**
 * `bitext site pair`: parallel page pairs of a loaded site by URL keys (kit-ng2007), by links (liu2014 ETS),
 * or by both.
 *
 * `both`: URL keys are near-certain where a site has a naming scheme, and say nothing where it has none;
 * the link method covers every page but is softer. So:
 * 1. URL-key pairs are taken first (competitive union, as `urls`);
 * 2. ETS is computed over the pruned candidates plus the URL pairs, with the URL pairs held at ETS = 1 in
 *    every round: they are anchors whose certainty flows, through S_ext, to the pages around them;
 * 3. the pages no key paired are paired by Algorithm 3 among themselves, but only above a bar the URL pairs
 *    set: what the best wrong partner of one of their pages scores (at its high quantile) — instead of
 *    MAX_P forcing a partner on every leftover page (pages without a translation).
 */
import type { Lexicon } from "../text/index.js";
import { type CandidateOptions, candidatePairs, type Candidates } from "./candidates.js";
import { buildContentIndex } from "./content.js";
import { enhancedSimilarityWithAnchors, type EtsOptions, internalSimilarity, selectPairs } from "./ets.js";
import type { PagePair, PairingMethod, Site } from "./types.js";
import { findUrlPairs, formatKey, type UrlKey, type UrlKeyOptions } from "./url-keys.js";

export interface PairOptions {
  method: PairingMethod;
  /** The lexicon for S_cb (links, both). */
  lexicon?: Lexicon;
  urlKeys?: UrlKeyOptions;
  candidates?: Partial<CandidateOptions>;
  ets?: Partial<EtsOptions>;
  /** Algorithm 3's MAX_P (links; default: the number of pages of the smaller language, as liu2014). */
  maxPairs?: number;
  /** Algorithm 3's MIN_SIM (links; default 0). */
  minSim?: number;
  /** `both`: the quantile q of the calibration (the URL pairs' own ETS at q, their runner-ups' at 1 − q). */
  calibration?: number;
  /** Phase changes and progress within a phase. */
  progress?: (phase: string, done: number, total: number) => void;
}

export const DEFAULT_CALIBRATION = 0.1;

export interface PairResult {
  method: PairingMethod;
  pairs: PagePair[];
  /** URL keys at or above τ, strongest first (urls, both). */
  keys?: UrlKey[];
  stats: PairStats;
}

export interface PairStats {
  pagesA: number;
  pagesB: number;
  /** τ of the URL keys. */
  urlThreshold?: number;
  /** Candidate pairs the link method scored, of all |P_a|·|P_b| pairs and of those passing the size ratio. */
  candidates?: number;
  allPairs?: number;
  sizeOk?: number;
  /** `both`: the ETS a leftover pair had to reach. */
  linkThreshold?: number;
  /** Milliseconds per phase. */
  ms: Record<string, number>;
}

export function pairPages(site: Site, options: PairOptions): PairResult {
  const { pair } = site;
  const ms: Record<string, number> = {};
  const nA = site.pages.filter((p) => p.lang === pair.a).length;
  const nB = site.pages.filter((p) => p.lang === pair.b).length;
  const stats: PairStats = { pagesA: nA, pagesB: nB, ms };
  const timed = <T>(phase: string, f: () => T): T => {
    options.progress?.(phase, 0, 0);
    const t = performance.now();
    const out = f();
    ms[phase] = Math.round(performance.now() - t);
    return out;
  };
  const run: PairRun = { site, options, stats, timed, smaller: Math.min(nA, nB) };

  let urlPairs: PagePair[] = [];
  let keys: UrlKey[] | undefined;
  if (options.method !== "links") {
    ({ urlPairs, keys } = urlKeyPairs(run));
    if (options.method === "urls") return { method: "urls", pairs: urlPairs, keys, stats };
  }
  const scored = linkScores(run, urlPairs);
  if (options.method === "links") {
    const selected = timed("select", () =>
      selectPairs(scored.cands, scored.ets, { maxPairs: options.maxPairs ?? run.smaller, minScore: options.minSim ?? 0 }),
    );
    return { method: "links", pairs: selected.map((s) => ({ a: s.a, b: s.b, score: s.score, via: "links" })), stats };
  }
  return { method: "both", pairs: bothPairs(run, urlPairs, scored), keys: keys ?? [], stats };
}

/** One pairing run: its input, the stats it fills and its phase timer. */
interface PairRun {
  site: Site;
  options: PairOptions;
  stats: PairStats;
  timed: <T>(phase: string, f: () => T) => T;
  /** Pages of the smaller language. */
  smaller: number;
}

/** The link method's scores: ETS of every candidate pair, and what the anchored URL pairs scored on their own. */
interface LinkScores {
  cands: Candidates;
  ets: Float64Array;
  anchorsOwn: Map<number, number>;
}

/** The pairs of the URL keys (kit-ng2007), scored by their key's power over the smaller language's pages. */
function urlKeyPairs(run: PairRun): { urlPairs: PagePair[]; keys: UrlKey[] } {
  const { site, options, stats } = run;
  const found = run.timed("url-keys", () =>
    findUrlPairs(
      site.pages.map((p) => ({ url: p.url, lang: p.lang })),
      site.pair,
      options.urlKeys,
    ),
  );
  stats.urlThreshold = found.threshold;
  const share = Math.max(1, run.smaller);
  const urlPairs = found.pairs.map((p) => ({
    a: p.a,
    b: p.b,
    score: Math.min(1, p.key.power / share),
    via: "urls" as const,
    key: `${p.key.field} ${formatKey(p.key)}`,
    power: p.key.power,
  }));
  return { urlPairs, keys: found.keys };
}

/** liu2014's ETS over the pruned candidates, plus the URL pairs held at ETS = 1 as anchors. */
function linkScores(run: PairRun, urlPairs: readonly PagePair[]): LinkScores {
  const { site, options, stats, timed } = run;
  if (!options.lexicon) throw new Error("pairPages: the link method needs a lexicon");
  const lexicon = options.lexicon;
  const content = timed("content", () => buildContentIndex(site, lexicon));
  let cands = timed("candidates", () => candidatePairs(site, content, options.candidates));
  stats.allPairs = cands.allPairs;
  stats.sizeOk = cands.sizeOk;
  // URL pairs always get scored (they anchor ETS), even when pruning left them out.
  const anchors = new Map<number, number>();
  if (urlPairs.length > 0) {
    cands = withPairs(cands, urlPairs);
    const index = new Map<number, number>();
    for (let k = 0; k < cands.a.length; k++) index.set(cands.a[k]! * site.pages.length + cands.b[k]!, k);
    for (const p of urlPairs) anchors.set(index.get(p.a * site.pages.length + p.b)!, 1);
  }
  stats.candidates = cands.a.length;
  const scored = cands;
  const internal = timed("internal", () =>
    internalSimilarity(site, scored, content, options.ets?.beta, (done) => options.progress?.("internal", done, scored.a.length)),
  );
  const { ets, anchorsOwn } = timed("ets", () =>
    enhancedSimilarityWithAnchors(site, scored, internal.sin, options.ets, anchors.size > 0 ? anchors : undefined),
  );
  return { cands: scored, ets, anchorsOwn };
}

/**
 * both: URL pairs, then leftover pages by ETS above the level the URL pairs calibrate. Without URL pairs
 * there is nothing to calibrate on: it is the link method (MAX_P, MIN_SIM as given).
 */
function bothPairs(run: PairRun, urlPairs: PagePair[], { cands, ets, anchorsOwn }: LinkScores): PagePair[] {
  const { options, stats } = run;
  const linkThreshold =
    options.minSim ?? (urlPairs.length > 0 ? calibratedThreshold(cands, ets, anchorsOwn, options.calibration ?? DEFAULT_CALIBRATION) : 0);
  if (urlPairs.length > 0 && options.minSim === undefined) stats.linkThreshold = linkThreshold;
  const maxPairs = options.maxPairs ?? (urlPairs.length === 0 ? run.smaller : undefined);
  const taken = new Set<number>();
  for (const p of urlPairs) {
    taken.add(p.a);
    taken.add(p.b);
  }
  const leftover = run.timed("select", () =>
    selectPairs(cands, ets, {
      minScore: linkThreshold,
      exclude: taken,
      ...(maxPairs !== undefined ? { maxPairs: Math.max(0, maxPairs - urlPairs.length) } : {}),
    }),
  );
  return urlPairs.concat(leftover.map((s) => ({ a: s.a, b: s.b, score: s.score, via: "links" as const })));
}

/**
 * The ETS a pair of leftover pages must reach in `both`, learnt from the URL pairs: they show what the best
 * wrong partner of a page that has a translation scores (each URL pair's runner-up; high quantile 1 − q)
 * and what a true pair scores (their own ETS; low quantile q). A leftover pair must reach the wrong
 * partners' level — or the true pairs' level, should that be lower.
 */
function calibratedThreshold(cands: Candidates, ets: Float64Array, own: ReadonlyMap<number, number>, q: number): number {
  if (own.size === 0) return 0;
  const anchorA = new Map<number, number>();
  const anchorB = new Map<number, number>();
  for (const k of own.keys()) {
    anchorA.set(cands.a[k]!, k);
    anchorB.set(cands.b[k]!, k);
  }
  const runnerUp = new Map<number, number>();
  for (let k = 0; k < cands.a.length; k++) {
    if (own.has(k)) continue;
    for (const anchor of [anchorA.get(cands.a[k]!), anchorB.get(cands.b[k]!)]) {
      if (anchor !== undefined && ets[k]! > (runnerUp.get(anchor) ?? 0)) runnerUp.set(anchor, ets[k]!);
    }
  }
  const trueLevel = quantile([...own.values()], q);
  if (runnerUp.size === 0) return trueLevel;
  const wrongLevel = quantile([...runnerUp.values()], 1 - q);
  return Math.min(wrongLevel, trueLevel);
}

function withPairs(cands: Candidates, extra: readonly PagePair[]): Candidates {
  const seen = new Set<string>();
  for (let k = 0; k < cands.a.length; k++) seen.add(`${cands.a[k]},${cands.b[k]}`);
  const addA: number[] = [];
  const addB: number[] = [];
  for (const p of extra) {
    if (seen.has(`${p.a},${p.b}`)) continue;
    seen.add(`${p.a},${p.b}`);
    addA.push(p.a);
    addB.push(p.b);
  }
  if (addA.length === 0) return cands;
  const a = new Int32Array(cands.a.length + addA.length);
  const b = new Int32Array(cands.b.length + addB.length);
  a.set(cands.a);
  a.set(addA, cands.a.length);
  b.set(cands.b);
  b.set(addB, cands.b.length);
  return { ...cands, a, b };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))]!;
}
