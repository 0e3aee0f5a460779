import type { TagPathSequence } from "../html/index.js";
import data from "./query-rewrite-notices.json" with { type: "json" };

/**
 * Engines answer a query they could not match verbatim with results for another query (no results for
 * "…", showing results for …, did you mean …, words after the 38th character ignored). For a harvester of
 * sentence-pair queries those records may not answer the pair: a "no results" notice alone makes the page
 * empty; a rewrite notice keeps the records and flags the rewrite, so the user can decide. The phrases are data (`query-rewrite-notices.json`). A notice is a short text
 * node of its own (a heading or a line above or inside the result list) that begins with the phrase,
 * possibly after the quoted query; a snippet that merely quotes such a phrase does not count.
 */

const MAX_NOTICE_NODE = 200;
/** A quoted query (and punctuation) before the phrase: `"re" 及其后面的字词均被忽略…`. */
const LEADING_QUOTE = /^(["“”„«»'][^"“”„«»']*["“”„«»']|[\s.,:;!?…\-–—])*\s*/u;

export type NoticeKind = "no-results" | "rewrite";

export interface QueryNotice {
  kind: NoticeKind;
  /** The phrase found (folded). */
  phrase: string;
  /** The text node that carries it (folded), e.g. `showing results for caffeine`. */
  text: string;
  /** Its position in the tag-path sequence. */
  position: number;
}

const NOTICES: ReadonlyArray<{ phrase: string; kind: NoticeKind }> = data.notices.map((n) => ({
  phrase: fold(n.text),
  kind: n.kind === "rewrite" ? "rewrite" : "no-results",
}));

function fold(s: string): string {
  return s
    .replace(/[\s\u00a0]+/g, " ")
    .trim()
    .toLowerCase();
}

/** The first notice of each kind on the page. Extra phrases (an engine definition's) count as "no results". */
export function findQueryNotices(
  seq: TagPathSequence,
  extra: readonly string[] = [],
): Partial<Record<NoticeKind, QueryNotice>> & { positions: number[] } {
  const notices = extra.length ? [...NOTICES, ...extra.map((e) => ({ phrase: fold(e), kind: "no-results" as const }))] : NOTICES;
  const found: Partial<Record<NoticeKind, QueryNotice>> & { positions: number[] } = { positions: [] };
  for (let position = 0; position < seq.texts.length; position++) {
    const t = seq.texts[position];
    if (!t) continue;
    const node = fold(t);
    if (node.length === 0 || node.length > MAX_NOTICE_NODE) continue;
    const start = node.replace(LEADING_QUOTE, "");
    for (const n of notices) {
      if (start.startsWith(n.phrase) || (n.phrase.startsWith("did not match") && node.includes(n.phrase))) {
        found[n.kind] ??= { kind: n.kind, phrase: n.phrase, text: node, position };
        found.positions.push(position);
        break;
      }
    }
  }
  return found;
}

/** The first query notice of any kind on the page (its phrase), or null. */
export function findQueryRewriteNotice(seq: TagPathSequence, extra: readonly string[] = []): string | null {
  const found = findQueryNotices(seq, extra);
  return (found["no-results"] ?? found.rewrite)?.phrase ?? null;
}

/**
 * The submitted query as the page states it: the page `<title>` of a result page leads with the query
 * ("foood - Bing", "\"a phrase\" - Google-Suche"); the engine's name after the last separator is dropped.
 * Null when the page has no title.
 */
export function pageQuery(seq: TagPathSequence): string | null {
  for (let p = 0; p < seq.pathIds.length; p++) {
    const path = seq.paths[seq.pathIds[p]!]!;
    if (path === "html\\head\\title\\#text") {
      const title = (seq.texts[p] ?? "").replace(/[\s\u00a0]+/g, " ").trim();
      const cut = Math.max(...[" - ", " – ", " — ", " | ", " · ", " at ", "_"].map((sep) => title.lastIndexOf(sep)));
      const query = (cut > 0 ? title.slice(0, cut) : title).trim();
      return query || null;
    }
    if (path.startsWith("html\\body")) break;
  }
  return null;
}

/** Whether the query asks for an exact phrase (quoted). */
export function isPhraseQuery(query: string): boolean {
  return /^["“„«]/u.test(query.trim());
}

/** Words of a query to look for in records: letter/digit runs of ≥ 3, CJK runs as character pairs. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const run of query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(run)) {
      for (let i = 0; i + 1 < run.length; i++) terms.add(run.slice(i, i + 2));
    } else if (run.length >= 3) terms.add(run);
  }
  return [...terms];
}

/**
 * Whether records under a rewrite notice still answer the submitted query: it was not an exact phrase
 * (a rewritten phrase query means the phrase was not found) and at least two records mention one of its words.
 */
export function answersSubmittedQuery(query: string | null, recordTexts: readonly string[]): boolean {
  if (query === null || isPhraseQuery(query)) return false;
  const terms = queryTerms(query);
  if (terms.length === 0) return false;
  // Two records at least: one block about the submitted words (a news box) does not make a result list.
  const mentioning = recordTexts.filter((t) => {
    const text = t.toLowerCase();
    return terms.some((w) => text.includes(w));
  });
  return mentioning.length >= Math.min(2, recordTexts.length);
}
