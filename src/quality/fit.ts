/**
 * Fitting the pair scorer's model (`predictQuality`): the examples it learns from and the fit itself, used by
 * `bitext quality train` (the model of all sources, and one per fold) and by a document scored as one
 * (`documentModel`: a model of the document's own pairs).
 */
import type { LanguagePair } from "../language-pair.js";
import type { Lexicon } from "../text/index.js";
import { expand, fitBasis } from "./basis.js";
import { trainBoosted } from "./boosting.js";
import { type QualityPredictor, TREE_SHARE } from "./ensemble.js";
import { FEATURE_NAMES, type LengthStats, pairFeatures } from "./features.js";
import { trainLogistic } from "./logistic.js";
import { type LengthRange, type RuleName, ruleReasons } from "./rules.js";
import type { Side } from "./sides.js";

/** A pair the model learns from: its source, its label and kind, its sides, features and the rules against it. */
export interface Example {
  source: string;
  positive: boolean;
  kind: string;
  a: Side;
  b: Side;
  features: number[];
  rules: RuleName[];
}

/** A labelled pair's example: its features and the rules against it (the rules with the model's length range). */
export function exampleOf(
  x: { source: string; positive: boolean; kind: string; a: Side; b: Side },
  pair: LanguagePair,
  lex: Lexicon,
  len: LengthStats & LengthRange,
): Example {
  return { ...x, features: pairFeatures(x.a, x.b, pair, lex, len), rules: ruleReasons(x.a, x.b, len) };
}

/** Sources with more examples than this weigh as if they had this many (so one big corpus does not drown the sites). */
const SOURCE_WEIGHT_CAP = 2000;
/**
 * The logistic regression's L2 penalty: a strong one (measured 1, 3, 5, 10, 30, 100 with folds by source) keeps
 * the weights of a source left out close to what the other sources agree on, not to their own cut points.
 */
const L2_PENALTY = 10;

/**
 * Negative kinds measured (and reported) but not used to choose the threshold, and learned from with a small
 * weight only (MEASURED_WEIGHT): a linear model on these features cannot tell a word-by-word gloss from a
 * translation (it has the words; only fluency differs), and learning them as fully as the others blurs every
 * other decision; not learning them at all lets the model lean on coverage, which a gloss has.
 */
export const MEASURED_ONLY: ReadonlySet<string> = new Set(["gloss"]);
/** The weight of a measured-only negative in training (measured 0, 0.03, 0.05, 0.1, 0.3; see docs/corpus-quality.md). */
const MEASURED_WEIGHT = 0.05;

/** The features whose effect depends on the shorter side's length (see `Basis`), by name. */
const BY_LENGTH = ["cov_min", "punct_agree", "final_same", "len_z2", "num_agree", "tail_min", "cov_b_chars"];

/**
 * Boosted trees of the scorer (`src/quality/boosting.ts`): 50 trees of depth 3, learning rate 0.1, leaves of at
 * least 50 pairs, L2 penalty 10 on the leaves (measured with folds by source: depth 2–4, 30–150 trees, penalty
 * 3–10, leaves of 20–100 pairs keep within half a point of each other; see docs/corpus-quality.md).
 */
const TREES = { rounds: 50, depth: 3, learningRate: 0.1, l2: 10, minLeaf: 50 };

/**
 * The model learns the pairs the rules let through (the ones its score decides), measured-only kinds weighing
 * little: a logistic regression on the expanded features and boosted trees on the features, with the same weights.
 */
export function fitModel(all: readonly Example[]): Required<QualityPredictor> {
  const examples = all.filter((e) => e.rules.length === 0);
  const perSource = new Map<string, number>();
  for (const e of examples) perSource.set(e.source, (perSource.get(e.source) ?? 0) + 1);
  const names: readonly string[] = FEATURE_NAMES;
  const len = names.indexOf("log_len");
  const basis = fitBasis(
    examples.map((e) => e.features),
    BY_LENGTH.map((n) => [len, names.indexOf(n)] as [number, number]),
  );
  const weights = examples.map(
    (e) => Math.min(1, SOURCE_WEIGHT_CAP / perSource.get(e.source)!) * (MEASURED_ONLY.has(e.kind) ? MEASURED_WEIGHT : 1),
  );
  const labels = examples.map((e) => (e.positive ? 1 : 0));
  const logistic = trainLogistic(
    examples.map((e) => expand(basis, e.features)),
    labels,
    { l2: L2_PENALTY, sampleWeights: weights },
  );
  const trees = trainBoosted(
    examples.map((e) => e.features),
    labels,
    { ...TREES, sampleWeights: weights },
  );
  return { basis, logistic, trees: { share: TREE_SHARE, ...trees } };
}
