/**
 * The pair scorer's probability: the mean of two models of the same features, weighed by the trees' share — a
 * logistic regression on the features' hinge expansion (smooth, additive) and boosted trees on the features
 * themselves (interactions the expansion does not have). Measured with folds by source, the two together keep
 * more true pairs at the same precision than either alone (docs/corpus-quality.md).
 */
import { type Basis, expand } from "./basis.js";
import { type BoostedTrees, predictBoosted } from "./boosting.js";
import { type LogisticModel, predictLogistic } from "./logistic.js";

/** Boosted trees and their share of the score (the logistic regression has the rest). */
export interface TreeShare extends BoostedTrees {
  share: number;
}

export interface QualityPredictor {
  basis: Basis;
  logistic: LogisticModel;
  /** Absent in a model from before the trees: the logistic regression alone. */
  trees?: TreeShare | undefined;
}

/** The trees' share of the score in the models `bitext quality train` makes (measured 0, 0.3, 0.5, 0.7, 1). */
export const TREE_SHARE = 0.5;

export function predictQuality(m: QualityPredictor, features: readonly number[]): number {
  const logistic = predictLogistic(m.logistic, expand(m.basis, features));
  if (!m.trees) return logistic;
  return (1 - m.trees.share) * logistic + m.trees.share * predictBoosted(m.trees, features);
}
