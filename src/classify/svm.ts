/**
 * The RBF C-SVC, through libsvm-js. Its asm.js build is used: it loads synchronously (the wasm build
 * needs an await), so `loadClassifier()` can stay synchronous, and it is fast enough here (6 features).
 * A model is kept as libsvm's own text format, which is what the model file stores.
 */
import { createRequire } from "node:module";

interface LibsvmInstance {
  train(samples: number[][], labels: number[]): void;
  predict(samples: number[][]): number[];
  predictProbability(samples: number[][]): Array<{ prediction: number; estimates: Array<{ label: number; probability: number }> }>;
  serializeModel(): string;
  free(): void;
}
interface LibsvmClass {
  new (options: Record<string, unknown>): LibsvmInstance;
  load(serialized: string): LibsvmInstance;
  SVM_TYPES: { C_SVC: number };
  KERNEL_TYPES: { RBF: number };
}

const require = createRequire(import.meta.url);
let libsvm: LibsvmClass | undefined;

function svmClass(): LibsvmClass {
  if (!libsvm) libsvm = require("libsvm-js/asm") as LibsvmClass;
  return libsvm;
}

export interface SvmParams {
  C: number;
  gamma: number;
}

/** Labels as libsvm sees them. */
export const POSITIVE = 1;
export const NEGATIVE = 0;

/** A trained or loaded SVM. Call `free()` when done with a model that is not kept for the process. */
export interface SvmModel {
  /** libsvm's text format. */
  readonly serialized: string;
  /** P(positive) for each sample (requires a model trained with probability estimates). */
  probabilities(samples: number[][]): number[];
  /** The decision without probability estimates (sign of the decision function). */
  predict(samples: number[][]): number[];
  free(): void;
}

function wrap(inst: LibsvmInstance, serialized: string): SvmModel {
  return {
    serialized,
    probabilities(samples) {
      if (samples.length === 0) return [];
      return inst.predictProbability(samples).map((p) => p.estimates.find((e) => e.label === POSITIVE)?.probability ?? 0);
    },
    predict(samples) {
      return samples.length === 0 ? [] : inst.predict(samples);
    },
    free() {
      inst.free();
    },
  };
}

/**
 * Train an RBF C-SVC on samples labelled POSITIVE / NEGATIVE. With `probability`, libsvm also fits
 * Platt scaling by internal cross-validation (about 5× slower). The returned model is re-loaded from its
 * serialised form, so it predicts exactly like the model read back from a file.
 */
export function trainSvm(samples: number[][], labels: number[], params: SvmParams, probability: boolean): SvmModel {
  const SVM = svmClass();
  const svm = new SVM({
    type: SVM.SVM_TYPES.C_SVC,
    kernel: SVM.KERNEL_TYPES.RBF,
    cost: params.C,
    gamma: params.gamma,
    probabilityEstimates: probability,
    quiet: true,
  });
  svm.train(samples, labels);
  const serialized = svm.serializeModel();
  svm.free();
  return loadSvm(serialized);
}

/** Load a model from libsvm's text format (throws when it is not one). */
export function loadSvm(serialized: string): SvmModel {
  if (!/^svm_type c_svc\n/.test(serialized) || !/\nSV\n/.test(serialized)) {
    throw new Error("not a libsvm C-SVC model");
  }
  return wrap(svmClass().load(serialized), serialized);
}
