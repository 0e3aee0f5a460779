/**
 * A document's own terms (hunalign's realign, Varga et al. 2005, at the level of the lexicon): the pairs of one
 * document (a page, a glossary, a file) that the scorer keeps on a first pass teach it the document's words (IBM
 * Model 1 both ways, `learnLexiconFromSentences`), which the general dictionaries lack (a trade's terms: 直排 "vertical
 * writing", 版心 "type area"), and every pair of the document is scored again with them. A word pair must occur in at
 * least `minCount` kept pairs: one pair's own words teach nothing about itself, and the pairs a first pass loses are
 * never learned from.
 */
import type { LanguagePair } from "../language-pair.js";
import { type Lexicon, learnLexiconFromSentences, overlayLexicon } from "../text/index.js";
import type { TextPair } from "./negatives.js";

/** The base lexicon with the document's own terms, or null when its kept pairs teach nothing. */
export function documentLexicon(kept: readonly TextPair[], pair: LanguagePair, lex: Lexicon, minCount: number): Lexicon | null {
  if (kept.length < minCount) return null;
  const learned = learnLexiconFromSentences(kept, pair, { minCount });
  return learned.length === 0 ? null : overlayLexicon(lex, learned, "document");
}
