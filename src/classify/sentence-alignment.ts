/**
 * Where the translation evidence of a snippet lies: on the sentences that a translation pairs in order, or spread
 * evenly over all of them. Two texts of one topic that are not translations of each other (two passages of one
 * story) share glosses too — "father", "river" — but as much between any of their sentences as between the ones a
 * translation would pair; a translation concentrates them on an order-preserving path from the first sentences.
 *
 * Pure arithmetic on a matrix of cell scores (the caller measures each Chinese sentence against each English one).
 */

export interface SentenceAlignment {
  /** Mean score of the cells on the path (0 for an empty matrix). */
  aligned: number;
  /** Mean on the path minus the mean of the other cells; 0 when the path takes every cell. */
  gain: number;
}

/**
 * The best monotone path through the p × q matrix `cells` (row-major): it starts at the first sentences (0, 0),
 * moves to the next row, the next column or both at each step, and may stop anywhere (a snippet cuts its halves at
 * different places). Best = the largest Σ (cell − mean of all cells): the path takes what is above the matrix's own
 * level, so a topic shared evenly by every sentence does not lengthen or raise it.
 */
export function monotoneAlignment(cells: ArrayLike<number>, p: number, q: number): SentenceAlignment {
  const size = p * q;
  if (size === 0) return { aligned: 0, gain: 0 };
  let total = 0;
  for (let k = 0; k < size; k++) total += cells[k]!;
  const mean = total / size;
  const best = new Float64Array(size);
  const from = new Int32Array(size).fill(-1);
  let end = 0;
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < q; j++) {
      const k = i * q + j;
      let prev = -1;
      if (k > 0) {
        // The best of the up to three cells a step comes from.
        if (i > 0) prev = k - q;
        if (j > 0 && (prev < 0 || best[k - 1]! > best[prev]!)) prev = k - 1;
        if (i > 0 && j > 0 && best[k - q - 1]! > best[prev]!) prev = k - q - 1;
      }
      best[k] = (prev < 0 ? 0 : best[prev]!) + cells[k]! - mean;
      from[k] = prev;
      if (best[k]! > best[end]!) end = k;
    }
  }
  let onSum = 0;
  let onCount = 0;
  for (let k = end; k >= 0; k = from[k]!) {
    onSum += cells[k]!;
    onCount++;
  }
  const aligned = onSum / onCount;
  const offCount = size - onCount;
  return { aligned, gain: offCount ? aligned - (total - onSum) / offCount : 0 };
}
