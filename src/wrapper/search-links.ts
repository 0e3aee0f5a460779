/**
 * Links that start a new search on the engine instead of leading to a result: "Next" and page numbers,
 * "Images of …" / "Videos of …" blocks, related searches, spelling suggestions. They sit in the result list,
 * often in the very template of a result, but their URL carries a search: one of its parameter values is
 * the page's own query (pagination, vertical blocks) or the link's own text (a related search). Organic
 * results lead to pages, and a redirect link carries a URL, not words. No engine's URL scheme is named.
 */

/** Words of a query-like string, lower-cased and joined by single spaces (`Shang-Chi+film` → `shang chi film`). */
export function queryWords(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function decode(s: string): string {
  const plus = s.replace(/\+/g, " ");
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

/** Parameter values of a URL's query string (and of a `#` fragment written like one), decoded. */
export function parameterValues(href: string): string[] {
  const q = href.indexOf("?");
  if (q < 0) return [];
  const out: string[] = [];
  for (const pair of href.slice(q + 1).split(/[&;#]/)) {
    const eq = pair.indexOf("=");
    if (eq > 0) out.push(decode(pair.slice(eq + 1)));
  }
  return out;
}

/** Why a link is a search: its own words (a related search, always) or the page's query (see `withoutSearchLinks`). */
export function searchLinkKind(href: string, query: string | null, linkText: string): "own-text" | "query" | null {
  const values = parameterValues(href).map(queryWords);
  if (values.length === 0) return null;
  const text = queryWords(linkText);
  if (text.length >= 3 && values.includes(text)) return "own-text";
  const q = queryWords(query ?? "");
  if (q.length >= 3 && values.includes(q)) return "query";
  return null;
}

/** At most this many words besides the query's in the text of a link to a vertical's block ("Videos of …", "… - Image Results"). */
const BLOCK_LABEL_WORDS = 3;

/**
 * Which records of one list are searches. A link carrying its own text is one (a related search). A link
 * carrying the page's query is one when it reads like a search rather than a result, no snippet ("Next", page
 * numbers) or a title that is the query and a label ("Videos of …"), and only among records that mostly do
 * not carry it: a book search's results carry the query to highlight it on the target page (`dq=`), and then
 * every record of the list does, while pagination and a vertical's block are one or two records of a list.
 */
export function searchLinkFlags(links: ReadonlyArray<{ href: string; text: string; snippet: string }>, query: string | null): boolean[] {
  const kinds = links.map((l) => searchLinkKind(l.href, query, l.text));
  const carryingQuery = kinds.filter((k) => k === "query").length;
  const minority = carryingQuery * 2 < links.length;
  const q = queryWords(query ?? "").split(" ");
  return kinds.map((k, i) => {
    if (k === "own-text") return true;
    if (k !== "query" || !minority) return false;
    const { text, snippet } = links[i]!;
    if (snippet.length < 20) return true;
    return isQueryAndLabel(queryWords(text), q.join(" "));
  });
}

/**
 * A link that stays on the engine (a relative URL), carries a search for the page's query (the query's words in
 * one parameter value, maybe with an operator: `q=javascript tutorial !g`) and whose own text says none of them
 * ("View all", another engine's name): a control that runs the search elsewhere, whatever text sits beside it.
 */
export function isEngineSearchControl(link: { href: string; text: string }, query: readonly string[]): boolean {
  if (query.length === 0 || query[0] === "" || /^([a-z][a-z\d+.-]*:|\/\/)/i.test(link.href.trim())) return false;
  const carries = parameterValues(link.href).some((v) => {
    if (/^(https?:|\/)/i.test(v)) return false; // a redirect's target, not a search
    const words = queryWords(v).split(" ");
    return query.every((w) => words.includes(w)) && words.length - query.length <= BLOCK_LABEL_WORDS;
  });
  if (!carries) return false;
  const text = queryWords(link.text);
  return !query.some((w) => w.length >= 3 && text.includes(w));
}

/** Scripts written without spaces between words: a run of them is read as one word per two characters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;

function wordCount(words: string): number {
  let n = 0;
  for (const w of words.split(" ")) {
    if (!w) continue;
    const runs = w.match(UNSPACED) ?? [];
    const unspaced = runs.reduce((s, r) => s + Math.max(1, Math.floor(r.length / 2)), 0);
    n += unspaced + (w.replace(UNSPACED, "").length > 0 ? 1 : 0);
  }
  return n;
}

/**
 * A text that is the query and a label ("Videos of …", "… - Image Results", "…的最新相关消息"): it holds the query's
 * words, whole words where the script spaces them, and at most BLOCK_LABEL_WORDS other words.
 */
function isQueryAndLabel(text: string, query: string): boolean {
  const words = text.split(" ");
  const q = query.split(" ");
  if (q.every((w) => words.includes(w))) return words.length - q.length <= BLOCK_LABEL_WORDS;
  const at = text.indexOf(query);
  if (at < 0 || wordCount(query) === q.length) return false; // a spaced query must match whole words (above)
  // Without spaces a label is told from a title less surely: it must also be no longer than the query it labels.
  const label = wordCount(`${text.slice(0, at)} ${text.slice(at + query.length)}`);
  return label <= Math.min(BLOCK_LABEL_WORDS, wordCount(query));
}
