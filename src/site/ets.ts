/**
 * liu2014's Enhanced Translation Similarity over the candidate pairs of a site:
 * - S_in = β·S_cb + (1−β)·S_struct (Eq. 2), S_struct = LCS of the tag sequences / their average length;
 * - S_ext(e, c) by Algorithm 1: greedy one-to-one matching of e's and c's neighbours (pages linking to or
 *   linked from the page, within its language) on the previous ETS, 2·Σ / (|PG(e)| + |PG(c)|);
 * - ETS = α·S_ext + (1−α)·S_in (Eq. 1), iterated (Algorithm 2), starting from ETS⁰ = S_in; where a page has
 *   too few neighbours to judge S_ext (`minNeighbours`), α shrinks towards 0 and ETS falls back to S_in;
 * - pairs by Algorithm 3: the best remaining pair, each page once, until MAX_P pairs or ETS < MIN_SIM.
 * Pairs outside the candidates have ETS 0. Optional page weights (Eq. 6) discount popular neighbours.
 */
import type { Candidates } from "./candidates.js";
import type { ContentIndex } from "./content.js";
import { lcsLength } from "./lcs.js";
import type { Site } from "./types.js";

export type PageWeighting = "none" | "scale" | "drop";

export interface EtsOptions {
  /** Weight of the external similarity in ETS (Eq. 1). */
  alpha: number;
  /** Weight of the content similarity in S_in (Eq. 2). */
  beta: number;
  /** Iterations of Algorithm 2 (liu2014: converged after 3). */
  iterations: number;
  /**
   * Page weights (Eq. 6), w(p) = log((N + c) / (Freq(p) + c)): "scale" weighs each matched neighbour pair by
   * its pages' mean weight (liu2014's Weight 1), "drop" removes neighbours linked from more than `dropShare`
   * of the site's pages (Weight 2), "none" is the plain method.
   */
  weighting: PageWeighting;
  /** Smoothing constant c of Eq. 6. */
  weightSmoothing: number;
  /** For "drop": neighbours linked from more than this share of pages are left out. */
  dropShare: number;
  /**
   * Neighbours a page needs before S_ext is trusted at full weight α. A pair whose sparser page has m < this
   * neighbours gets α·m/minNeighbours (0 neighbours: ETS = S_in): with no or one neighbour S_ext is 0 or
   * rests on a single link, and would hold every pair of a sparsely linked page down to (1 − α)·S_in,
   * below the pairs of well-linked pages, whatever their content and structure say. 0: liu2014's plain ETS.
   */
  minNeighbours: number;
}

export const DEFAULT_ETS_OPTIONS: Readonly<EtsOptions> = Object.freeze({
  alpha: 0.6,
  beta: 0.6,
  iterations: 3,
  weighting: "none",
  weightSmoothing: 1,
  dropShare: 0.5,
  minNeighbours: 1,
});

/** S_cb, S_struct and S_in of each candidate pair. */
export interface InternalScores {
  scb: Float64Array;
  struct: Float64Array;
  sin: Float64Array;
}

/** S_struct(e, c): LCS of the tag sequences over their average length. */
export function structuralSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const avg = (a.length + b.length) / 2;
  return avg === 0 ? 0 : lcsLength(a, b) / avg;
}

export function internalSimilarity(
  site: Site,
  cands: Candidates,
  content: ContentIndex,
  beta = DEFAULT_ETS_OPTIONS.beta,
  onProgress?: (done: number) => void,
): InternalScores {
  const n = cands.a.length;
  const scb = new Float64Array(n);
  const struct = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const a = cands.a[k]!;
    const b = cands.b[k]!;
    scb[k] = content.scb(a, b);
    struct[k] = structuralSimilarity(site.pages[a]!.tags, site.pages[b]!.tags);
    sin[k] = beta * scb[k]! + (1 - beta) * struct[k]!;
    if (onProgress && (k & 1023) === 1023) onProgress(k + 1);
  }
  onProgress?.(n);
  return { scb, struct, sin };
}

/** Neighbours of each page: pages linking to it or linked from it, in the same language, itself excluded. */
export function neighbours(site: Site): number[][] {
  const sets = site.pages.map(() => new Set<number>());
  site.pages.forEach((p, i) => {
    for (const j of p.links) {
      const q = site.pages[j]!;
      if (q.lang !== p.lang || i === j) continue;
      sets[i]!.add(j);
      sets[j]!.add(i);
    }
  });
  return sets.map((s) => [...s].sort((x, y) => x - y));
}

/** Eq. 6: w(p) = log((N + c) / (Freq(p) + c)), Freq(p) = pages linking to p, N = pages of the site. */
export function pageWeights(site: Site, smoothing = DEFAULT_ETS_OPTIONS.weightSmoothing): Float64Array {
  const freq = new Int32Array(site.pages.length);
  for (const p of site.pages) for (const j of p.links) freq[j]!++;
  const N = site.pages.length;
  return Float64Array.from(freq, (f) => Math.log((N + smoothing) / (f + smoothing)));
}

/** Algorithm 2: ETS of every candidate pair after `iterations` rounds. */
export function enhancedSimilarity(
  site: Site,
  cands: Candidates,
  sin: Float64Array,
  options: Partial<EtsOptions> = {},
  fixed?: ReadonlyMap<number, number>,
): Float64Array {
  return enhancedSimilarityWithAnchors(site, cands, sin, options, fixed).ets;
}

/**
 * Algorithm 2 with anchors: the candidate pairs in `fixed` keep their given ETS in every round (pairs known
 * from elsewhere, e.g. URL keys, whose certainty then flows to their neighbours). `anchorsOwn` is what ETS
 * the anchors would have had in the last round by their own evidence.
 */
export function enhancedSimilarityWithAnchors(
  site: Site,
  cands: Candidates,
  sin: Float64Array,
  options: Partial<EtsOptions> = {},
  fixed?: ReadonlyMap<number, number>,
): { ets: Float64Array; anchorsOwn: Map<number, number> } {
  const opts = { ...DEFAULT_ETS_OPTIONS, ...options };
  const round = new EtsRound(neighbourGraph(site, cands, opts), cands, sin, opts);
  const anchorsOwn = new Map<number, number>();
  let prev = Float64Array.from(sin);
  if (fixed) for (const [k, v] of fixed) prev[k] = v;
  let next = new Float64Array(cands.a.length);
  for (let it = 0; it < opts.iterations; it++) {
    round.run(prev, next);
    if (fixed) {
      for (const [k, v] of fixed) {
        anchorsOwn.set(k, next[k]!);
        next[k] = v;
      }
    }
    [prev, next] = [next, prev];
  }
  return { ets: prev, anchorsOwn };
}

/** The neighbour graph ETS walks, with the page weights and the candidates indexed by page. */
interface NeighbourGraph {
  nb: number[][];
  /** Whether matched neighbour pairs are weighted ("scale"), and each page's weight (1 when not). */
  scaled: boolean;
  w: (p: number) => number;
  /** Candidate indices by a page (to walk x's candidates) and by b page (to process one c at a time). */
  byA: Array<number[] | undefined>;
  byB: Array<number[] | undefined>;
  /** Sum of the weights of a page's neighbours (|PG(p)| unweighted). */
  weightSum: Float64Array;
  /** Candidates reachable through a page's neighbours: the work of walking Algorithm 1 from its side. */
  walkCost: Float64Array;
}

function neighbourGraph(site: Site, cands: Candidates, opts: EtsOptions): NeighbourGraph {
  const nPages = site.pages.length;
  let nb = neighbours(site);
  const weights = opts.weighting === "none" ? null : pageWeights(site, opts.weightSmoothing);
  if (opts.weighting === "drop") {
    const freq = new Int32Array(nPages);
    for (const p of site.pages) for (const j of p.links) freq[j]!++;
    const limit = opts.dropShare * nPages;
    nb = nb.map((list) => list.filter((j) => freq[j]! <= limit));
  }
  const scaled = opts.weighting === "scale" && weights !== null;
  const w = (p: number) => (scaled ? weights![p]! : 1);
  const byA = groupBy(cands.a, nPages);
  const byB = groupBy(cands.b, nPages);
  const weightSum = Float64Array.from(nb, (list) => list.reduce((s, p) => s + w(p), 0));
  const walkCost = Float64Array.from(nb, (list) => list.reduce((s, x) => s + (byA[x]?.length ?? 0) + (byB[x]?.length ?? 0), 0));
  return { nb, scaled, w, byA, byB, weightSum, walkCost };
}

/** One round of Algorithm 2 (ETS from the previous round's), with the scratch arrays reused across rounds. */
class EtsRound {
  private readonly nPages: number;
  private readonly inPGc: Int32Array;
  private readonly inPGe: Int32Array;
  private readonly usedA: Int32Array;
  private readonly usedB: Int32Array;
  private mark = 0;
  private stamp = 0;
  /** Candidates ranked by the previous ETS (best first): sorting ranks (typed, numeric) replaces sorting by score. */
  private readonly byRank: Int32Array;
  private readonly rankOf: Int32Array;
  private found = new Int32Array(1024);

  constructor(
    private readonly graph: NeighbourGraph,
    private readonly cands: Candidates,
    private readonly sin: Float64Array,
    private readonly opts: EtsOptions,
  ) {
    this.nPages = graph.nb.length;
    this.inPGc = new Int32Array(this.nPages).fill(-1);
    this.usedA = new Int32Array(this.nPages).fill(-1);
    this.usedB = new Int32Array(this.nPages).fill(-1);
    this.inPGe = new Int32Array(this.nPages);
    this.byRank = new Int32Array(cands.a.length);
    this.rankOf = new Int32Array(cands.a.length);
  }

  /** ETS of every candidate into `next`, from `prev`. */
  run(prev: Float64Array, next: Float64Array): void {
    const order = Array.from(this.byRank.keys()).sort((p, q) => prev[q]! - prev[p]! || p - q);
    for (let r = 0; r < order.length; r++) {
      this.byRank[r] = order[r]!;
      this.rankOf[order[r]!] = r;
    }
    const { nb, byB } = this.graph;
    for (let c = 0; c < this.nPages; c++) {
      const ks = byB[c];
      if (!ks || ks.length === 0) continue;
      for (const y of nb[c]!) this.inPGc[y] = c;
      for (const k of ks) next[k] = this.ets(k, c, prev);
    }
  }

  /** Eq. 1 for candidate k = (e, c), with PG(c) marked in `inPGc`. */
  private ets(k: number, c: number, prev: Float64Array): number {
    const { nb, weightSum } = this.graph;
    const e = this.cands.a[k]!;
    const sum = this.matchedSum(this.neighbourRanks(e, c, prev), prev);
    const denom = weightSum[e]! + weightSum[c]!;
    const sext = denom > 0 ? (2 * sum) / denom : 0;
    const sparser = Math.min(nb[e]!.length, nb[c]!.length);
    const { alpha: a, minNeighbours } = this.opts;
    const alpha = sparser >= minNeighbours ? a : (a * sparser) / minNeighbours;
    return alpha * sext + (1 - alpha) * this.sin[k]!;
  }

  /**
   * Ranks of the candidate pairs between PG(e) and PG(c) with a positive previous ETS, ascending (Algorithm 1),
   * found from the side with fewer candidates to walk (a hub's neighbours would make the other side cost its size).
   */
  private neighbourRanks(e: number, c: number, prev: Float64Array): Int32Array {
    const { nb, byA, byB, walkCost } = this.graph;
    const { cands, inPGc, inPGe } = this;
    let nFound = 0;
    const push = (kk: number) => {
      if (prev[kk]! <= 0) return;
      if (nFound === this.found.length) {
        const bigger = new Int32Array(this.found.length * 2);
        bigger.set(this.found);
        this.found = bigger;
      }
      this.found[nFound++] = this.rankOf[kk]!;
    };
    if (walkCost[e]! <= walkCost[c]!) {
      for (const x of nb[e]!) {
        const xs = byA[x];
        if (xs) for (const kk of xs) if (inPGc[cands.b[kk]!] === c) push(kk);
      }
    } else {
      const mark = ++this.mark;
      for (const x of nb[e]!) inPGe[x] = mark;
      for (const y of nb[c]!) {
        const ys = byB[y];
        if (ys) for (const kk of ys) if (inPGe[cands.a[kk]!] === mark) push(kk);
      }
    }
    return this.found.subarray(0, nFound).sort();
  }

  /** Algorithm 1's greedy one-to-one matching of neighbour pairs, best rank first: the sum of their ETS. */
  private matchedSum(ranks: Int32Array, prev: Float64Array): number {
    const { scaled, w } = this.graph;
    const stamp = ++this.stamp;
    let sum = 0;
    for (let r = 0; r < ranks.length; r++) {
      const kk = this.byRank[ranks[r]!]!;
      const x = this.cands.a[kk]!;
      const y = this.cands.b[kk]!;
      if (this.usedA[x] === stamp || this.usedB[y] === stamp) continue;
      this.usedA[x] = stamp;
      this.usedB[y] = stamp;
      sum += prev[kk]! * (scaled ? (w(x) + w(y)) / 2 : 1);
    }
    return sum;
  }
}

/** Algorithm 3: greedy one-to-one pairs by score, until `maxPairs` pairs or a score below `minScore`. */
export function selectPairs(
  cands: Candidates,
  scores: Float64Array,
  limits: { maxPairs?: number; minScore?: number; exclude?: ReadonlySet<number> } = {},
): Array<{ a: number; b: number; score: number; index: number }> {
  const order = Array.from(scores.keys()).sort((p, q) => scores[q]! - scores[p]! || p - q);
  const used = new Set<number>(limits.exclude ?? []);
  const out: Array<{ a: number; b: number; score: number; index: number }> = [];
  const maxPairs = limits.maxPairs ?? Number.POSITIVE_INFINITY;
  const minScore = limits.minScore ?? 0;
  for (const k of order) {
    if (out.length >= maxPairs) break;
    const s = scores[k]!;
    if (s < minScore || s <= 0) break;
    const a = cands.a[k]!;
    const b = cands.b[k]!;
    if (used.has(a) || used.has(b)) continue;
    used.add(a);
    used.add(b);
    out.push({ a, b, score: s, index: k });
  }
  return out;
}

function groupBy(keys: Int32Array, size: number): Array<number[] | undefined> {
  const out: Array<number[] | undefined> = new Array(size);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    let list = out[key];
    if (!list) {
      list = [];
      out[key] = list;
    }
    list.push(k);
  }
  return out;
}
