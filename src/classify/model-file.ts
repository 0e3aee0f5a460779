/**
 * The classifier model file (`models/default.json`, `bitext train --out …`): everything needed to
 * reproduce a decision — the feature set and its version, the scaling, the SVM and its parameters —
 * plus how it was obtained (CV figures, training-set hash and size, date).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { UserError } from "../errors.js";
import { writeJsonAtomic } from "../io/index.js";
import { readJsonFile } from "../io/index.js";
import type { LanguagePair } from "../text/index.js";
import type { MinMaxScaling } from "./scaling.js";
import type { CvResult, GridRow } from "./grid-search.js";

export const MODEL_FORMAT = "bitext-classifier";
export const MODEL_FORMAT_VERSION = 1;

export interface ModelFile {
  format: typeof MODEL_FORMAT;
  formatVersion: number;
  created: string;
  features: { version: string; names: string[]; pair: LanguagePair };
  scaling: MinMaxScaling;
  svm: { type: "C-SVC"; kernel: "RBF"; C: number; gamma: number; probability: true; libsvm: string };
  /** P(bilingual) at or above which a record is labelled bilingual. */
  threshold: number;
  cv: {
    folds: number;
    seed: number;
    /** The chosen (C, γ): decisions by the SVM's sign, as in the grid search. */
    chosen: GridRow;
    /** The chosen (C, γ) again, deciding by probability ≥ threshold as the classifier does. */
    withProbability: CvResult;
    grid: GridRow[];
  };
  training: { file: string; sha256: string; size: number; positives: number; negatives: number; who: string[] };
  lexicon: string[];
}

/** `name@hash`: the file name without `.json` and the first 12 hex of the SVM + scaling + features. */
export function modelIdOf(path: string, model: ModelFile): string {
  const h = createHash("sha256")
    .update(JSON.stringify([model.features, model.scaling, model.svm.libsvm, model.threshold]))
    .digest("hex");
  return `${basename(path).replace(/\.json$/, "")}@${h.slice(0, 12)}`;
}

function fail(path: string, field: string, problem: string): never {
  throw new UserError(`${path}: ${field}: ${problem} (not a usable bitext classifier model)`, { kind: "classifier-model-unusable" });
}

function numbers(path: string, field: string, v: unknown, length: number): number[] {
  if (!Array.isArray(v) || v.length !== length || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
    fail(path, field, `expected ${length} finite numbers`);
  }
  return v as number[];
}

/** Check a parsed model file; throws a UserError naming the file and the field at fault. */
export function validateModel(path: string, raw: unknown): ModelFile {
  if (typeof raw !== "object" || raw === null) fail(path, "(root)", "not a JSON object");
  const m = raw as Partial<ModelFile> & Record<string, unknown>;
  if (m.format !== MODEL_FORMAT) fail(path, "format", `expected "${MODEL_FORMAT}"`);
  if (m.formatVersion !== MODEL_FORMAT_VERSION)
    fail(path, "formatVersion", `expected ${MODEL_FORMAT_VERSION}, found ${String(m.formatVersion)}`);
  const f = m.features;
  if (
    !f ||
    typeof f.version !== "string" ||
    !Array.isArray(f.names) ||
    !f.pair ||
    typeof f.pair.a !== "string" ||
    typeof f.pair.b !== "string"
  ) {
    fail(path, "features", "missing version, names or pair");
  }
  const d = f.names.length;
  if (d === 0) fail(path, "features.names", "empty");
  const s = m.scaling;
  if (s?.method !== "min-max") fail(path, "scaling.method", 'expected "min-max"');
  numbers(path, "scaling.min", s.min, d);
  numbers(path, "scaling.max", s.max, d);
  const svm = m.svm;
  if (svm?.type !== "C-SVC" || svm.kernel !== "RBF") fail(path, "svm", "expected an RBF C-SVC");
  if (!(svm.C > 0) || !(svm.gamma > 0)) fail(path, "svm.C/gamma", "expected positive numbers");
  if (typeof svm.libsvm !== "string") fail(path, "svm.libsvm", "missing the libsvm model text");
  const text = svm.libsvm;
  const header = (key: string) => new RegExp(`^${key} (.*)$`, "m").exec(text)?.[1];
  if (!text.startsWith("svm_type c_svc\n") || header("kernel_type") !== "rbf") fail(path, "svm.libsvm", "not a libsvm RBF C-SVC model");
  if (header("nr_class") !== "2") fail(path, "svm.libsvm", "expected 2 classes");
  if (header("probA") === undefined || header("probB") === undefined) fail(path, "svm.libsvm", "trained without probability estimates");
  const total = Number(header("total_sv"));
  const svLines = text
    .slice(text.indexOf("\nSV\n") + 4)
    .split("\n")
    .filter((l) => l.trim());
  if (!text.includes("\nSV\n") || !(total > 0) || svLines.length !== total) {
    fail(path, "svm.libsvm", `expected ${header("total_sv") ?? "?"} support vectors, found ${svLines.length}`);
  }
  for (const line of svLines) {
    if (!/^-?[\d.e+-]+( \d+:-?[\d.e+-]+)* ?$/.test(line)) fail(path, "svm.libsvm", `malformed support vector "${line.slice(0, 40)}"`);
  }
  if (typeof m.threshold !== "number" || !(m.threshold > 0 && m.threshold < 1)) fail(path, "threshold", "expected a number in (0, 1)");
  return m as ModelFile;
}

/** Read and check a model file; every problem is a one-line UserError naming the file. */
export function readModelFile(path: string): ModelFile {
  if (!existsSync(path)) throw new UserError(`${path}: model file not found`, { kind: "classifier-model-missing" });
  const hint = "; the model file is corrupt";
  return validateModel(path, readJsonFile(path, "model file", hint));
}

export function writeModelFile(path: string, model: ModelFile): void {
  writeJsonAtomic(path, model);
}
