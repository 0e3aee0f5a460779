/**
 * An extracted pair as the store keeps it: its dedup keys and, when a scorer is installed for the language pair,
 * the scorer's verdict (the corpus export filters on it later).
 */
import { existsSync } from "node:fs";
import { loadScorer, type PairScorer, type PairVerdict, qualityModelPath } from "../quality/index.js";
import type { SentencePairInput } from "../store/index.js";
import { comparableText, type LanguagePair } from "../text/index.js";
import type { SentencePair } from "./types.js";

/**
 * The key two pairs are duplicates on: width-folded, lower-cased, without spaces and punctuation
 * (`Good morning!` = `good morning`), the same normalisation as the lenient match of `eval extract`.
 */
export function corpusKey(text: string): string {
  return comparableText(text);
}

/**
 * A page's extracted pairs as the store keeps them, with the scorer's verdicts when a scorer is given: the page's
 * pairs are one document (`scoreDocument`: the pairs kept on a first pass teach the scorer the page's own terms).
 */
export function toStoredPairs(pairs: readonly SentencePair[], scorer: PairScorer | null = null): SentencePairInput[] {
  const verdicts = scorer?.scoreDocument(pairs);
  return pairs.map((p, i) => toStoredPair(p, verdicts?.[i]));
}

/**
 * An extracted pair as the store keeps it, with the scorer's verdict when there is one. `en`/`zh` are the store's
 * legacy names of the source and target sides (LEGACY_COLUMNS); the languages are stored beside them.
 */
export function toStoredPair(p: SentencePair, verdict?: PairVerdict): SentencePairInput {
  return {
    en: p.a,
    zh: p.b,
    score: p.score,
    method: p.method,
    enNorm: corpusKey(p.a),
    zhNorm: corpusKey(p.b),
    srcLang: p.langs.a,
    tgtLang: p.langs.b,
    quality: verdict ? verdict.score : null,
    reasons: verdict ? verdict.reasons : null,
  };
}

/** The scorer of a pair's model, or null when no model for the pair is installed (pairs are then stored unscored). */
export function defaultScorer(pair: LanguagePair): PairScorer | null {
  if (!existsSync(qualityModelPath(pair))) return null;
  return loadScorer(pair);
}
