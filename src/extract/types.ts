/** Types that cross the boundaries of the extractor (feng2011): snippets, pairs, options. */
import type { Lang, LanguagePair } from "../text/index.js";

/**
 * One monolingual text snippet of a page, in reading order, with its HTML context.
 * `gapBefore` holds the tag tokens (e.g. `</div>`, `<div.langs_cn>`, `<br>`) between the previous
 * snippet and this one: empty when both come from the same text block (an inline pair such as
 * `apple 苹果`). Wrappers are built from these gaps (l, m, r of feng2011 §IV.C).
 */
export interface Snippet {
  /** Position among the page's snippets. */
  index: number;
  lang: Lang;
  /** The snippet as output: trimmed, list markers / wrapping brackets / inline separators removed. */
  text: string;
  /** The surface decoration removed from `text`, before and after it (e.g. `(` and `)`, `1.`, `:`). */
  lead: string;
  trail: string;
  /** Which text block (run of text between block-level tags) it came from. */
  block: number;
  gapBefore: readonly string[];
}

/** How the page text was cut into snippets. */
export type Segmentation = "html" | "language";

/** A pair of adjacent snippets in different languages: the unit seeds, wrappers and outputs are made of. */
export interface SnippetPair {
  first: Snippet;
  second: Snippet;
}

/** An extracted sentence (or term) pair. `a`/`b` are the texts in the pair's two languages. */
export interface SentencePair {
  langs: LanguagePair;
  /** Text in `langs.a` (English for en–zh). */
  a: string;
  /** Text in `langs.b` (Chinese for en–zh). */
  b: string;
  /** Confidence in [0, 1]: relevance to the seeds (full system) or the length-model probability (baseline). */
  score: number;
  /** Which step produced it. */
  method: "template" | "seed" | "wrapper" | "adjacent";
  /** The page it came from (file path or URL). */
  sourceUrl: string;
}
