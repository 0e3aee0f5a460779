/**
 * The wrapper constructor of feng2011 §IV.C. A wrapper is a pair's surface template (`[en][zh]`,
 * `[zh]([en])`, …) plus, with HTML styles on, the tag sequences before the pair (l), between its two
 * snippets (m) and after it (r). One seed derives several wrappers — l and r cut at 0, 1 and 2 tags —
 * so that a general wrapper and a specific one both link it to the candidates they match; the ranker
 * then prefers candidates reached by many seeds through specific wrappers.
 */
import { surfaceTemplate } from "./surface.js";
import type { Snippet, SnippetPair } from "./types.js";

export interface PairWrapper {
  /** Identity of the wrapper: template and tag sequences. */
  key: string;
  template: string;
  l: readonly string[];
  m: readonly string[];
  r: readonly string[];
}

/** Context widths (tags kept in l and r) of the wrappers a seed derives. */
export const CONTEXT_WIDTHS: readonly number[] = [0, 1, 2];

/** Adjacent snippets of different languages, in page order. */
export function adjacentPairs(snippets: readonly Snippet[]): SnippetPair[] {
  const pairs: SnippetPair[] = [];
  for (let i = 0; i + 1 < snippets.length; i++) {
    const first = snippets[i]!;
    const second = snippets[i + 1]!;
    if (first.lang !== second.lang) pairs.push({ first, second });
  }
  return pairs;
}

/**
 * Every wrapper that describes `pair` (one per context width; only the surface template without HTML).
 * `next` is the snippet after the pair, whose `gapBefore` is the pair's right context (or `trailingGap` at the end).
 * An inline pair (m empty) gets no width-0 wrapper: "any two adjacent snippets in one text block" is the
 * HTML-blind pattern feng2011 shows to collect noise.
 */
export function wrappersOf(pair: SnippetPair, after: readonly string[], useHtml: boolean): PairWrapper[] {
  const template = surfaceTemplate(pair.first, pair.second);
  if (!useHtml) return [{ key: template, template, l: [], m: [], r: [] }];
  const m = pair.second.gapBefore;
  const out: PairWrapper[] = [];
  for (const width of CONTEXT_WIDTHS) {
    if (width === 0 && m.length === 0) continue;
    const l = width === 0 ? [] : pair.first.gapBefore.slice(-width);
    const r = width === 0 ? [] : after.slice(0, width);
    out.push({ key: `${template}|${l.join("")}|${m.join("")}|${r.join("")}|${width}`, template, l, m, r });
  }
  return out;
}
