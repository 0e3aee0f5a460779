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
  const logSizes = Float64Array.from(site.pages, (p) => Math.log(Math.max(1, p.contentBytes)));
  const logSize = (i: number) => logSizes[i]!;
  const logC = median(B.map(logSize)) - median(A.map(logSize));
  const maxLog = Math.log(Math.max(1, opts.maxSizeRatio)) + 1e-12;
  const sizeOk = (a: number, b: number) => Math.abs(logSizes[b]! - logSizes[a]! - logC) <= maxLog;
  // Pairs passing the size ratio, counted without enumerating them: B's sizes sorted, two binary searches per a.
  const countSizeOk = (): number => {
    const sorted = Float64Array.from(B, logSize).sort();
    let count = 0;
    for (const a of A) {
      const centre = logSizes[a]! + logC;
      count += upperBound(sorted, centre + maxLog) - lowerBound(sorted, centre - maxLog);
    }
    return count;
  };

  const outA: number[] = [];
  const outB: number[] = [];
  let sizeOkCount = 0;
  if (opts.topK <= 0) {
    for (const a of A) {
      for (const b of B) {
        if (!sizeOk(a, b)) continue;
        sizeOkCount++;
        outA.push(a);
        outB.push(b);
      }
    }
    return finish();
  }

  // Signature weights: idf-weighted term shares of each pair.a page.
  const nA = A.length;
  const df = new Int32Array(content.aTermCount);
  for (const a of A) for (const id of site.pages[a]!.termIds) df[content.aTerm(id)]!++;
  const maxDf = Math.max(1, Math.floor(opts.maxDocShare * nA));
  // Postings in compressed rows: for term t, pages postA[off[t] … off[t+1]) with weights postW.
  const weightsOf = A.map((a) => {
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
  });
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

  const k = opts.topK;
  const nB = B.length;
  const bestOfA = A.map(() => new TopK(k));
  const bestOfB: TopK[] = [];
  const acc = new Float64Array(nA);
  const touched: number[] = [];
  // Rarity classes (⌊log2 df⌋): a page reads its terms class by class, rarest first, while its budget lasts —
  // one pass to count, one to read, no per-page sort.
  const rarity = Uint8Array.from(df, (d) => (d > 0 ? 31 - Math.clz32(d) : 0));
  const classPostings = new Float64Array(33);
  B.forEach((b, bi) => {
    const reach = content.reach(b);
    classPostings.fill(0);
    for (const t of reach) if (df[t]! <= maxDf) classPostings[rarity[t]!]! += df[t]!;
    let maxClass = 0;
    for (let spent = classPostings[0]!; maxClass + 1 < 33; maxClass++) {
      spent += classPostings[maxClass + 1]!;
      if (spent > opts.postingsPerPage) break;
    }
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
      if (!sizeOk(A[ai]!, b)) continue;
      mine.offer(ai, s);
      bestOfA[ai]!.offer(bi, s);
    }
    touched.length = 0;
    bestOfB.push(mine);
  });
  // A pair in one page's top k is kept when it is also among the `maxIncoming` best such pairs the other
  // page receives: one page's own list stays whole unless its partner is a hub swamped by better offers.
  const incomingA = A.map(() => new TopK(opts.maxIncoming));
  const incomingB = B.map(() => new TopK(opts.maxIncoming));
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
  const keep = new Set<number>(); // ai * nB + bi
  incomingA.forEach((top, ai) => {
    for (const bi of top.items()) keep.add(ai * nB + bi);
  });
  incomingB.forEach((top, bi) => {
    for (const ai of top.items()) keep.add(ai * nB + bi);
  });
  sizeOkCount = countSizeOk();
  for (const code of [...keep].sort((x, y) => x - y)) {
    outA.push(A[Math.floor(code / nB)]!);
    outB.push(B[code % nB]!);
  }
  return finish();

  function finish(): Candidates {
    return {
      a: Int32Array.from(outA),
      b: Int32Array.from(outB),
      allPairs: A.length * B.length,
      sizeOk: sizeOkCount,
      lengthConstant: Math.exp(logC),
    };
  }
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

function lowerBound(xs: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(xs: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
