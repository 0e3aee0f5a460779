import { UserError } from "../errors.js";
import { resolveResource } from "../config/index.js";
import { loadLexicon } from "../text/index.js";
import { FEATURE_NAMES, FEATURE_SETS, FEATURE_VERSION, recordFeatures } from "./features.js";
import { type ModelFile, modelIdOf, readModelFile } from "./model-file.js";
import { applyScaling } from "./scaling.js";
import { loadSvm } from "./svm.js";
import type { Classifier, ClassifierInput, Prediction } from "./types.js";

/** The default model: the user's `models/default.json` (from bitext train) if there is one, else the shipped one. */
export function defaultModelPath(): string {
  return resolveResource("models", "default.json");
}

/** A classifier from a checked model file. */
export function createClassifier(path: string, model: ModelFile, options: { threshold?: number } = {}): Classifier {
  const width = FEATURE_SETS[model.features.version];
  if (width === undefined || model.features.names.join() !== FEATURE_NAMES.slice(0, width).join()) {
    throw new UserError(
      `${path}: features: trained on feature set ${model.features.version}, this bitext computes ${FEATURE_VERSION} (and reads feng2010-6/1 models)`,
      { kind: "classifier-model-unusable" },
    );
  }
  let svm: ReturnType<typeof loadSvm>;
  try {
    svm = loadSvm(model.svm.libsvm);
  } catch (err) {
    throw new UserError(`${path}: svm.libsvm: ${(err as Error).message}; the model file is corrupt`, { kind: "classifier-model-unusable" });
  }
  const threshold = options.threshold ?? model.threshold;
  const lex = loadLexicon(model.features.pair);
  const pair = model.features.pair;
  return {
    modelId: modelIdOf(path, model),
    threshold,
    classify(inputs: readonly ClassifierInput[]): Prediction[] {
      const rows = inputs.map((r) => applyScaling(model.scaling, recordFeatures(r, lex, pair).slice(0, width)));
      return svm.probabilities(rows).map((p) => ({ label: p >= threshold ? "bilingual" : "monolingual", probability: p }));
    },
  };
}

/**
 * The classifier hook harvest and the demo call: the model at `modelPath` (default `models/default.json`
 * of the installation). Throws a UserError naming the file when it is missing, corrupt or was trained on
 * another feature set. `threshold` overrides the model's decision threshold on P(bilingual).
 */
export function loadClassifier(modelPath: string = defaultModelPath(), options: { threshold?: number } = {}): Classifier {
  return createClassifier(modelPath, readModelFile(modelPath), options);
}
