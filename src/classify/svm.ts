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

/**
 * Load a model from libsvm's text format (throws when it is not one). A two-class RBF model with
 * probability estimates — what `bitext train` writes — is evaluated in JavaScript (`rbfModel`): the same
 * arithmetic as libsvm's `svm_predict_probability`, without the asm.js module (≈ 80 ms to load) or a
 * copy of every sample into its heap. Any other model goes through libsvm-js.
 */
export function loadSvm(serialized: string): SvmModel {
  if (!/^svm_type c_svc\n/.test(serialized) || !/\nSV\n/.test(serialized)) {
    throw new Error("not a libsvm C-SVC model");
  }
  return rbfModel(serialized) ?? wrap(svmClass().load(serialized), serialized);
}

/** A parsed two-class RBF C-SVC with Platt scaling. */
interface RbfParams {
  gamma: number;
  rho: number;
  probA: number;
  probB: number;
  /** libsvm's label order: the decision value is positive for labels[0]. */
  labels: [number, number];
  coef: Float64Array;
  /** Support vectors, dense, `dim` values each (libsvm indices 1…dim). */
  sv: Float64Array;
  dim: number;
}

function parseRbf(serialized: string): RbfParams | undefined {
  const [head, body] = serialized.split("\nSV\n");
  if (head === undefined || body === undefined) return undefined;
  const fields = new Map<string, string[]>();
  for (const line of head.split("\n")) {
    const [k, ...v] = line.trim().split(/\s+/);
    if (k) fields.set(k, v);
  }
  const one = (k: string) => (fields.get(k)?.length === 1 ? Number(fields.get(k)![0]) : Number.NaN);
  const labels = fields.get("label")?.map(Number);
  if (fields.get("kernel_type")?.[0] !== "rbf" || one("nr_class") !== 2 || labels?.length !== 2) return undefined;
  const gamma = one("gamma");
  const rho = one("rho");
  const probA = one("probA");
  const probB = one("probB");
  if (![gamma, rho, probA, probB].every(Number.isFinite)) return undefined;
  const lines = body.split("\n").filter((l) => l.trim());
  const rows: Array<Array<[number, number]>> = [];
  const coefs: number[] = [];
  let dim = 0;
  for (const line of lines) {
    const parts = line.trim().split(/\s+/);
    coefs.push(Number(parts[0]));
    const row: Array<[number, number]> = [];
    for (const p of parts.slice(1)) {
      const [i, v] = p.split(":");
      const index = Number(i);
      if (!Number.isInteger(index) || index < 1) return undefined;
      row.push([index, Number(v)]);
      dim = Math.max(dim, index);
    }
    rows.push(row);
  }
  if (rows.length !== one("total_sv")) return undefined;
  const sv = new Float64Array(rows.length * dim);
  rows.forEach((row, r) => {
    for (const [i, v] of row) sv[r * dim + i - 1] = v;
  });
  return { gamma, rho, probA, probB, labels: [labels[0]!, labels[1]!], coef: Float64Array.from(coefs), sv, dim };
}

const MIN_PROB = 1e-7;

/** libsvm's sigmoid_predict: Platt's P(labels[0] | decision value), written to avoid overflow. */
function sigmoid(dec: number, a: number, b: number): number {
  const fApB = dec * a + b;
  return fApB >= 0 ? Math.exp(-fApB) / (1 + Math.exp(-fApB)) : 1 / (1 + Math.exp(fApB));
}

function rbfModel(serialized: string): SvmModel | undefined {
  const m = parseRbf(serialized);
  if (!m) return undefined;
  const n = m.coef.length;
  /** Σ coef_i · exp(−γ‖x − sv_i‖²) − ρ, summed in the file's order as libsvm does. */
  const dim = m.dim;
  const sv = m.sv;
  const decision = (x: readonly number[]) => {
    let sum = 0;
    if (x.length === dim) {
      // The usual case, without the bounds checks of the general loop below.
      for (let i = 0, base = 0; i < n; i++, base += dim) {
        let d2 = 0;
        for (let j = 0; j < dim; j++) {
          const d = x[j]! - sv[base + j]!;
          d2 += d * d;
        }
        sum += m.coef[i]! * Math.exp(-m.gamma * d2);
      }
      return sum - m.rho;
    }
    for (let i = 0; i < n; i++) {
      let d2 = 0;
      const base = i * m.dim;
      const len = Math.max(m.dim, x.length);
      for (let j = 0; j < len; j++) {
        const d = (x[j] ?? 0) - (j < m.dim ? m.sv[base + j]! : 0);
        d2 += d * d;
      }
      sum += m.coef[i]! * Math.exp(-m.gamma * d2);
    }
    return sum - m.rho;
  };
  const positiveFirst = m.labels[0] === POSITIVE;
  return {
    serialized,
    probabilities(samples) {
      return samples.map((x) => {
        const p0 = Math.min(Math.max(sigmoid(decision(x), m.probA, m.probB), MIN_PROB), 1 - MIN_PROB);
        return positiveFirst ? p0 : 1 - p0;
      });
    },
    predict(samples) {
      return samples.map((x) => (decision(x) > 0 ? m.labels[0] : m.labels[1]));
    },
    free() {},
  };
}
