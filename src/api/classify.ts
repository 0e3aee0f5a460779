/** `bitext/classify`: is the page a result record links to bilingual? (feng2010 §5, an RBF SVM on snippet features). */
export {
  type Annotation,
  type Classifier,
  type ClassifierInput,
  evaluateClassifier,
  FEATURE_NAMES,
  type Label,
  loadClassifier,
  type Prediction,
  readAnnotations,
  recordFeatures,
  trainClassifier,
} from "../classify/index.js";
