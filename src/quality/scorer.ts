import { UserError } from "../errors.js";
import type { LanguagePair } from "../language-pair.js";
import { type Lexicon, lexiconNamed, loadLexicon } from "../text/index.js";
import { type DocumentContext, documentContext, documentProbability } from "./document.js";
import { FEATURE_NAMES, FEATURES_VERSION, pairFeatures } from "./features.js";
import { type QualityModelFile, qualityModelPath, readQualityModel } from "./model-file.js";
import { LOW_SCORE, type Reason, ruleReasons } from "./rules.js";
import { readSide, type Side } from "./sides.js";

/** The scorer's verdict on one pair. */
export interface PairVerdict {
  /** The model's probability that the two sides translate each other, in [0, 1]; 0 when a hard rule rejects the pair. */
  score: number;
  /** No rule against it and `score` ≥ the threshold. */
  keep: boolean;
  /** The rules that reject it, or `low_score`; empty when kept. */
  reasons: Reason[];
}

export interface PairScorer {
  readonly pair: LanguagePair;
  readonly threshold: number;
  /** Where the model came from (its path), for provenance. */
  readonly modelPath: string;
  /** Score a pair: `a` in the pair's first language, `b` in its second. */
  score(a: string, b: string): PairVerdict;
  /**
   * Score the pairs of one document (a page's pairs, a glossary, a file) together: when the model was trained so,
   * the pairs kept on a first pass teach the scorer the document's own terms, and every pair is scored again with
   * them (`documentLexicon`); else as `score` scores each. Verdicts in the pairs' order.
   */
  scoreDocument(pairs: ReadonlyArray<{ a: string; b: string }>): PairVerdict[];
}

export interface ScorerOptions {
  /** Keep pairs scored at or above this instead of the model's threshold. */
  threshold?: number;
  /** The lexicon (default: the shared lexicon of the model's pair). */
  lexicon?: Lexicon;
  /** A model file (default: the user's, else the shipped model of the pair). */
  modelPath?: string;
}

/** The scorer of a pair's model (read from `options.modelPath` or found for `pair`). */
export function loadScorer(pair: LanguagePair, options: ScorerOptions = {}): PairScorer {
  const path = options.modelPath ?? qualityModelPath(pair);
  const model = readQualityModel(path);
  if (model.pair.a !== pair.a || model.pair.b !== pair.b) {
    throw new UserError(`${path}: pair: the model scores ${model.pair.a}-${model.pair.b}, not ${pair.a}-${pair.b}`);
  }
  return createScorer(model, path, options);
}

export function createScorer(model: QualityModelFile, modelPath: string, options: ScorerOptions = {}): PairScorer {
  if (model.features.version !== FEATURES_VERSION || model.features.names.join() !== FEATURE_NAMES.join()) {
    throw new UserError(`${modelPath}: features: made for ${model.features.version}, this bitext computes ${FEATURES_VERSION}`, {
      kind: "quality-model-unusable",
    });
  }
  const pair: LanguagePair = model.pair;
  // The lexicon the model was trained with (a model from before it was recorded: the shared lexicon).
  const lex = options.lexicon ?? (model.lexicon?.length ? lexiconNamed(pair, model.lexicon, modelPath) : loadLexicon(pair));
  const threshold = options.threshold ?? model.threshold;
  const len = model.lengthRatio;
  const alone: DocumentContext = { lexicon: lex, length: len };
  const verdictOf = (sa: Side, sb: Side, context = alone): PairVerdict => {
    const reasons: Reason[] = ruleReasons(sa, sb, len);
    // A pair a hard rule rejects scores 0 without a feature pass, as Bicleaner's hard rules do: the model learned
    // only from pairs the rules let through, so its probability for one they reject would be a guess.
    if (reasons.length > 0) return { score: 0, keep: false, reasons };
    const score = documentProbability(model, context, pairFeatures(sa, sb, pair, context.lexicon, context.length));
    if (score < threshold) reasons.push(LOW_SCORE);
    return { score, keep: reasons.length === 0, reasons };
  };
  const sidesOf = (a: string, b: string) => [readSide(a, pair.a, pair), readSide(b, pair.b, pair)] as const;
  const document = model.documentLexicon;
  return {
    pair,
    threshold,
    modelPath,
    score: (a, b) => verdictOf(...sidesOf(a, b)),
    scoreDocument(pairs) {
      const sides = pairs.map((p) => sidesOf(p.a, p.b));
      const first = sides.map(([sa, sb]) => verdictOf(sa, sb));
      if (!document) return first;
      // The first pass keeps at the model's own first-pass threshold, whatever the threshold a caller keeps at.
      const passed = first.map((v) => ({ score: v.score, ruled: v.reasons.some((r) => r !== LOW_SCORE) }));
      const context = documentContext(sides, passed, pair, lex, len, document, model.threshold);
      // The rules read neither the lexicon nor the document's length ratio: a pair they reject stays as it was.
      return context ? sides.map(([sa, sb], i) => (passed[i]!.ruled ? first[i]! : verdictOf(sa, sb, context))) : first;
    },
  };
}
