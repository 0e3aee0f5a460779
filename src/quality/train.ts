/**
 * Training and evaluating the pair scorer (`bitext quality train`): real pairs of several sources as
 * positives, synthetic negatives made from each source's own pairs (`makeNegatives`), a logistic regression
 * and boosted trees on the pair features (`predictQuality` averages them), and an evaluation with folds by
 * source (each source scored by a model trained without it) plus held-out sources scored by the final model.
 */
import type { LanguagePair } from "../language-pair.js";
import { seededRandom, shuffled } from "../random.js";
import { type Lexicon, lexiconSourceName, loadLexicon, shippedDictionaryFiles, shippedLexiconFiles } from "../text/index.js";
import { expand, fitBasis } from "./basis.js";
import { trainBoosted } from "./boosting.js";
import { type DocumentScoring, documentContext } from "./document.js";
import { predictQuality, type QualityPredictor, TREE_SHARE } from "./ensemble.js";
import { FEATURE_NAMES, FEATURES_VERSION, type LengthStats, pairFeatures } from "./features.js";
import { type LogisticModel, trainLogistic } from "./logistic.js";
import { type EvaluationRow, QUALITY_FORMAT, QUALITY_FORMAT_VERSION, type QualityModelFile } from "./model-file.js";
import { makeNegatives, NEGATIVE_KINDS, type TextPair } from "./negatives.js";
import { type LengthRange, type RuleName, ruleReasons } from "./rules.js";
import { logLengthRatio, readSide, type Side } from "./sides.js";

export interface TrainingSource {
  /** The source's name (a site, a corpus): the unit of the folds. */
  name: string;
  /** Real pairs, in the source's order. */
  pairs: TextPair[];
  /** Pairs its fold is measured on (default: `pairs`); kept apart from `pairs` when given. */
  evalPairs?: TextPair[];
  /** Never trained on: measured with the final model and reported apart. */
  heldOut?: boolean;
}

export interface QualityTrainOptions {
  pair: LanguagePair;
  lexicon?: Lexicon;
  seed?: number;
  /** At most this many training pairs of one source (a random sample; default 4000). */
  maxPerSource?: number;
  /** Precision against the negatives the threshold must reach, on the folds' pairs together (default 0.98). */
  minPrecision?: number;
  onProgress?: (phase: string) => void;
}

interface Example {
  source: string;
  positive: boolean;
  kind: string;
  a: Side;
  b: Side;
  features: number[];
  rules: RuleName[];
}

/** How far outside the real pairs' extreme length ratios (in log units) the length rule starts. */
const LENGTH_MARGIN = 0.7;
/** Sources with more examples than this weigh as if they had this many (so one big corpus does not drown the sites). */
const SOURCE_WEIGHT_CAP = 2000;
/**
 * The logistic regression's L2 penalty: a strong one (measured 1, 3, 5, 10, 30, 100 with folds by source) keeps
 * the weights of a source left out close to what the other sources agree on, not to their own cut points.
 */
const L2_PENALTY = 10;

type Labelled = { source: string; positive: boolean; kind: string; pair: TextPair };

/**
 * The examples: each source's real pairs and the negatives made from them (training: a sample of at most
 * `maxPer` pairs of each source not held out; measuring: `evalPairs` and held-out sources), their features and
 * the rules against them, with the length statistics of the real training pairs.
 */
function buildExamples(sources: readonly TrainingSource[], pair: LanguagePair, lex: Lexicon, maxPer: number, random: () => number) {
  const train: Labelled[] = [];
  const evalSet: Labelled[] = [];
  for (const s of sources) {
    const trainPairs = s.pairs.length > maxPer ? sampleInOrder(s.pairs, maxPer, random) : s.pairs;
    const add = (into: Labelled[], pairs: readonly TextPair[]) => {
      for (const p of pairs) into.push({ source: s.name, positive: true, kind: "positive", pair: p });
      for (const n of makeNegatives(pairs, pair, lex, random)) into.push({ source: s.name, positive: false, kind: n.kind, pair: n });
    };
    if (!s.heldOut) add(train, trainPairs);
    if (s.heldOut || s.evalPairs) add(evalSet, s.evalPairs ?? s.pairs);
  }
  const sides = (xs: Labelled[]) => xs.map((x) => ({ ...x, a: readSide(x.pair.a, pair.a, pair), b: readSide(x.pair.b, pair.b, pair) }));
  const trainSides = sides(train);
  const len = lengthStats(trainSides.filter((x) => x.positive).map((x) => logLengthRatio(x.a, x.b)));
  const toExample = (x: (typeof trainSides)[number]): Example => ({
    source: x.source,
    positive: x.positive,
    kind: x.kind,
    a: x.a,
    b: x.b,
    features: pairFeatures(x.a, x.b, pair, lex, len),
    rules: ruleReasons(x.a, x.b, len),
  });
  return { trainEx: trainSides.map(toExample), evalEx: sides(evalSet).map(toExample), len };
}

/** The scorer's lexicon: the shared one and the dictionaries (`models/dictionary-*.tsv`: terms CC-CEDICT lacks). */
export function qualityLexicon(pair: LanguagePair): Lexicon {
  return loadLexicon(pair, { files: [...shippedLexiconFiles(), ...shippedDictionaryFiles()] });
}

export function trainQualityModel(sources: readonly TrainingSource[], options: QualityTrainOptions): QualityModelFile {
  const { pair, seed, lex, trainEx, len, threshold, scoring, final, rows } = crossValidate(sources, options);
  return {
    format: QUALITY_FORMAT,
    formatVersion: QUALITY_FORMAT_VERSION,
    created: new Date().toISOString(),
    pair: { a: pair.a, b: pair.b },
    features: { version: FEATURES_VERSION, names: [...FEATURE_NAMES] },
    lengthRatio: len,
    basis: final.basis,
    logistic: roundModel(final.logistic),
    trees: final.trees,
    threshold,
    training: {
      seed,
      negativeKinds: [...NEGATIVE_KINDS],
      sources: sources
        .filter((s) => !s.heldOut)
        .map((s) => ({
          name: s.name,
          positives: trainEx.filter((e) => e.source === s.name && e.positive).length,
          negatives: trainEx.filter((e) => e.source === s.name && !e.positive).length,
        })),
    },
    evaluation: rows,
    // The lexicon's sources by name (a path would name the machine the model was trained on): the scorer loads them.
    lexicon: lex.sources.map(lexiconSourceName),
    documentLexicon: scoring,
  };
}

/**
 * The folds by source, the threshold chosen on their out-of-fold scores, the final model on every training
 * source, and the evaluation rows (internal: `trainQualityModel` writes them into a model file; diagnostics
 * read the out-of-fold scores).
 */
export function crossValidate(sources: readonly TrainingSource[], options: QualityTrainOptions) {
  const { pair } = options;
  const seed = options.seed ?? 1;
  const lex = options.lexicon ?? qualityLexicon(pair);
  options.onProgress?.("examples");
  const { trainEx, evalEx, len } = buildExamples(sources, pair, lex, options.maxPerSource ?? 4000, seededRandom(seed));

  // Folds by source: each training source is measured by a model trained on the others.
  options.onProgress?.("folds");
  const foldNames = sources.filter((s) => !s.heldOut).map((s) => s.name);
  const minPrecision = options.minPrecision ?? 0.98;
  const oof = new Map<string, Scored[]>();
  const foldModels = new Map<string, Required<QualityPredictor>>();
  for (const name of foldNames) {
    const model = fitModel(trainEx.filter((e) => e.source !== name));
    foldModels.set(name, model);
    const measured = sources.find((s) => s.name === name)?.evalPairs ? evalEx : trainEx;
    oof.set(
      name,
      measured.filter((e) => e.source === name).map((ex) => ({ ex, p: predictQuality(model, ex.features) })),
    );
  }
  // Each source is one document (`scoreDocument`): its pairs kept at the threshold of the scores alone teach the
  // scorer its terms and its length ratio, every pair is scored again, and the threshold is chosen on those scores.
  const scoring: DocumentScoring = { ...DOCUMENT_SCORING, firstPass: chooseThreshold([...oof.values()], minPrecision) };
  const asDocument = { pair, lex, len, scoring };
  for (const name of foldNames) oof.set(name, scoredAsDocument(oof.get(name)!, foldModels.get(name)!, asDocument));
  const threshold = chooseThreshold([...oof.values()], minPrecision);
  options.onProgress?.("final model");
  const final = fitModel(trainEx);
  const rows: EvaluationRow[] = [...oof.entries()].map(([name, scored]) => evaluationRow(name, "fold", scored, threshold));
  rows.push(evaluationRow("all folds", "pooled", [...oof.values()].flat(), threshold));
  for (const s of sources.filter((x) => x.heldOut)) {
    const alone = evalEx.filter((e) => e.source === s.name).map((ex) => ({ ex, p: predictQuality(final, ex.features) }));
    const scored = scoredAsDocument(alone, final, asDocument);
    rows.push(evaluationRow(s.name, "held-out", scored, threshold));
    oof.set(s.name, scored);
  }
  return { pair, seed, lex, trainEx, len, oof, threshold, scoring, final, rows };
}

/**
 * How each source is scored as one document (`src/quality/document.ts`): word pairs found in at least 2 kept pairs (2
 * and 3 measured alike with folds by source), the model's length statistics weighing as 10 pairs against the
 * document's (measured: the document's alone, 10 and 30 pairs; 10 keeps the most, within 0.1 point of the
 * document's alone, and keeps a page of a few pairs close to the model's).
 */
const DOCUMENT_SCORING = { minCount: 2, lengthPrior: 10 };

/**
 * A source's pairs scored again as one document, as `scoreDocument` scores a page: the pairs kept at `firstPass`
 * (negatives too, as a page's misaligned pairs would be) teach the scorer the document's terms and length ratio. A
 * pair a rule rejects stays as it was.
 */
function scoredAsDocument(
  scored: readonly Scored[],
  model: Required<QualityPredictor>,
  doc: { pair: LanguagePair; lex: Lexicon; len: LengthStats; scoring: DocumentScoring },
): Scored[] {
  const teachers = scored.filter((s) => kept(s, doc.scoring.firstPass)).map((s) => [s.ex.a, s.ex.b] as const);
  const context = documentContext(teachers, doc.pair, doc.lex, doc.len, doc.scoring);
  if (!context) return [...scored];
  return scored.map((s) => {
    if (s.ex.rules.length > 0) return s;
    const features = pairFeatures(s.ex.a, s.ex.b, doc.pair, context.lexicon, context.length);
    return { ex: { ...s.ex, features }, p: predictQuality(model, features) };
  });
}

/**
 * Negative kinds measured (and reported) but not used to choose the threshold, and learned from with a small
 * weight only (MEASURED_WEIGHT): a linear model on these features cannot tell a word-by-word gloss from a
 * translation (it has the words; only fluency differs), and learning them as fully as the others blurs every
 * other decision; not learning them at all lets the model lean on coverage, which a gloss has.
 */
const MEASURED_ONLY: ReadonlySet<string> = new Set(["gloss"]);
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
function fitModel(all: readonly Example[]): Required<QualityPredictor> {
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

function lengthStats(ratios: readonly number[]): LengthStats & LengthRange {
  const sorted = [...ratios].sort((x, y) => x - y);
  const mean = sorted.reduce((s, r) => s + r, 0) / Math.max(1, sorted.length);
  const sd = Math.sqrt(sorted.reduce((s, r) => s + (r - mean) ** 2, 0) / Math.max(1, sorted.length)) || 1;
  const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(f * (sorted.length - 1))))] ?? 0;
  return { mean: round(mean), sd: round(sd), lo: round(q(0.001) - LENGTH_MARGIN), hi: round(q(0.999) + LENGTH_MARGIN) };
}

/** A random sample of `n` items, in their original order. */
function sampleInOrder<T>(items: readonly T[], n: number, random: () => number): T[] {
  const keep = new Set(shuffled([...items.keys()], random).slice(0, n));
  return items.filter((_, i) => keep.has(i));
}

type Scored = { ex: Example; p: number };

const kept = (s: Scored, t: number) => s.ex.rules.length === 0 && s.p >= t;

/** Keep-rate of the real pairs and precision against the negatives at threshold `t`. */
function measure(scored: readonly Scored[], t: number): { keepRate: number; precision: number; positives: number; negatives: number } {
  let pos = 0;
  let neg = 0;
  let tp = 0;
  let fp = 0;
  for (const s of scored) {
    if (s.ex.positive) {
      pos++;
      if (kept(s, t)) tp++;
    } else {
      neg++;
      if (kept(s, t)) fp++;
    }
  }
  return { keepRate: pos ? tp / pos : 0, precision: tp + fp ? tp / (tp + fp) : 1, positives: pos, negatives: neg };
}

/**
 * The threshold: the one keeping the most real pairs (averaged over sources) while the precision of all the
 * folds' pairs together stays at or above `minPrecision` (in steps of 0.001: the scores of real pairs crowd
 * near 1, where a step of 0.01 loses several points of keep-rate); the most precise one if none reaches it.
 */
function chooseThreshold(folds: ReadonlyArray<readonly Scored[]>, minPrecision: number): number {
  let best = { t: 0.5, keep: -1, precision: -1 };
  const learned = folds.map((f) => f.filter((s) => !MEASURED_ONLY.has(s.ex.kind)));
  const pooled = learned.flat();
  for (let i = 20; i <= 995; i++) {
    const t = i / 1000;
    const ms = learned.map((f) => measure(f, t));
    const keep = ms.reduce((s, m) => s + m.keepRate, 0) / ms.length;
    const precision = measure(pooled, t).precision;
    const ok = precision >= minPrecision;
    const bestOk = best.precision >= minPrecision;
    if ((ok && (!bestOk || keep > best.keep)) || (!ok && !bestOk && precision > best.precision)) best = { t, keep, precision };
  }
  return best.t;
}

function evaluationRow(source: string, kind: EvaluationRow["kind"], scored: readonly Scored[], t: number): EvaluationRow {
  const m = measure(
    scored.filter((s) => !MEASURED_ONLY.has(s.ex.kind)),
    t,
  );
  const rejected: Record<string, number> = {};
  for (const k of NEGATIVE_KINDS) {
    const ofKind = scored.filter((s) => s.ex.kind === k);
    if (ofKind.length) rejected[k] = round(ofKind.filter((s) => !kept(s, t)).length / ofKind.length);
  }
  return {
    source,
    kind,
    positives: m.positives,
    negatives: m.negatives,
    keepRate: round(m.keepRate),
    precision: round(m.precision),
    rejected,
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function roundModel(m: LogisticModel): LogisticModel {
  return { mean: m.mean.map(round), sd: m.sd.map(round), weights: m.weights.map(round), bias: round(m.bias) };
}
