/** Precision / recall / F1 — the one metrics module every `bitext eval …` command uses. */

export interface Counts {
  /** items predicted and correct */
  tp: number;
  /** items predicted but wrong */
  fp: number;
  /** gold items not predicted */
  fn: number;
}

export interface Scores extends Counts {
  precision: number;
  recall: number;
  f1: number;
}

export function emptyCounts(): Counts {
  return { tp: 0, fp: 0, fn: 0 };
}

export function addCounts(into: Counts, more: Counts): Counts {
  into.tp += more.tp;
  into.fp += more.fp;
  into.fn += more.fn;
  return into;
}

/** Precision and recall of an empty side are 1 by convention (nothing claimed, nothing missed). */
export function scores(c: Counts): Scores {
  const precision = c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp);
  const recall = c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...c, precision, recall, f1 };
}

/**
 * Match predicted items against gold items as multisets of keys (each gold item can be
 * matched once), returning tp/fp/fn.
 */
export function matchMultiset(predicted: Iterable<string>, gold: Iterable<string>): Counts {
  const remaining = new Map<string, number>();
  let goldCount = 0;
  for (const g of gold) {
    remaining.set(g, (remaining.get(g) ?? 0) + 1);
    goldCount++;
  }
  let tp = 0;
  let predCount = 0;
  for (const p of predicted) {
    predCount++;
    const left = remaining.get(p) ?? 0;
    if (left > 0) {
      tp++;
      remaining.set(p, left - 1);
    }
  }
  return { tp, fp: predCount - tp, fn: goldCount - tp };
}

/** Binary classification counts with the confusion matrix. */
export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export function confusion(predicted: readonly boolean[], gold: readonly boolean[]): Confusion {
  if (predicted.length !== gold.length) throw new Error("confusion: predicted and gold differ in length");
  const c = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0; i < gold.length; i++) {
    if (predicted[i]) gold[i] ? c.tp++ : c.fp++;
    else gold[i] ? c.fn++ : c.tn++;
  }
  return c;
}

/** Format a ratio in [0,1] as a fixed 3-decimal string (tables and notes). */
export function fmt(x: number): string {
  return Number.isFinite(x) ? x.toFixed(3) : "n/a";
}
