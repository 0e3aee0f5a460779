/**
 * The pair scorer's model file (`models/quality-<a>-<b>.json`; `bitext quality train` writes the user's copy,
 * which shadows the shipped one): the features and their version, the length-ratio range of the hard rule, the
 * logistic regression and the boosted trees beside it, the threshold, and how it was trained and evaluated.
 */
import { z } from "zod";
import { UserError } from "../errors.js";
import { resolveResource } from "../config/index.js";
import { readJsonFile, validated, writeJsonAtomic } from "../io/index.js";
import type { LanguagePair } from "../language-pair.js";

export const QUALITY_FORMAT = "bitext-quality";
/** 2: boosted trees beside the logistic regression (`trees`); a version 1 model (the regression alone) is still read. */
export const QUALITY_FORMAT_VERSION = 2;

const finite = z.number().finite();

/** One row of the evaluation table: a source's true pairs and the negatives made from them. */
const evalRowSchema = z.object({
  source: z.string(),
  /** "fold": scored by a model trained without this source; "pooled": every fold's pairs together; "held-out": pages never used for training. */
  kind: z.enum(["fold", "pooled", "held-out"]),
  positives: z.number().int(),
  negatives: z.number().int(),
  keepRate: finite,
  precision: finite,
  /** Share of the negatives of each kind that are rejected. */
  rejected: z.record(z.string(), finite),
});
export type EvaluationRow = z.infer<typeof evalRowSchema>;

const treeSchema = z.object({
  feature: z.array(z.number().int().min(-1)),
  threshold: z.array(finite),
  left: z.array(z.number().int().min(-1)),
  right: z.array(z.number().int().min(-1)),
  value: z.array(finite),
});

export const qualityModelSchema = z.object({
  format: z.literal(QUALITY_FORMAT),
  formatVersion: z.union([z.literal(1), z.literal(QUALITY_FORMAT_VERSION)]),
  created: z.string(),
  pair: z.object({ a: z.string().min(2), b: z.string().min(2) }),
  features: z.object({ version: z.string(), names: z.array(z.string()).min(1) }),
  lengthRatio: z.object({ mean: finite, sd: finite.positive(), lo: finite, hi: finite }),
  basis: z.object({ knots: z.array(z.array(finite)), products: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])) }),
  logistic: z.object({ mean: z.array(finite), sd: z.array(finite.positive()), weights: z.array(finite), bias: finite }),
  /** Boosted trees on the features and their share of the score (`src/quality/ensemble.ts`); version 2 only. */
  trees: z.object({ share: finite.min(0).max(1), bias: finite, trees: z.array(treeSchema).min(1) }).optional(),
  /** P(translation) at or above which a pair without a rule against it is kept. */
  threshold: finite.min(0).max(1),
  training: z.object({
    seed: z.number().int(),
    negativeKinds: z.array(z.string()),
    sources: z.array(z.object({ name: z.string(), positives: z.number().int(), negatives: z.number().int() })),
  }),
  evaluation: z.array(evalRowSchema),
  lexicon: z.array(z.string()),
  /**
   * The pairs of one document are scored together, the pairs kept on a first pass teaching the scorer the document's
   * terms (word pairs found in at least `minCount` of them: `src/quality/document.ts`), kept at `firstPass` (the
   * threshold chosen on the scores without the document's terms); the evaluation and the threshold were made so.
   * Absent (models before 2026-11-28): each pair is scored alone. `lengthPrior`: the kept pairs' length ratios
   * also set the document's own (the model's statistics weighing as that many pairs); absent (the models of
   * 2026-11-26 and 27), the model's. `ownModel`: a document of at least `minPairs` kept pairs gets a model of its own
   * (`documentModel`), with `share` of the score; absent (the models of 2026-11-26 to 28), none.
   */
  documentLexicon: z
    .object({
      minCount: z.number().int().min(1),
      firstPass: finite.min(0).max(1),
      lengthPrior: finite.min(0).optional(),
      ownModel: z
        .object({ minPairs: z.number().int().min(2), share: finite.min(0).max(1), threshold: finite.min(0).max(1).optional() })
        .optional(),
    })
    .optional(),
});
export type QualityModelFile = z.infer<typeof qualityModelSchema>;

/** The model file's name for a language pair. */
export function qualityModelName(pair: LanguagePair): string {
  return `quality-${pair.a}-${pair.b}.json`;
}

/** The model in use for a pair: the user's (from `bitext quality train`), else the shipped one. */
export function qualityModelPath(pair: LanguagePair): string {
  return resolveResource("models", qualityModelName(pair));
}

const hint = " (not a usable bitext quality model)";

export function readQualityModel(path: string): QualityModelFile {
  const model = asModelError(() => validated(qualityModelSchema, readJsonFile(path, "quality model", hint), path));
  const n = model.features.names.length;
  if (model.basis.knots.length !== n || model.basis.products.some(([i, j]) => i >= n || j >= n)) {
    throw new UserError(`${path}: basis: does not match the ${n} features${hint}`, { kind: "quality-model-unusable" });
  }
  const d = n + model.basis.knots.reduce((s, k) => s + k.length, 0) + model.basis.products.length;
  for (const k of ["mean", "sd", "weights"] as const) {
    if (model.logistic[k].length !== d)
      throw new UserError(`${path}: logistic.${k}: expected ${d} numbers${hint}`, { kind: "quality-model-unusable" });
  }
  if ((model.formatVersion === QUALITY_FORMAT_VERSION) !== (model.trees !== undefined))
    throw new UserError(`${path}: trees: a version ${QUALITY_FORMAT_VERSION} model has them, a version 1 model does not${hint}`, {
      kind: "quality-model-unusable",
    });
  model.trees?.trees.forEach((t, k) => {
    const problem = treeProblem(t, n);
    if (problem) throw new UserError(`${path}: trees.trees[${k}]: ${problem}${hint}`, { kind: "quality-model-unusable" });
  });
  return model;
}

/** What makes a tree unusable (arrays of different lengths, a child out of range or not after its parent, a feature out of range), if anything. */
function treeProblem(t: z.infer<typeof treeSchema>, features: number): string | undefined {
  const nodes = t.feature.length;
  if (nodes === 0) return "no nodes";
  if ([t.threshold, t.left, t.right, t.value].some((a) => a.length !== nodes)) return `expected ${nodes} numbers in each array`;
  for (let i = 0; i < nodes; i++) {
    if (t.feature[i]! >= features) return `node ${i}: feature ${t.feature[i]} of ${features}`;
    // Children come after their node: walking a tree always ends at a leaf.
    if (t.feature[i]! >= 0 && [t.left[i]!, t.right[i]!].some((c) => c <= i || c >= nodes)) return `node ${i}: child out of range`;
  }
  return undefined;
}

export function writeQualityModel(path: string, model: QualityModelFile): void {
  writeJsonAtomic(path, model);
}

/** A file that is not a usable model (unreadable JSON, a field of the wrong shape) as the model error it is. */
function asModelError<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof UserError && err.kind === undefined)
      throw new UserError(err.message, { kind: "quality-model-unusable", cause: err });
    throw err;
  }
}
