import { NotEnoughData } from "../errors.js";
/**
 * From annotated records to a model file: features for each record, the grid search of (C, γ) by k-fold
 * CV, the final model with probability estimates, and the seed's ablation (W, W+L, W+L+F) on the same folds.
 */
import { EN_ZH, type LanguagePair, loadLexicon } from "../text/index.js";
import { FEATURE_GROUPS, FEATURE_NAMES, FEATURE_VERSION, recordFeatures } from "./features.js";
import { MODEL_FORMAT, MODEL_FORMAT_VERSION, type ModelFile } from "./model-file.js";
import {
  type CvResult,
  crossValidate,
  DEFAULT_GRID,
  type Grid,
  type GridRow,
  gridSearch,
  groupedFolds,
  stratifiedFolds,
  trainFinal,
} from "./grid-search.js";
import type { Annotation } from "./types.js";

export interface TrainOptions {
  folds?: number;
  seed?: number;
  grid?: Grid;
  threshold?: number;
  pair?: LanguagePair;
  /** Called once per record featurised and once per grid cell trained. */
  onProgress?: (phase: "features" | "grid", done: number, total: number) => void;
}

export interface TrainingSet {
  rows: number[][];
  labels: boolean[];
}

export function featurise(annotations: readonly Annotation[], pair: LanguagePair = EN_ZH, onStep?: (done: number) => void): TrainingSet {
  const lex = loadLexicon(pair);
  const rows = annotations.map((a, i) => {
    const r = recordFeatures(a, lex, pair);
    onStep?.(i + 1);
    return r;
  });
  return { rows, labels: annotations.map((a) => a.label === "bilingual") };
}

/** The page source folder an annotation was made from ("real page-snippet: xlhhai_translations/rivers pair 3 …"). */
const PAGE_SOURCE = /^real page-[a-z]+: ([^/\s]+)\//;

/**
 * The CV folds of `bitext train`: annotations made from real bilingual pages are kept together by source folder, so
 * the (C, γ) chosen is the one that generalises to sources training has not seen; the rest are stratified.
 */
export function foldsOf(annotations: readonly Annotation[], labels: readonly boolean[], folds: number, seed: number): number[] {
  const groups = annotations.map((a) => PAGE_SOURCE.exec(a.source ?? "")?.[1]);
  return groups.some((g) => g !== undefined) ? groupedFolds(labels, groups, folds, seed) : stratifiedFolds(labels, folds, seed);
}

function checkTrainable(set: TrainingSet, folds: number): void {
  const pos = set.labels.filter(Boolean).length;
  const neg = set.labels.length - pos;
  if (pos < folds || neg < folds) {
    throw new NotEnoughData(
      `need at least ${folds} bilingual and ${folds} monolingual annotations for ${folds}-fold CV (have ${pos} and ${neg})`,
    );
  }
}

/** Train a model from annotations. `source` describes the annotations file for the model's metadata. */
export function trainClassifier(
  annotations: readonly Annotation[],
  source: { file: string; sha256: string },
  options: TrainOptions = {},
): ModelFile {
  const folds = options.folds ?? 5;
  const seed = options.seed ?? 1;
  const grid = options.grid ?? DEFAULT_GRID;
  const pair = options.pair ?? EN_ZH;
  const threshold = options.threshold ?? 0.5;
  const set = featurise(annotations, pair, (d) => options.onProgress?.("features", d, annotations.length));
  checkTrainable(set, folds);
  const foldOf = foldsOf(annotations, set.labels, folds, seed);
  const cells = grid.C.length * grid.gamma.length;
  let step = 0;
  const { best, table } = gridSearch(set.rows, set.labels, foldOf, grid, {
    onStep: () => options.onProgress?.("grid", ++step, cells),
  });
  const params = { C: best.C, gamma: best.gamma };
  const { predictions: _p, ...withProbability } = crossValidate(set.rows, set.labels, foldOf, params, { probability: true, threshold });
  const final = trainFinal(set.rows, set.labels, params);
  const positives = set.labels.filter(Boolean).length;
  return {
    format: MODEL_FORMAT,
    formatVersion: MODEL_FORMAT_VERSION,
    created: new Date().toISOString(),
    features: { version: FEATURE_VERSION, names: [...FEATURE_NAMES], pair: { a: pair.a, b: pair.b } },
    scaling: final.scaling,
    svm: { type: "C-SVC", kernel: "RBF", C: params.C, gamma: params.gamma, probability: true, libsvm: final.serialized },
    threshold,
    cv: { folds, seed, chosen: best, withProbability, grid: table },
    training: {
      file: source.file,
      sha256: source.sha256,
      size: annotations.length,
      positives,
      negatives: annotations.length - positives,
      who: [...new Set(annotations.map((a) => a.who ?? "unknown"))].sort(),
    },
    lexicon: [...loadLexicon(pair).sources].map((s) => s.replace(/^.*\/(models\/)/, "$1")),
  };
}

export interface AblationRow extends CvResult {
  features: string;
  C: number;
  gamma: number;
}

/**
 * The seed's Table 3 on our data: W, W+L, W+L+F, each with its own grid search on the same folds
 * (a feature subset deserves its best C and γ), reported at the chosen cell.
 */
export function ablation(
  set: TrainingSet,
  options: { folds?: number; seed?: number; grid?: Grid; onStep?: () => void; foldOf?: readonly number[] } = {},
): AblationRow[] {
  const folds = options.folds ?? 5;
  checkTrainable(set, folds);
  const foldOf = options.foldOf ?? stratifiedFolds(set.labels, folds, options.seed ?? 1);
  const subsets: Array<[string, number[]]> = [
    ["W", [...FEATURE_GROUPS.W]],
    ["W+L", [...FEATURE_GROUPS.W, ...FEATURE_GROUPS.L]],
    ["W+L+F", [...FEATURE_GROUPS.W, ...FEATURE_GROUPS.L, ...FEATURE_GROUPS.F]],
    ["W+L+F+X", [...FEATURE_GROUPS.W, ...FEATURE_GROUPS.L, ...FEATURE_GROUPS.F, ...FEATURE_GROUPS.X]],
    ["W+L+F+X+T", [...FEATURE_GROUPS.W, ...FEATURE_GROUPS.L, ...FEATURE_GROUPS.F, ...FEATURE_GROUPS.X, ...FEATURE_GROUPS.T]],
  ];
  return subsets.map(([name, features]) => {
    const { best } = gridSearch(set.rows, set.labels, foldOf, options.grid ?? DEFAULT_GRID, { features, onStep: options.onStep });
    const { C, gamma, ...rest } = best as GridRow;
    return { features: name, C, gamma, ...rest };
  });
}
