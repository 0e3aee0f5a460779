/**
 * Training and evaluating the pair scorer (`bitext quality train`): real pairs of several sources as
 * positives, synthetic negatives made from each source's own pairs (`makeNegatives`), a logistic regression
 * and boosted trees on the pair features (`predictQuality` averages them), and an evaluation with folds by
 * source (each source scored by a model trained without it) plus held-out sources scored by the final model.
 */
import type { LanguagePair } from "../language-pair.js";
import { seededRandom, shuffled } from "../random.js";
import { type Lexicon, lexiconSourceName, loadLexicon, shippedDictionaryFiles, shippedLexiconFiles } from "../text/index.js";
import { type DocumentScoring, documentContext, documentProbability, ontoScale } from "./document.js";
import { predictQuality, type QualityPredictor } from "./ensemble.js";
import { type Example, exampleOf, fitModel, MEASURED_ONLY } from "./fit.js";
import { FEATURE_NAMES, FEATURES_VERSION, type LengthStats, pairFeatures } from "./features.js";
import type { LogisticModel } from "./logistic.js";
import { type EvaluationRow, QUALITY_FORMAT, QUALITY_FORMAT_VERSION, type QualityModelFile } from "./model-file.js";
import { makeNegatives, NEGATIVE_KINDS, type TextPair } from "./negatives.js";
import type { LengthRange } from "./rules.js";
import { logLengthRatio, readSide } from "./sides.js";

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

/** How far outside the real pairs' extreme length ratios (in log units) the length rule starts. */
const LENGTH_MARGIN = 0.7;

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
  const toExample = (x: (typeof trainSides)[number]) => exampleOf(x, pair, lex, len);
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
  const { scoring, threshold } = asDocuments(oof, foldModels, { pair, lex, len }, minPrecision);
  const asDocument = { pair, lex, len, scoring };
  options.onProgress?.("final model");
  const final = fitModel(trainEx);
  const rows: EvaluationRow[] = [...oof.entries()].map(([name, scored]) => evaluationRow(name, "fold", scored, threshold));
  rows.push(evaluationRow("all folds", "pooled", [...oof.values()].flat(), threshold));
  for (const s of sources.filter((x) => x.heldOut)) {
    const alone = evalEx.filter((e) => e.source === s.name).map((ex) => ({ ex, p: predictQuality(final, ex.features) }));
    const scored = scoredAsDocument(alone, final, asDocument, threshold);
    rows.push(evaluationRow(s.name, "held-out", scored, threshold));
    oof.set(s.name, scored);
  }
  return { pair, seed, lex, trainEx, len, oof, threshold, scoring, final, rows };
}

/**
 * How each source is scored as one document (`src/quality/document.ts`): word pairs found in at least 2 kept pairs (2
 * and 3 measured alike with folds by source); the model's length statistics weighing as 10 pairs against the
 * document's (measured: the document's alone, 10 and 30 pairs; 10 keeps the most, within 0.1 point of the
 * document's alone, and keeps a page of a few pairs close to the model's); a model of the document's own from 50 kept
 * pairs, with half the score (measured: from 30, 50, 100, 200 pairs; a share of 0.3, 0.5, 0.7).
 */
const DOCUMENT_SCORING = { minCount: 2, lengthPrior: 10 };
const OWN_MODEL = { minPairs: 50, share: 0.5 };

type Fold = { pair: LanguagePair; lex: Lexicon; len: LengthStats & LengthRange };

/**
 * Each source scored as one document (`scoreDocument`), in the folds' out-of-fold scores (`oof`, replaced): its pairs
 * kept at the threshold of the scores alone (`firstPass`) teach the scorer its terms and its length ratio, and every
 * pair is scored again; the model's threshold is chosen on those scores. A source with enough kept pairs also gets a
 * model of its own, whose scores are kept at a threshold of their own, chosen with the other sources' pairs kept at
 * the model's, and mapped onto the model's scale.
 */
function asDocuments(
  oof: Map<string, Scored[]>,
  foldModels: ReadonlyMap<string, Required<QualityPredictor>>,
  fold: Fold,
  minPrecision: number,
): { scoring: DocumentScoring; threshold: number } {
  const names = [...oof.keys()];
  const alone = new Map(oof);
  const base: DocumentScoring = { ...DOCUMENT_SCORING, firstPass: chooseThreshold([...alone.values()], minPrecision) };
  const again = (name: string, scoring: DocumentScoring, t: number) =>
    scoredAsDocument(alone.get(name)!, foldModels.get(name)!, { ...fold, scoring }, t);
  for (const name of names) oof.set(name, again(name, base, 0));
  const threshold = chooseThreshold([...oof.values()], minPrecision);
  // The sources big enough for a model of their own, scored with it (their scores not yet mapped).
  const own = names.filter((n) => alone.get(n)!.filter((s) => kept(s, base.firstPass)).length >= OWN_MODEL.minPairs);
  if (own.length === 0) return { scoring: base, threshold };
  const mixed = own.map((n) => again(n, { ...base, ownModel: OWN_MODEL }, threshold));
  const others = names.filter((n) => !own.includes(n)).map((n) => oof.get(n)!);
  const onto = (scored: readonly Scored[], from: number) => scored.map((s) => ({ ...s, p: ontoScale(s.p, from, threshold) }));
  const ownThreshold = bestThreshold(minPrecision, (t) => measureFolds([...mixed.map((m) => onto(m, t)), ...others], threshold));
  for (const [i, n] of own.entries()) oof.set(n, onto(mixed[i]!, ownThreshold));
  return { scoring: { ...base, ownModel: { ...OWN_MODEL, threshold: ownThreshold } }, threshold };
}

/**
 * A source's pairs scored again as one document, as `scoreDocument` scores a page: the pairs kept at `firstPass`
 * (negatives too, as a page's misaligned pairs would be) teach the scorer the document's terms and length ratio (and
 * its own model). A pair a rule rejects stays as it was. `threshold`: the model's.
 */
function scoredAsDocument(
  scored: readonly Scored[],
  model: Required<QualityPredictor>,
  doc: Fold & { scoring: DocumentScoring },
  threshold: number,
): Scored[] {
  const context = documentContext(
    scored.map((s) => [s.ex.a, s.ex.b] as const),
    scored.map((s) => ({ score: s.p, ruled: s.ex.rules.length > 0 })),
    doc.pair,
    doc.lex,
    doc.len,
    doc.scoring,
    threshold,
  );
  if (!context) return [...scored];
  return scored.map((s) => {
    if (s.ex.rules.length > 0) return s;
    const features = pairFeatures(s.ex.a, s.ex.b, doc.pair, context.lexicon, context.length);
    return { ex: { ...s.ex, features }, p: documentProbability(model, context, features) };
  });
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
  return bestThreshold(minPrecision, (t) => measureFolds(folds, t));
}

/** The mean keep-rate over sources and the pooled precision of the folds' pairs at `t` (measured-only kinds left out). */
function measureFolds(folds: ReadonlyArray<readonly Scored[]>, t: number): { keep: number; precision: number } {
  const learned = folds.map((f) => f.filter((s) => !MEASURED_ONLY.has(s.ex.kind)));
  const keep = learned.reduce((sum, f) => sum + measure(f, t).keepRate, 0) / learned.length;
  return { keep, precision: measure(learned.flat(), t).precision };
}

/** Over thresholds 0.020–0.995 in steps of 0.001, the one `chooseThreshold` describes, `at` measuring each. */
function bestThreshold(minPrecision: number, at: (t: number) => { keep: number; precision: number }): number {
  let best = { t: 0.5, keep: -1, precision: -1 };
  for (let i = 20; i <= 995; i++) {
    const t = i / 1000;
    const { keep, precision } = at(t);
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
