/**
 * What a document teaches the scorer (hunalign's realign, Varga et al. 2005): the pairs of one document (a page, a
 * glossary, a file) that the scorer keeps on a first pass give it
 * - the document's own terms (IBM Model 1 both ways, `learnLexiconFromSentences`), which the general dictionaries
 *   lack (a trade's terms: 直排 "vertical writing", 版心 "type area"). A word pair must occur in at least `minCount`
 *   kept pairs: one pair's own words teach nothing about itself, and the pairs a first pass loses are never learned
 *   from;
 * - the document's own length ratio (Gale and Church 1993 estimate it per corpus): a glossary's headwords, a
 *   standard's headings and a phrasebook's sentences are each translated at a ratio of their own. The mean and the
 *   spread of the kept pairs' log length ratios, weighed against the model's by n / (n + `lengthPrior`);
 * - when they are many (`ownModel.minPairs`), a model of the document's own: its kept pairs against negatives made
 *   from them (shuffled, misaligned, cut, as `bitext quality train` makes them from its sources), fitted as the
 *   scorer's model is (`fitModel`), whose probability has `ownModel.share` of the score. It learns how this document
 *   writes a translation (its headings without a full stop, its terms' length) from the pairs the scorer is sure of:
 *   self-training, as hunalign realigns with what its first pass found. A negative that is one of the document's own
 *   pairs is left out (it is not known to be wrong).
 * Every pair of the document is scored again with them; the hard rules keep the model's own statistics.
 */
import type { LanguagePair } from "../language-pair.js";
import { seededRandom } from "../random.js";
import { type Lexicon, learnLexiconFromSentences, overlayLexicon } from "../text/index.js";
import { predictQuality, type QualityPredictor } from "./ensemble.js";
import type { LengthStats } from "./features.js";
import { exampleOf, fitModel } from "./fit.js";
import { makeNegatives, type TextPair } from "./negatives.js";
import type { LengthRange } from "./rules.js";
import { logLengthRatio, readSide, type Side } from "./sides.js";

/** How a model scores a document (stored in the model file as `documentLexicon`). */
export interface DocumentScoring {
  /** Word pairs the document's lexicon keeps: found in at least this many kept pairs. */
  minCount: number;
  /** The score at or above which a pair without a rule against it teaches the second pass. */
  firstPass: number;
  /** The model's length statistics weigh as this many pairs against the document's (absent: not adapted). */
  lengthPrior?: number | undefined;
  /**
   * A model of the document's own when it has at least `minPairs` kept pairs, with `share` of the score (absent: none).
   * Its scores are kept at `threshold` (chosen on them): they are mapped onto the model's scale, `threshold` onto the
   * model's, so that one threshold (`--min-score`) means the same for every document.
   */
  ownModel?: { minPairs: number; share: number; threshold?: number | undefined } | undefined;
}

/** What the second pass scores with. */
export interface DocumentContext {
  lexicon: Lexicon;
  length: LengthStats;
  /** The document's own model, its share of the score, and the scores mapped onto each other (`from` onto `to`). */
  own?: { model: QualityPredictor; share: number; from: number; to: number };
}

/** A pair's score in its document: the model's, and with the document's own model's where it has one. */
export function documentProbability(model: QualityPredictor, context: DocumentContext, features: readonly number[]): number {
  const p = predictQuality(model, features);
  if (!context.own) return p;
  const { share, from, to } = context.own;
  return ontoScale((1 - share) * p + share * predictQuality(context.own.model, features), from, to);
}

/** A score in [0, 1] mapped piecewise linearly onto [0, 1] so that `from` falls on `to` (order kept). */
export function ontoScale(score: number, from: number, to: number): number {
  if (from <= 0 || from >= 1) return score;
  return score < from ? (score * to) / from : to + ((score - from) * (1 - to)) / (1 - from);
}

/** A document's pairs, as sides. */
export type DocumentSides = ReadonlyArray<readonly [Side, Side]>;

/** A pair's first-pass verdict, as far as the second pass needs it. */
export interface FirstPass {
  score: number;
  /** A hard rule rejects it (the second pass leaves it as it is, and it teaches nothing). */
  ruled: boolean;
}

/**
 * What a document teaches on top of the model's lexicon and length statistics (`lex`, `len`): the pairs its first
 * pass keeps (`first`: no rule against them, scored at or above `scoring.firstPass`) give its lexicon, its length
 * ratio and its own model, as `scoring` asks; null when they teach nothing. `threshold` is the model's.
 */
export function documentContext(
  sides: DocumentSides,
  first: readonly FirstPass[],
  pair: LanguagePair,
  lex: Lexicon,
  len: LengthStats & LengthRange,
  scoring: DocumentScoring,
  threshold: number,
): DocumentContext | null {
  const kept = sides.filter((_, i) => !first[i]!.ruled && first[i]!.score >= scoring.firstPass);
  const own = documentLexicon(
    kept.map(([a, b]) => ({ a: a.text, b: b.text })),
    pair,
    lex,
    scoring.minCount,
  );
  const length =
    scoring.lengthPrior === undefined
      ? len
      : documentLength(
          kept.map(([a, b]) => logLengthRatio(a, b)),
          len,
          scoring.lengthPrior,
        );
  if (!own && length === len) return null;
  const context: DocumentContext = { lexicon: own ?? lex, length };
  if (scoring.ownModel && kept.length >= scoring.ownModel.minPairs) {
    const { share, threshold: from } = scoring.ownModel;
    const model = documentModel({ kept, all: sides }, pair, lex, { ...len, ...length }, context.lexicon);
    context.own = { model, share, from: from ?? threshold, to: threshold };
  }
  return context;
}

/**
 * The document's own model: its kept pairs against negatives made from them (a fixed seed: the same document gets
 * the same model; none of them one of the document's pairs), their features with the document's lexicon (`words`)
 * and length ratio, fitted as the scorer's model is.
 */
function documentModel(
  doc: { kept: DocumentSides; all: DocumentSides },
  pair: LanguagePair,
  lex: Lexicon,
  len: LengthStats & LengthRange,
  words: Lexicon,
): QualityPredictor {
  const key = (a: string, b: string) => `${a}\t${b}`;
  const own = new Set(doc.all.map(([a, b]) => key(a.text, b.text)));
  const example = (a: Side, b: Side, positive: boolean, kind: string) =>
    exampleOf({ source: "document", positive, kind, a, b }, pair, words, len);
  const positives = doc.kept.map(([a, b]) => example(a, b, true, "positive"));
  const negatives = makeNegatives(
    doc.kept.map(([a, b]) => ({ a: a.text, b: b.text })),
    pair,
    lex,
    seededRandom(1),
  )
    .map((n) => [readSide(n.a, pair.a, pair), readSide(n.b, pair.b, pair), n.kind] as const)
    .filter(([a, b]) => !own.has(key(a.text, b.text)))
    .map(([a, b, kind]) => example(a, b, false, kind));
  return fitModel([...positives, ...negatives]);
}

/** The base lexicon with the document's own terms, or null when its kept pairs teach nothing. */
export function documentLexicon(kept: readonly TextPair[], pair: LanguagePair, lex: Lexicon, minCount: number): Lexicon | null {
  if (kept.length < minCount) return null;
  const learned = learnLexiconFromSentences(kept, pair, { minCount });
  return learned.length === 0 ? null : overlayLexicon(lex, learned, "document");
}

/**
 * The document's mean and spread of log length ratios, each drawn toward the model's by its weight `prior` (in pairs):
 * a page of five pairs moves the model's a third of the way, a standard of 700 almost all of it. `prior` itself when
 * there are no ratios.
 */
export function documentLength(ratios: readonly number[], prior: LengthStats, priorPairs: number): LengthStats {
  const n = ratios.length;
  if (n === 0) return prior;
  const mean = ratios.reduce((s, r) => s + r, 0) / n;
  const sd = Math.sqrt(ratios.reduce((s, r) => s + (r - mean) ** 2, 0) / n);
  const w = n / (n + priorPairs);
  // A spread of 0 (every pair at one ratio) would make every other ratio infinitely far: the prior's keeps it finite.
  return { mean: w * mean + (1 - w) * prior.mean, sd: w * sd + (1 - w) * prior.sd };
}
