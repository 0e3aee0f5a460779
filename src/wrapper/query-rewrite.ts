import type { TagPathSequence } from "../html/tagpaths.js";
import data from "./query-rewrite-notices.json" with { type: "json" };

/**
 * Engines answer a query they could not match verbatim with results for another query (no results for
 * "…", showing results for …, did you mean …, words after the 38th character ignored). For a harvester of
 * sentence-pair queries those records do not answer the pair, so a page carrying such a notice counts
 * as a "no results" page. The phrases are data (`query-rewrite-notices.json`). A notice is a short text
 * node of its own (a heading or a line above or inside the result list) that begins with the phrase,
 * possibly after the quoted query; a snippet that merely quotes such a phrase does not count.
 */

const MAX_NOTICE_NODE = 200;
/** A quoted query (and punctuation) before the phrase: `"re" 及其后面的字词均被忽略…`. */
const LEADING_QUOTE = /^(["“”„«»'][^"“”„«»']*["“”„«»']|[\s.,:;!?…\-–—])*\s*/u;

const NOTICES: readonly string[] = data.notices.map((n) => fold(n.text));

function fold(s: string): string {
  return s.replace(/[\s\u00a0]+/g, " ").trim().toLowerCase();
}

/** The first query-rewrite notice on the page, or null. */
export function findQueryRewriteNotice(seq: TagPathSequence, extra: readonly string[] = []): string | null {
  const notices = extra.length ? [...NOTICES, ...extra.map(fold)] : NOTICES;
  for (const t of seq.texts) {
    if (!t) continue;
    const node = fold(t);
    if (node.length === 0 || node.length > MAX_NOTICE_NODE) continue;
    const start = node.replace(LEADING_QUOTE, "");
    for (const n of notices) if (start.startsWith(n) || (n.startsWith("did not match") && node.includes(n))) return n;
  }
  return null;
}
