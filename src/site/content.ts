/**
 * liu2014's content-based similarity S_cb(e, c): the share of the `pair.a` page's words that have a
 * translation on the `pair.b` page — exactly the shared `translatedShare` (Sim(c, e) ≥ its `minSim`
 * through the one lexicon), made affordable for thousands of page pairs.
 *
 * `translatedShare` compares every word of one page with every word of the other (|e|·|c| Sim calls per
 * pair). Here each distinct word of the site is looked up once: for a `pair.b` word, the `pair.a` words it
 * can translate to are gathered from the lexicon (its own translations, its sub-words' when the lexicon
 * does not know it, and itself for names and numbers written alike) and each is confirmed with `wordSim`,
 * so the decision stays the shared Sim's. A `pair.b` page then becomes a sorted list of reachable `pair.a`
 * words, and S_cb(e, c) is one merge of e's words with that list. Tests pin the result to `translatedShare`.
 */
import { isUnspacedLang, type LanguagePair, type Lexicon, wordSim } from "../text/index.js";
import type { Site, SitePage } from "./types.js";

/** `translatedShare`'s default: a single-character back-off match (× 0.4) does not count as a translation. */
export const DEFAULT_MIN_SIM = 0.5;

export interface ContentIndex {
  /** S_cb of page `a` (a `pair.a` page) against page `b` (a `pair.b` page), by page index. */
  scb(a: number, b: number): number;
  /** The `pair.a` words (as `aTerm` numbers) a `pair.b` page can translate to, ascending. */
  reach(b: number): Int32Array;
  /** Number of distinct `pair.a` words in the site; `aTerm` numbers are 0 … aTermCount − 1. */
  readonly aTermCount: number;
  /** The `aTerm` number of a vocabulary id (−1 when no `pair.a` page uses the word). */
  aTerm(vocabId: number): number;
}

export function buildContentIndex(site: Site, lex: Lexicon, minSim = DEFAULT_MIN_SIM): ContentIndex {
  const { pair, pages } = site;
  const terms = numberATerms(site);
  const reachOfWord = wordReacher(site, lex, minSim, terms);
  // A pair.b page's reach is a sorted list (not a bit set over the site's words: that would grow with
  // pages × vocabulary). A pair.a page's words as sorted aTerm numbers with their counts, so S_cb is one merge.
  const reachLists = new Map<number, Int32Array>();
  const aTerms = new Map<number, TermCounts>();
  pages.forEach((p, i) => {
    if (p.lang === pair.b) {
      const seen = new Set<number>();
      for (const id of p.termIds) for (const t of reachOfWord(id)) seen.add(t);
      reachLists.set(i, Int32Array.from(seen).sort());
    } else if (p.lang === pair.a) {
      aTerms.set(i, sortedTermCounts(p, terms.aTermOf));
    }
  });
  const empty = new Int32Array(0);
  return {
    aTermCount: terms.aTermCount,
    aTerm: (vocabId) => terms.aTermOf[vocabId] ?? -1,
    scb(a, b) {
      const reach = reachLists.get(b);
      const page = aTerms.get(a);
      if (!reach || !page || page.total === 0) return 0;
      return translatedCount(page, reach) / page.total;
    },
    reach: (b) => reachLists.get(b) ?? empty,
  };
}

/** Dense numbers (`aTerm`) for the words used by pair.a pages: reach lists and the candidate index use them. */
interface ATerms {
  /** By vocabulary id; −1 for a word no pair.a page uses. */
  aTermOf: Int32Array;
  aTermCount: number;
  /** The vocabulary id of each pair.a word, by the word. */
  aIdOf: Map<string, number>;
}

function numberATerms({ pair, pages, vocabulary }: Site): ATerms {
  const aTermOf = new Int32Array(vocabulary.length).fill(-1);
  let aTermCount = 0;
  for (const p of pages) {
    if (p.lang !== pair.a) continue;
    for (const id of p.termIds) if (aTermOf[id] === -1) aTermOf[id] = aTermCount++;
  }
  const aIdOf = new Map<string, number>();
  for (let id = 0; id < vocabulary.length; id++) if (aTermOf[id]! >= 0) aIdOf.set(vocabulary[id]!, id);
  return { aTermOf, aTermCount, aIdOf };
}

/** For each pair.b word (by vocabulary id, memoised): the pair.a words it translates to (confirmed by wordSim), as sorted aTerm numbers. */
function wordReacher(site: Site, lex: Lexicon, minSim: number, terms: ATerms): (id: number) => Int32Array {
  const { pair, vocabulary } = site;
  const wordReach = new Map<number, Int32Array>();
  return (id) => {
    const hit = wordReach.get(id);
    if (hit) return hit;
    const word = vocabulary[id]!;
    const confirmed: number[] = [];
    for (const cand of translationCandidates(word, pair, lex, terms.aIdOf)) {
      if (wordSim(vocabulary[cand]!, pair.a, word, pair.b, lex) >= minSim) confirmed.push(terms.aTermOf[cand]!);
    }
    const arr = Int32Array.from(confirmed).sort();
    wordReach.set(id, arr);
    return arr;
  };
}

/**
 * The pair.a words (vocabulary ids) a pair.b word may translate to: itself, its lexicon translations, or
 * when the lexicon does not know it (an unspaced language), its sub-words' translations.
 */
function translationCandidates(word: string, pair: LanguagePair, lex: Lexicon, aIdOf: ReadonlyMap<string, number>): Set<number> {
  const candidates = new Set<number>();
  const consider = (w: string) => {
    const cand = aIdOf.get(w);
    if (cand !== undefined) candidates.add(cand);
  };
  consider(word); // written alike on both sides: numbers, names, code
  const direct = lex.translations(word, pair.b);
  if (direct) for (const w of direct.keys()) consider(w);
  else if (isUnspacedLang(pair.b)) {
    const chars = Array.from(word);
    for (let len = chars.length - 1; len >= 2; len--) {
      for (let i = 0; i + len <= chars.length; i++) {
        const sub = lex.translations(chars.slice(i, i + len).join(""), pair.b);
        if (sub) for (const w of sub.keys()) consider(w);
      }
    }
  }
  return candidates;
}

interface TermCounts {
  terms: Int32Array;
  counts: Int32Array;
  total: number;
}

/** A pair.a page's words as ascending aTerm numbers, with their counts. */
function sortedTermCounts(p: SitePage, aTermOf: Int32Array): TermCounts {
  const order = Array.from(p.termIds.keys()).sort((x, y) => aTermOf[p.termIds[x]!]! - aTermOf[p.termIds[y]!]!);
  const terms = Int32Array.from(order, (k) => aTermOf[p.termIds[k]!]!);
  const counts = Int32Array.from(order, (k) => p.termCounts[k]!);
  return { terms, counts, total: counts.reduce((s, n) => s + n, 0) };
}

/** The occurrences of a page's words that are in `reach` (one merge of two ascending lists). */
function translatedCount(page: TermCounts, reach: Int32Array): number {
  let hit = 0;
  let j = 0;
  for (let k = 0; k < page.terms.length && j < reach.length; k++) {
    const t = page.terms[k]!;
    while (j < reach.length && reach[j]! < t) j++;
    if (reach[j] === t) hit += page.counts[k]!;
  }
  return hit;
}
