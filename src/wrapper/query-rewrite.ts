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

/** A notice phrase; one that says "did not match" counts anywhere in a text node, not only at its start. */
interface Notice {
  phrase: string;
  kind: NoticeKind;
  anywhere: boolean;
}

function notice(phrase: string, kind: NoticeKind): Notice {
  return { phrase, kind, anywhere: phrase.startsWith("did not match") };
}

/**
 * The notices a text node can carry, by its first character (after a leading quoted query): those whose phrase
 * begins with it, and those that count anywhere, in list order (the first that matches is the node's). Most
 * text nodes begin with a character no phrase begins with.
 */
interface NoticeTable {
  byFirst: Map<string, Notice[]>;
  /** The notices a node whose first character begins no phrase can carry. */
  anywhere: Notice[];
  /**
   * The first `HEAD` characters of every phrase that must begin a node, when ASCII, packed 7 bits each (`packHead`);
   * null when a phrase is shorter.
   */
  heads: Set<number> | null;
}

const HEAD = 4;

function packHead(codes: readonly number[]): number {
  let head = 0;
  for (const c of codes) head = head * 128 + c;
  return head;
}

function noticeTable(notices: readonly Notice[]): NoticeTable {
  const isAnywhere = (n: Notice) => n.anywhere || n.phrase === "";
  const byFirst = new Map<string, Notice[]>();
  for (const n of notices) if (!isAnywhere(n)) byFirst.set(n.phrase.charAt(0), []);
  for (const [first, list] of byFirst) for (const n of notices) if (isAnywhere(n) || n.phrase.charAt(0) === first) list.push(n);
  const starting = notices.filter((n) => !n.anywhere);
  let heads: Set<number> | null = null;
  if (starting.every((n) => n.phrase.length >= HEAD)) {
    heads = new Set();
    for (const n of starting) {
      const codes = Array.from(n.phrase.slice(0, HEAD), (c) => c.charCodeAt(0));
      if (codes.every((c) => c < 128)) heads.add(packHead(codes));
    }
  }
  return { byFirst, anywhere: notices.filter(isAnywhere), heads };
}

/** Whether `t` says "match" in any case, as every phrase that counts anywhere in a node does (`notice`). */
function saysMatch(t: string): boolean {
  return matchEndsAt(t, "h") || matchEndsAt(t, "H");
}

function matchEndsAt(t: string, h: string): boolean {
  // Code | 32 is the lowercase letter for the two cases of an ASCII letter (and only for them).
  for (let i = t.indexOf(h, 4); i >= 0; i = t.indexOf(h, i + 1)) {
    if ((t.charCodeAt(i - 1) | 32) !== 99 || (t.charCodeAt(i - 2) | 32) !== 116) continue;
    if ((t.charCodeAt(i - 3) | 32) === 97 && (t.charCodeAt(i - 4) | 32) === 109) return true;
  }
  return false;
}

/**
 * Before folding a text node (most of the cost of the search): false when it cannot carry a notice of the table.
 * Read here without folding: past what `LEADING_QUOTE` strips from its start when that is blanks and ASCII
 * punctuation (a quote, or any other character, and the node is folded and tried), its next `HEAD` characters
 * (blanks as one space, ASCII letters lowercased, others: folded and tried) are how the stripped node begins.
 * When they begin no phrase, or it is shorter, only a notice that counts anywhere can be in it, and that says
 * "match" (folding changes blanks and case only, and no other character lowercases to an ASCII letter of it).
 */
function mayCarryNotice(table: NoticeTable, t: string): boolean {
  if (table.heads === null) return true;
  let i = 0;
  for (; i < t.length; i++) {
    const code = t.charCodeAt(i);
    if (code >= 128 || code === 34 || code === 39) return true; // non-ASCII, a quote
    if (!isBlank(code) && !STRIPPED_ASCII.includes(t.charAt(i))) break;
  }
  let head = 0; // packHead of the characters read
  let n = 0;
  let blank = false;
  for (; i < t.length && n < HEAD; i++) {
    const code = t.charCodeAt(i);
    if (isBlank(code)) {
      blank = true;
      continue;
    }
    if (code >= 128) return true;
    if (blank) {
      head = head * 128 + 32;
      n++;
      blank = false;
      if (n === HEAD) break;
    }
    head = head * 128 + (code >= 65 && code <= 90 ? code + 32 : code);
    n++;
  }
  if (n === HEAD && table.heads.has(head)) return true;
  return table.anywhere.length > 0 && saysMatch(t);
}

/** ASCII blanks and the non-breaking space: what folding turns into one space. */
function isBlank(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0;
}

/** The ASCII punctuation `LEADING_QUOTE` strips (besides quoted text). */
const STRIPPED_ASCII = ".,:;!?-";

const NOTICES: readonly Notice[] = data.notices.map((n) => notice(fold(n.text), n.kind === "rewrite" ? "rewrite" : "no-results"));
const NOTICE_TABLE = noticeTable(NOTICES);
/** The characters `LEADING_QUOTE` can strip first from a folded text node (it begins with no space). */
const LEADING_QUOTE_START = "\"“”„«»'.,:;!?…-–—";

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
  const table = extra.length ? noticeTable([...NOTICES, ...extra.map((e) => notice(fold(e), "no-results"))]) : NOTICE_TABLE;
  const found: Partial<Record<NoticeKind, QueryNotice>> & { positions: number[] } = { positions: [] };
  for (let position = 0; position < seq.texts.length; position++) {
    const t = seq.texts[position];
    if (!t || !mayCarryNotice(table, t)) continue;
    const node = fold(t);
    if (node.length === 0 || node.length > MAX_NOTICE_NODE) continue;
    const start = LEADING_QUOTE_START.includes(node.charAt(0)) ? node.replace(LEADING_QUOTE, "") : node;
    for (const n of table.byFirst.get(start.charAt(0)) ?? table.anywhere) {
      if (start.startsWith(n.phrase) || (n.anywhere && node.includes(n.phrase))) {
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
  return mentionsQuery(query, recordTexts);
}

/**
 * Whether records mention the submitted query's words: at least two of them (all, when fewer) hold one of its words.
 * Results for a relaxed form of the query (an exact phrase searched without its quotes) do; a block of popular
 * items shown on a page without results does not.
 */
export function mentionsQuery(query: string | null, recordTexts: readonly string[]): boolean {
  if (query === null) return false;
  const terms = queryTerms(query);
  if (terms.length === 0) return false;
  // Two records at least: one block about the submitted words (a news box) does not make a result list.
  const mentioning = recordTexts.filter((t) => {
    const text = t.toLowerCase();
    return terms.some((w) => text.includes(w));
  });
  return mentioning.length >= Math.min(2, recordTexts.length);
}
