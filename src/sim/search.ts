import type { SimCollection, SimPage } from "./collection.js";
import { escapeHtml } from "../html/index.js";

/**
 * The simulator's search: a small inverted index over the collection (English words and Chinese
 * character bigrams, IDF-weighted), query-biased snippets with the query terms in `<em>` — enough
 * to behave like an engine answering a parallel-pair query: the pages holding the sentences come
 * first, pages sharing many of its words follow, unrelated text finds nothing.
 */

export interface SearchHit {
  page: SimPage;
  score: number;
  titleHtml: string;
  snippetHtml: string;
}

/** A page must cover this share of the query's (IDF-weighted) terms to be returned. */
const MIN_COVERAGE = 0.2;
const MAX_HITS = 40;
const SNIPPET_CHARS = 170;

export class SimSearchIndex {
  private readonly terms: Array<Set<string>>;
  private readonly texts: string[][];
  private readonly df = new Map<string, number>();

  constructor(private readonly collection: SimCollection) {
    this.texts = collection.pages.map((p) => collection.textUnits(p));
    this.terms = this.texts.map((units, i) => new Set([...units.flatMap(tokens), ...tokens(collection.pages[i]!.title)]));
    for (const set of this.terms) for (const t of set) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  search(query: string): SearchHit[] {
    const q = [...new Set(tokens(query))];
    if (q.length === 0) return [];
    const n = this.terms.length;
    const idf = (t: string) => Math.log((n + 1) / ((this.df.get(t) ?? 0) + 0.5));
    const total = q.reduce((s, t) => s + idf(t), 0);
    const norm = normaliseText(query);
    const scored: Array<{ i: number; score: number }> = [];
    for (let i = 0; i < n; i++) {
      const set = this.terms[i]!;
      let covered = 0;
      for (const t of q) if (set.has(t)) covered += idf(t);
      let score = covered / total;
      if (score < MIN_COVERAGE) continue;
      // Exact sentences of the query on the page rank it higher (phrase match).
      for (const unit of this.texts[i]!) if (unit.length > 3 && norm.includes(normaliseText(unit))) score += 0.5;
      scored.push({ i, score });
    }
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, MAX_HITS).map(({ i, score }) => {
      const page = this.collection.pages[i]!;
      return { page, score, titleHtml: highlight(page.title, q), snippetHtml: highlight(snippet(this.texts[i]!, q), q) };
    });
  }
}

/** English words (lower case) and Chinese character bigrams (single characters for one-character runs). */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z0-9]+(?:'[a-z]+)?|\p{Script=Han}+/gu)) {
    const w = m[0];
    if (/^\p{Script=Han}/u.test(w)) {
      if (w.length === 1) out.push(w);
      for (let k = 0; k + 1 < w.length; k++) out.push(w.slice(k, k + 2));
    } else out.push(w);
  }
  return out;
}

function normaliseText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, " ");
}

/** The run of text units around the best-matching one, cut to a snippet's length. */
function snippet(units: string[], q: string[]): string {
  const qs = new Set(q);
  // Best window of two consecutive units: on a bilingual page, a sentence and its translation.
  const hits = units.map((u) => tokens(u).filter((t) => qs.has(t)).length);
  let best = 0;
  let bestScore = -1;
  for (let k = 0; k < units.length; k++) {
    const s = hits[k]! + (hits[k + 1] ?? 0);
    if (s > bestScore) {
      best = k;
      bestScore = s;
    }
  }
  let text = units[best]!;
  for (let k = best + 1; k < units.length && text.length < SNIPPET_CHARS; k++) text += ` ${units[k]}`;
  if (best > 0) text = `... ${text}`;
  return text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}...` : text;
}

/** Escape `text` and wrap the query's words and Chinese bigram runs in `<em>`, as engines do. */
export function highlight(text: string, q: readonly string[]): string {
  const mark = new Uint8Array(text.length);
  const lower = text.toLowerCase();
  for (const t of q) {
    if (/^\p{Script=Han}/u.test(t)) {
      for (let at = lower.indexOf(t); at >= 0; at = lower.indexOf(t, at + 1)) mark.fill(1, at, at + t.length);
    } else {
      const re = new RegExp(`(?<![a-z0-9])${t.replace(/[^a-z0-9]/g, (c) => `\\${c}`)}(?![a-z0-9])`, "g");
      for (const m of lower.matchAll(re)) mark.fill(1, m.index!, m.index! + t.length);
    }
  }
  // Engines highlight "a b" as one run: join marked words separated by a space.
  for (let i = 1; i + 1 < text.length; i++) if (!mark[i] && text[i] === " " && mark[i - 1] && mark[i + 1]) mark[i] = 1;
  let out = "";
  let open = false;
  for (let i = 0; i < text.length; i++) {
    if (mark[i] && !open) {
      out += "<em>";
      open = true;
    } else if (!mark[i] && open) {
      out += "</em>";
      open = false;
    }
    out += escapeHtml(text[i]!);
  }
  return open ? `${out}</em>` : out;
}
