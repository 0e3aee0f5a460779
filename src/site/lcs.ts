/**
 * Length of the longest common subsequence of two symbol sequences, bit-parallel (Allison–Dix 1986,
 * Hyyrö 2004): one pass over `b`, updating a bit-vector as long as `a` 32 positions per machine word,
 * so O(|a|·|b|/32) instead of the O(|a|·|b|) table. Shared prefixes and suffixes (the site template both
 * pages carry) are matched first, which is exact: an LCS can always take them.
 */

/** A reusable LCS engine: match masks for one sequence `a`, compared against many `b`. */
export class LcsPattern {
  readonly length: number;
  private readonly words: number;
  private readonly masks: Map<number, Uint32Array>;
  private readonly v: Uint32Array;

  constructor(a: ArrayLike<number>) {
    this.length = a.length;
    this.words = Math.ceil(a.length / 32);
    this.masks = new Map();
    for (let i = 0; i < a.length; i++) {
      const sym = a[i]!;
      let mask = this.masks.get(sym);
      if (!mask) {
        mask = new Uint32Array(this.words);
        this.masks.set(sym, mask);
      }
      mask[i >>> 5]! |= 1 << (i & 31);
    }
    this.v = new Uint32Array(this.words);
  }

  /** LCS length of the pattern and `b`. */
  lcs(b: ArrayLike<number>): number {
    const W = this.words;
    if (W === 0 || b.length === 0) return 0;
    const v = this.v;
    v.fill(0xffffffff);
    // Bits beyond the pattern's length stay 1 and never receive a match, so they do not count below.
    for (let j = 0; j < b.length; j++) {
      const m = this.masks.get(b[j]!);
      if (m === undefined) continue;
      let carry = 0;
      for (let w = 0; w < W; w++) {
        const vw = v[w]!;
        const u = vw & m[w]!;
        const sum = vw + (u >>> 0) + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        v[w] = (sum >>> 0) | (vw & ~m[w]!);
      }
    }
    let zeros = 0;
    for (let w = 0; w < W; w++) zeros += 32 - popcount(v[w]!);
    return zeros;
  }
}

/** LCS length of `a` and `b`, common prefix and suffix matched first. */
export function lcsLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let start = 0;
  const max = Math.min(a.length, b.length);
  while (start < max && a[start] === b[start]) start++;
  let end = 0;
  while (end < max - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const midA = sliceOf(a, start, a.length - end);
  const midB = sliceOf(b, start, b.length - end);
  if (midA.length === 0 || midB.length === 0) return start + end;
  // The shorter middle as the pattern: fewer words per step.
  const [pat, txt] = midA.length <= midB.length ? [midA, midB] : [midB, midA];
  return start + end + new LcsPattern(pat).lcs(txt);
}

/** The classic O(|a|·|b|) dynamic programme: the reference the bit-parallel version is tested against. */
export function lcsLengthDp(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

function sliceOf(x: ArrayLike<number>, from: number, to: number): ArrayLike<number> {
  if (from === 0 && to === x.length) return x;
  if (ArrayBuffer.isView(x)) return (x as unknown as Uint16Array).subarray(from, to);
  return Array.prototype.slice.call(x, from, to) as number[];
}

function popcount(x: number): number {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  n = (n + (n >>> 4)) & 0x0f0f0f0f;
  return Math.imul(n, 0x01010101) >>> 24;
}
