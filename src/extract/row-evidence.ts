/**
 * Whether the rows of two columns translate each other, by the lexicon (feng2011's word-overlap model, the
 * seed scorer's): each row's own pair must carry more dictionary evidence than the same rows paired with their
 * next neighbour. The comparison calibrates itself: a table of classical Chinese, whose words a modern
 * dictionary knows only in part, still beats its shifted self, while columns that only sit side by side (a
 * feature and its owner's user name, a term and its status) have no evidence either way.
 */
import type { LanguagePair } from "../text/index.js";
import { PairScorer } from "./seeds.js";
import type { Snippet } from "./types.js";

export type RowEvidence = (rows: ReadonlyArray<{ a: string; b: string }>) => boolean;

/** A row-evidence test for one page (its scorer, and so its tokens, shared by every grid of the page). */
export function rowEvidence(pair: LanguagePair): RowEvidence {
  let scorer: PairScorer | undefined;
  const snippets = new Map<string, Snippet>();
  const snippet = (lang: string, text: string): Snippet => {
    const key = `${lang}\u0000${text}`;
    let s = snippets.get(key);
    if (!s) {
      s = { index: snippets.size, lang, text, lead: "", trail: "", block: 0, gapBefore: [] };
      snippets.set(key, s);
    }
    return s;
  };
  return (rows) => {
    scorer ??= new PairScorer(pair);
    const as = rows.map((r) => snippet(pair.a, r.a));
    const bs = rows.map((r) => snippet(pair.b, r.b));
    let own = 0;
    let shifted = 0;
    for (let i = 0; i < rows.length; i++) {
      own += scorer.lexicalOverlap({ first: as[i]!, second: bs[i]! });
      shifted += scorer.lexicalOverlap({ first: as[i]!, second: bs[(i + 1) % rows.length]! });
    }
    return own > shifted;
  };
}
