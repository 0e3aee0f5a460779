/**
 * Classify: does a search-engine result record link to a bilingual page? (feng2010 §5)
 * Snippet features (W, L, F) → min-max scaling → RBF C-SVC with probability estimates.
 */
export type { Annotation, Classifier, ClassifierInput, Label, Prediction } from "./types.js";
export { createClassifier, defaultModelPath, loadClassifier } from "./classifier.js";
export {
  analyseRecord,
  FEATURE_GROUPS,
  FEATURE_NAMES,
  FEATURE_VERSION,
  type FeatureName,
  featureVector,
  recordFeatures,
  type SnippetAnalysis,
  type SnippetFeatures,
} from "./features.js";
export { cleanText, prepareRecordText, removeNoise, stripHighlights, stripMarkup } from "./preprocess.js";
export { type ModelFile, modelIdOf, readModelFile, validateModel, writeModelFile } from "./model-file.js";
export {
  annotationKey,
  annotationQuery,
  appendAnnotationLine,
  parseAnnotations,
  parseClassifierInput,
  readAnnotations,
} from "./annotations.js";
export { type AblationRow, ablation, featurise, type TrainOptions, trainClassifier, type TrainingSet } from "./trainer.js";
export { type CvResult, DEFAULT_GRID, type Grid, type GridRow } from "./grid-search.js";
export { classifyStoredRecords, type StoreClassification } from "./store.js";
export { buildBootstrapSet } from "./bootstrap.js";
export {
  readBilingualPage,
  readChineseParagraphs,
  readHeldOutPairs,
  readRealBilingualPages,
  readSerpRecords,
} from "./bootstrap-sources.js";
export { type ClassifierReport, evaluateClassifier, evaluateOnRealData } from "./evaluate.js";
export { type BySourceReport, evaluateBySource, type SourceRow } from "./by-source.js";
export { type Calibration, calibration } from "./calibration.js";
export { type BilingualPageUnits, mismatchedSnippets, type PageSnippet, pageSnippets } from "./page-snippets.js";
