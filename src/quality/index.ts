/**
 * The pair scorer (issue 24): is a sentence pair a translation? Hard rules with named reasons, and a learned
 * probability (a logistic regression and boosted trees on Bicleaner-style features, averaged). Pure: no CLI, no
 * store; the model and the boilerplate lists are data files in models/.
 */
export { type Boilerplate, boilerplateOf, parseBoilerplate } from "./boilerplate.js";
export { FEATURE_NAMES, FEATURES_VERSION } from "./features.js";
export {
  type EvaluationRow,
  QUALITY_FORMAT,
  type QualityModelFile,
  qualityModelName,
  qualityModelPath,
  readQualityModel,
  writeQualityModel,
} from "./model-file.js";
export { makeNegatives, NEGATIVE_KINDS, type Negative, type NegativeKind, type TextPair } from "./negatives.js";
export { LOW_SCORE, type Reason, RULES, type RuleName } from "./rules.js";
export { createScorer, loadScorer, type PairScorer, type PairVerdict, type ScorerOptions } from "./scorer.js";
export { type QualityTrainOptions, type TrainingSource, trainQualityModel } from "./train.js";
