import type { TagPathSequence } from "../html/tagpaths.js";
import data from "./query-rewrite-notices.json" with { type: "json" };

/**
 * Engines answer a query they could not match verbatim with results for another query (no results for
 * "…", showing results for …, did you mean …, words after the 38th character ignored). For a harvester of
 * sentence-pair queries those records do not answer the pair, so a page carrying such a notice counts
 * as a "no results" page. The phrases are data (`query-rewrite-notices.json`). Notices are short text of
 * their own (a heading, a line above or inside the result list), so only short text nodes are read:
 * a long snippet that happens to quote such a phrase does not count.
 */

const MAX_NOTICE_NODE = 160;

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
    for (const n of notices) if (node.includes(n)) return n;
  }
  return null;
}
