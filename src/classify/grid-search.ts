/**
 * Training: k-fold cross-validated grid search of C and γ for the RBF C-SVC, then a final model with
 * probability estimates on all the data. Pure: takes feature vectors and labels, returns numbers.
 */
import { type Confusion, confusion, scores } from "../eval/index.js";
import { applyScaling, fitMinMax, type MinMaxScaling } from "./scaling.js";
import { NEGATIVE, POSITIVE, type SvmParams, trainSvm } from "./svm.js";
import { seededRandom } from "../random.js";

export interface Grid {
  C: readonly number[];
  gamma: readonly number[];
}

/** libsvm's guide suggests exponentially growing sequences; on 6 features scaled to [0, 1] this range suffices. */
export const DEFAULT_GRID: Grid = {
  C: [0.5, 2, 8, 32, 128, 512],
  gamma: [0.125, 0.5, 2, 8, 32],
};

export interface CvResult extends Confusion {
  precision: number;
  recall: number;
  f1: number;
  accuracy: number;
}

export interface GridRow extends SvmParams, CvResult {}

/** Stratified k folds: fold index of each sample, positives and negatives spread evenly, shuffled by seed. */
export function stratifiedFolds(labels: readonly boolean[], k: number, seed = 1): number[] {
  const rand = seededRandom(seed);
  const fold = new Array<number>(labels.length).fill(0);
  for (const cls of [true, false]) {
    const idx = labels.flatMap((l, i) => (l === cls ? [i] : []));
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    idx.forEach((sample, r) => {
      fold[sample] = r % k;
    });
  }
  return fold;
}

/**
 * Folds by source: samples of a named source (`groups[i]`, e.g. the page folder a snippet was made from) all fall in
 * one fold — the sources spread over the folds in sorted order — so every fold tests sources its training never saw;
 * samples without a source are spread stratified as `stratifiedFolds` does.
 */
export function groupedFolds(labels: readonly boolean[], groups: ReadonlyArray<string | undefined>, k: number, seed = 1): number[] {
  const names = [...new Set(groups.filter((g): g is string => g !== undefined))].sort();
  const loose = labels.flatMap((_, i) => (groups[i] === undefined ? [i] : []));
  const looseFolds = stratifiedFolds(
    loose.map((i) => labels[i]!),
    k,
    seed,
  );
  const fold = new Array<number>(labels.length).fill(0);
  loose.forEach((i, r) => {
    fold[i] = looseFolds[r]!;
  });
  groups.forEach((g, i) => {
    if (g !== undefined) fold[i] = names.indexOf(g) % k;
  });
  return fold;
}

function select(row: readonly number[], features: readonly number[] | undefined): number[] {
  return features ? features.map((j) => row[j]!) : [...row];
}

export function summarise(c: Confusion): CvResult {
  const s = scores({ tp: c.tp, fp: c.fp, fn: c.fn });
  const n = c.tp + c.fp + c.tn + c.fn;
  return { ...c, precision: s.precision, recall: s.recall, f1: s.f1, accuracy: n ? (c.tp + c.tn) / n : 0 };
}

/**
 * k-fold cross-validation of one (C, γ): for each fold, scaling is fitted on the other folds only.
 * `features` restricts the columns (the ablation). With `probability`, decisions are P ≥ threshold
 * (as the shipped classifier decides); otherwise the SVM's sign. Returns the pooled confusion matrix.
 */
export function crossValidate(
  rows: readonly (readonly number[])[],
  labels: readonly boolean[],
  folds: readonly number[],
  params: SvmParams,
  options: { features?: readonly number[]; probability?: boolean; threshold?: number } = {},
): CvResult & { predictions: boolean[] } {
  const k = Math.max(...folds) + 1;
  const predicted = new Array<boolean>(labels.length).fill(false);
  for (let f = 0; f < k; f++) {
    const trainIdx = folds.flatMap((g, i) => (g === f ? [] : [i]));
    const testIdx = folds.flatMap((g, i) => (g === f ? [i] : []));
    if (testIdx.length === 0) continue;
    const trainRows = trainIdx.map((i) => select(rows[i]!, options.features));
    const scaling = fitMinMax(trainRows);
    const model = trainSvm(
      trainRows.map((r) => applyScaling(scaling, r)),
      trainIdx.map((i) => (labels[i] ? POSITIVE : NEGATIVE)),
      params,
      options.probability ?? false,
    );
    const testRows = testIdx.map((i) => applyScaling(scaling, select(rows[i]!, options.features)));
    if (options.probability) {
      const probs = model.probabilities(testRows);
      testIdx.forEach((i, r) => {
        predicted[i] = probs[r]! >= (options.threshold ?? 0.5);
      });
    } else {
      const out = model.predict(testRows);
      testIdx.forEach((i, r) => {
        predicted[i] = out[r] === POSITIVE;
      });
    }
    model.free();
  }
  return { ...summarise(confusion(predicted, labels)), predictions: predicted };
}

/** Every (C, γ) of the grid by k-fold CV; the best by F1, then accuracy, then the smaller C (simpler). */
export function gridSearch(
  rows: readonly (readonly number[])[],
  labels: readonly boolean[],
  folds: readonly number[],
  grid: Grid = DEFAULT_GRID,
  options: { features?: readonly number[]; onStep?: () => void } = {},
): { best: GridRow; table: GridRow[] } {
  const table: GridRow[] = [];
  for (const C of grid.C) {
    for (const gamma of grid.gamma) {
      const { predictions: _p, ...r } = crossValidate(rows, labels, folds, { C, gamma }, { features: options.features });
      table.push({ C, gamma, ...r });
      options.onStep?.();
    }
  }
  const best = [...table].sort((a, b) => b.f1 - a.f1 || b.accuracy - a.accuracy || a.C - b.C || a.gamma - b.gamma)[0];
  if (!best) throw new Error("gridSearch: empty grid");
  return { best, table };
}

export interface FinalModel {
  scaling: MinMaxScaling;
  serialized: string;
}

/** The model shipped after the search: scaling on all rows, SVM with probability estimates. */
export function trainFinal(rows: readonly (readonly number[])[], labels: readonly boolean[], params: SvmParams): FinalModel {
  const scaling = fitMinMax(rows);
  const model = trainSvm(
    rows.map((r) => applyScaling(scaling, r)),
    labels.map((l) => (l ? POSITIVE : NEGATIVE)),
    params,
    true,
  );
  const serialized = model.serialized;
  model.free();
  return { scaling, serialized };
}
