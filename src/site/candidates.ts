/**
 * Which page pairs the link-based method scores. liu2014 scores every English × Chinese pair; that is
 * quadratic, so the pairs are pruned first:
 * 1. the size ratio (liu2014 §3.2): the two pages' text sizes must agree within `maxSizeRatio` after the
 *    site's own length constant C (median size of `pair.b` pages over that of `pair.a` pages);
 * 2. a content signature: each `pair.b` page retrieves, through an inverted index over the `pair.a` pages'
 *    words, the pages sharing the most (idf-weighted) translated words — S_cb with rare words counting more;
 * 3. top-k: a pair is kept when it is among the k best of either of its pages (and the other page does not
 *    hold `maxIncoming` better such pairs, see below).
 * With `topK: 0` (exhaustive) every pair that passes the size ratio is kept.
 *
 * Linear in the number of pages, so that a site of tens of thousands of pages pairs in minutes:
 * - a page's retrieval reads the postings of its rarest words first (by classes of document frequency)
 *   and stops before the class that would take it over `postingsPerPage` postings: a frequent word's
 *   postings would make each lookup cost a share of the site, and such a word says little about which page
 *   is the translation (its idf is low) — the rare words that decide the ranking are read first;
 * - a page accepts at most `maxIncoming` pairs from the other side's top-k lists (the best by signature):
 *   without it a hub page (an index listing thousands of pages) collects thousands of candidates, and the
 *   neighbour matching of ETS over them grows with the square of the hub.
 */
import type { ContentIndex } from "./content.js";
import type { Site } from "./types.js";
import { lowerBound, median, upperBound } from "../stats.js";

export interface CandidateOptions {
  /** Largest accepted size ratio, either way, after the site's length constant. */
  maxSizeRatio: number;
  /** Pairs kept per page and direction; 0 keeps every pair that passes the size ratio (exhaustive). */
  topK: number;
  /** Words on more than this share of the `pair.a` pages (site boilerplate) are left out of the signature. */
  maxDocShare: number;
  /** Postings one page's retrieval reads at most, rarest words first (bounds each retrieval). */
  postingsPerPage: number;
  /** Pairs a page accepts from the other language's top-k lists, best first (bounds hub pages). */
  maxIncoming: number;
}

export const DEFAULT_CANDIDATE_OPTIONS: Readonly<CandidateOptions> = Object.freeze({
  maxSizeRatio: 3,
  topK: 10,
  maxDocShare: 0.5,
  postingsPerPage: 10000,
  maxIncoming: 50,
});

/** Candidate pairs as parallel arrays of page indices (`a[k]` a `pair.a` page, `b[k]` a `pair.b` page). */
export interface Candidates {
  a: Int32Array;
  b: Int32Array;
  /** Pairs before pruning (|P_a| × |P_b|) and after the size ratio. */
  allPairs: number;
  sizeOk: number;
  /** The site's length constant C used by the size ratio. */
  lengthConstant: number;
}

export function candidatePairs(site: Site, content: ContentIndex, options: Partial<CandidateOptions> = {}): Candidates {
  const opts = { ...DEFAULT_CANDIDATE_OPTIONS, ...options };
  const A: number[] = [];
  const B: number[] = [];
  site.pages.forEach((p, i) => {
    if (p.lang === site.pair.a) A.push(i);
    else if (p.lang === site.pair.b) B.push(i);
  });
  const size = sizeFilter(site, A, B, opts.maxSizeRatio);
  const pairs = opts.topK <= 0 ? exhaustivePairs(A, B, size) : prunedPairs(site, content, A, B, size, opts);
  return {
    a: Int32Array.from(pairs.a),
    b: Int32Array.from(pairs.b),
    allPairs: A.length * B.length,
    sizeOk: pairs.sizeOk,
    lengthConstant: Math.exp(size.logC),
  };
}

/** The size-ratio test of liu2014 §3.2 on log sizes, after the site's length constant C = exp(logC). */
interface SizeFilter {
  logSizes: Float64Array;
  logC: number;
  maxLog: number;
  ok(a: number, b: number): boolean;
}

interface PairList {
  a: number[];
  b: number[];
  /** Pairs that pass the size ratio. */
  sizeOk: number;
}

function sizeFilter(site: Site, A: number[], B: number[], maxSizeRatio: number): SizeFilter {
  const logSizes = Float64Array.from(site.pages, (p) => Math.log(Math.max(1, p.contentBytes)));
  const logSize = (i: number) => logSizes[i]!;
  const logC = A.length > 0 && B.length > 0 ? median(B.map(logSize)) - median(A.map(logSize)) : 0;
  const maxLog = Math.log(Math.max(1, maxSizeRatio)) + 1e-12;
  const ok = (a: number, b: number) => Math.abs(logSizes[b]! - logSizes[a]! - logC) <= maxLog;
  return { logSizes, logC, maxLog, ok };
}

/** Pairs passing the size ratio, counted without enumerating them: B's sizes sorted, two binary searches per a. */
function countSizeOk(A: number[], B: number[], size: SizeFilter): number {
  const sorted = Float64Array.from(B, (i) => size.logSizes[i]!).sort();
  let count = 0;
  for (const a of A) {
    const centre = size.logSizes[a]! + size.logC;
    count += upperBound(sorted, centre + size.maxLog) - lowerBound(sorted, centre - size.maxLog);
  }
  return count;
}

/** Every pair that passes the size ratio (`topK: 0`). */
function exhaustivePairs(A: number[], B: number[], size: SizeFilter): PairList {
  const out: PairList = { a: [], b: [], sizeOk: 0 };
  for (const a of A) {
    for (const b of B) {
      if (!size.ok(a, b)) continue;
      out.sizeOk++;
      out.a.push(a);
      out.b.push(b);
    }
  }
  return out;
}

/** The pairs kept by signature retrieval, top-k and the hub bound (see the head of the file). */
function prunedPairs(site: Site, content: ContentIndex, A: number[], B: number[], size: SizeFilter, opts: CandidateOptions): PairList {
  const index = signatureIndex(site, content, A, opts.maxDocShare);
  const { bestOfA, bestOfB } = retrieveTopK(content, index, A, B, size, opts);
  const nB = B.length;
  const out: PairList = { a: [], b: [], sizeOk: countSizeOk(A, B, size) };
  for (const code of keptPairCodes(bestOfA, bestOfB, nB, opts.maxIncoming)) {
    out.a.push(A[Math.floor(code / nB)]!);
    out.b.push(B[code % nB]!);
  }
  return out;
}

/**
 * The inverted index over the `pair.a` pages' signatures, in compressed rows: for term t, pages
 * `postA[off[t] … off[t+1])` (indices into A) with weights `postW`. `df` counts every term's pages;
 * terms over `maxDf` are left out.
 */
interface SignatureIndex {
  df: Int32Array;
  maxDf: number;
  off: Int32Array;
  postA: Int32Array;
  postW: Float64Array;
}

function signatureIndex(site: Site, content: ContentIndex, A: number[], maxDocShare: number): SignatureIndex {
  const df = new Int32Array(content.aTermCount);
  for (const a of A) for (const id of site.pages[a]!.termIds) df[content.aTerm(id)]!++;
  const maxDf = Math.max(1, Math.floor(maxDocShare * A.length));
  const weightsOf = A.map((a) => signatureWeights(site, content, a, df, maxDf, A.length));
  const off = new Int32Array(content.aTermCount + 1);
  for (const { ts } of weightsOf) for (const t of ts) off[t + 1]!++;
  for (let t = 0; t < content.aTermCount; t++) off[t + 1]! += off[t]!;
  const fill = off.slice(0, content.aTermCount);
  const postA = new Int32Array(off[content.aTermCount]!);
  const postW = new Float64Array(off[content.aTermCount]!);
  weightsOf.forEach(({ ts, ws }, ai) => {
    for (let i = 0; i < ts.length; i++) {
      const at = fill[ts[i]!]!++;
      postA[at] = ai;
      postW[at] = ws[i]!;
    }
  });
  return { df, maxDf, off, postA, postW };
}

/** A `pair.a` page's signature: idf-weighted term shares (terms `ts`, weights `ws` summing to 1). */
function signatureWeights(
  site: Site,
  content: ContentIndex,
  a: number,
  df: Int32Array,
  maxDf: number,
  nA: number,
): { ts: number[]; ws: number[] } {
  const page = site.pages[a]!;
  const ts: number[] = [];
  const ws: number[] = [];
  let norm = 0;
  for (let k = 0; k < page.termIds.length; k++) {
    const t = content.aTerm(page.termIds[k]!);
    if (df[t]! > maxDf) continue;
    const w = (1 + Math.log(page.termCounts[k]!)) * Math.log((nA + 1) / df[t]!);
    ts.push(t);
    ws.push(w);
    norm += w;
  }
  return { ts, ws: ws.map((w) => w / (norm || 1)) };
}

/** Each `pair.b` page retrieves its best `pair.a` pages by signature; both sides' top k are kept. */
function retrieveTopK(
  content: ContentIndex,
  index: SignatureIndex,
  A: number[],
  B: number[],
  size: SizeFilter,
  opts: CandidateOptions,
): { bestOfA: TopK[]; bestOfB: TopK[] } {
  const { df, maxDf, off, postA, postW } = index;
  const k = opts.topK;
  const bestOfA = A.map(() => new TopK(k));
  const bestOfB: TopK[] = [];
  const acc = new Float64Array(A.length);
  const touched: number[] = [];
  // Rarity classes (⌊log2 df⌋): a page reads its terms class by class, rarest first, while its budget lasts —
  // one pass to count, one to read, no per-page sort.
  const rarity = Uint8Array.from(df, (d) => (d > 0 ? 31 - Math.clz32(d) : 0));
  const classPostings = new Float64Array(33);
  B.forEach((b, bi) => {
    const reach = content.reach(b);
    const maxClass = rarestClassesWithinBudget(reach, df, maxDf, rarity, classPostings, opts.postingsPerPage);
    for (const t of reach) {
      if (rarity[t]! > maxClass) continue;
      for (let at = off[t]!; at < off[t + 1]!; at++) {
        const ai = postA[at]!;
        if (acc[ai] === 0) touched.push(ai);
        acc[ai]! += postW[at]!;
      }
    }
    const mine = new TopK(k);
    for (const ai of touched) {
      const s = acc[ai]!;
      acc[ai] = 0;
      if (!size.ok(A[ai]!, b)) continue;
      mine.offer(ai, s);
      bestOfA[ai]!.offer(bi, s);
    }
    touched.length = 0;
    bestOfB.push(mine);
  });
  return { bestOfA, bestOfB };
}

/** The last rarity class a page reads: the postings of its classes up to it stay within `budget`. */
function rarestClassesWithinBudget(
  reach: Int32Array,
  df: Int32Array,
  maxDf: number,
  rarity: Uint8Array,
  classPostings: Float64Array,
  budget: number,
): number {
  classPostings.fill(0);
  for (const t of reach) if (df[t]! <= maxDf) classPostings[rarity[t]!]! += df[t]!;
  let maxClass = 0;
  for (let spent = classPostings[0]!; maxClass + 1 < 33; maxClass++) {
    spent += classPostings[maxClass + 1]!;
    if (spent > budget) break;
  }
  return maxClass;
}

/**
 * A pair in one page's top k is kept when it is also among the `maxIncoming` best such pairs the other
 * page receives: one page's own list stays whole unless its partner is a hub swamped by better offers.
 * Returns the kept pairs as codes `ai * nB + bi`, ascending.
 */
function keptPairCodes(bestOfA: TopK[], bestOfB: TopK[], nB: number, maxIncoming: number): number[] {
  const incomingA = bestOfA.map(() => new TopK(maxIncoming));
  const incomingB = bestOfB.map(() => new TopK(maxIncoming));
  bestOfB.forEach((top, bi) => {
    top.forEach((ai, s) => {
      incomingA[ai]!.offer(bi, s);
    });
  });
  bestOfA.forEach((top, ai) => {
    top.forEach((bi, s) => {
      incomingB[bi]!.offer(ai, s);
    });
  });
  const keep = new Set<number>();
  incomingA.forEach((top, ai) => {
    for (const bi of top.items()) keep.add(ai * nB + bi);
  });
  incomingB.forEach((top, bi) => {
    for (const ai of top.items()) keep.add(ai * nB + bi);
  });
  return [...keep].sort((x, y) => x - y);
}

/** The k highest-scoring items offered (ties: the earlier offer wins). Rejecting a low offer is O(1). */
class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];
  private worst = -1;
  constructor(private readonly k: number) {}

  offer(id: number, score: number): void {
    if (score <= 0) return;
    if (this.ids.length < this.k) {
      this.ids.push(id);
      this.scores.push(score);
      if (this.ids.length === this.k) this.findWorst();
      return;
    }
    if (score <= this.scores[this.worst]!) return;
    this.ids[this.worst] = id;
    this.scores[this.worst] = score;
    this.findWorst();
  }

  private findWorst(): void {
    let worst = 0;
    for (let i = 1; i < this.scores.length; i++) if (this.scores[i]! < this.scores[worst]!) worst = i;
    this.worst = worst;
  }

  items(): number[] {
    return this.ids;
  }

  forEach(f: (id: number, score: number) => void): void {
    for (let i = 0; i < this.ids.length; i++) f(this.ids[i]!, this.scores[i]!);
  }
}
