/**
 * What a document teaches the scorer (hunalign's realign, Varga et al. 2005): the pairs of one document (a page, a
 * glossary, a file) that the scorer keeps on a first pass give it
 * - the document's own terms (IBM Model 1 both ways, `learnLexiconFromSentences`), which the general dictionaries
 *   lack (a trade's terms: 直排 "vertical writing", 版心 "type area"). A word pair must occur in at least `minCount`
 *   kept pairs: one pair's own words teach nothing about itself, and the pairs a first pass loses are never learned
 *   from;
 * - the document's own length ratio (Gale and Church 1993 estimate it per corpus): a glossary's headwords, a
 *   standard's headings and a phrasebook's sentences are each translated at a ratio of their own. The mean and the
 *   spread of the kept pairs' log length ratios, weighed against the model's by n / (n + `lengthPrior`).
 * Every pair of the document is scored again with them; the hard rules keep the model's own statistics.
 */
import type { LanguagePair } from "../language-pair.js";
import { type Lexicon, learnLexiconFromSentences, overlayLexicon } from "../text/index.js";
import type { LengthStats } from "./features.js";
import type { TextPair } from "./negatives.js";
import { logLengthRatio, type Side } from "./sides.js";

/** How a model scores a document (stored in the model file as `documentLexicon`). */
export interface DocumentScoring {
  /** Word pairs the document's lexicon keeps: found in at least this many kept pairs. */
  minCount: number;
  /** The score at or above which a pair without a rule against it teaches the second pass. */
  firstPass: number;
  /** The model's length statistics weigh as this many pairs against the document's (absent: not adapted). */
  lengthPrior?: number | undefined;
}

/** What the second pass scores with. */
export interface DocumentContext {
  lexicon: Lexicon;
  length: LengthStats;
}

/**
 * The lexicon and length statistics a document's kept pairs (`kept`, the first pass's) teach, on top of the model's
 * (`lex`, `len`); null when they teach nothing.
 */
export function documentContext(
  kept: ReadonlyArray<readonly [Side, Side]>,
  pair: LanguagePair,
  lex: Lexicon,
  len: LengthStats,
  scoring: DocumentScoring,
): DocumentContext | null {
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
  return { lexicon: own ?? lex, length };
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
