/**
 * Surface clean-up of a snippet (the "surface formatting style" of feng2011 §IV.C, after Jiang et al. 2009):
 * the decoration around the text of a pair — list markers (`1.`, `(a)`, `•`), brackets that wrap the whole
 * snippet (`English (中文)`), separators between two snippets of one text block (`apple: 苹果`, `E / C`) —
 * is taken off the text and kept as the snippet's `lead` / `trail`, from which the pair's template
 * (`[en]([zh])`, `[zh]: [en]`, …) is built.
 */

export interface CleanSnippet {
  text: string;
  lead: string;
  trail: string;
}

/** Speaker labels of dialogues (`A:`, `B：`, `Q:`, `男：`, `甲：`) are decoration too. */
const LIST_MARKER =
  /^(?:[A-Z]\s?[:：]\s*|[甲乙丙男女问答][:：]\s*|[-–—•·*▪►]\s*|\(?\d{1,3}[.)、．]\s*|\(?[a-zA-Z][.)]\s+|[①-⑳⑴-⒇]\s*|[（(][一二三四五六七八九十\d]{1,3}[）)]\s*)/u;
const WRAPPING = new Map<string, string>([
  ["(", ")"],
  ["（", "）"],
  ["[", "]"],
  ["【", "】"],
  ["「", "」"],
  ["『", "』"],
  ["《", "》"],
  ["〈", "〉"],
  ['"', '"'],
  ["“", "”"],
]);
/** Characters that separate two inline snippets: taken off only where a neighbour in the same block follows / precedes. */
const INLINE_SEPARATOR_END = /[\s:：\-–—=|/／→>,，;；]+$/u;
const NEXT_ITEM_MARKER = /\s+(?:\(?\d{1,3}[.)、．]|[①-⑳]|[•·▪►])\s*$/u;
const INLINE_SEPARATOR_START = /^[\s:：\-–—=|/／→>,，;；]+/u;

/**
 * Split `raw` into decoration and text. `inlineBefore` / `inlineAfter` say whether another snippet
 * of the same text block touches this one on that side (then separators there are decoration).
 */
export function cleanSnippet(raw: string, inlineBefore: boolean, inlineAfter: boolean): CleanSnippet {
  let text = raw.replace(/\s+/gu, " ").trim();
  let lead = "";
  let trail = "";
  if (inlineBefore) {
    const m = INLINE_SEPARATOR_START.exec(text);
    if (m) {
      lead += m[0].trim();
      text = text.slice(m[0].length);
    }
  }
  if (inlineAfter) {
    // The number of the next item of an inline list (`我喜欢苹果。 2. Could you…`) ends up here.
    const next = NEXT_ITEM_MARKER.exec(text);
    if (next && next[0].length < text.length) {
      trail = next[0].trim();
      text = text.slice(0, text.length - next[0].length);
    }
    const m = INLINE_SEPARATOR_END.exec(text);
    if (m && m[0].length < text.length) {
      trail = m[0].trim() + trail;
      text = text.slice(0, text.length - m[0].length);
    }
  }
  const marker = LIST_MARKER.exec(text);
  if (marker && marker[0].length < text.length && /[\p{L}]/u.test(text.slice(marker[0].length))) {
    lead += marker[0].trim();
    text = text.slice(marker[0].length);
  }
  // Brackets wrapping the whole snippet, as in `Good morning (早上好)`: the pair is the text inside.
  for (;;) {
    const open = text[0];
    const close = open === undefined ? undefined : WRAPPING.get(open);
    if (close === undefined || text.length < 3 || !text.endsWith(close)) break;
    const inner = text.slice(1, -1);
    if (!balanced(inner, open!, close)) break;
    lead += open;
    trail = close + trail;
    text = inner.trim();
  }
  return { text, lead, trail };
}

/** True when `open`/`close` never go negative inside `s` and end balanced (so they really wrap the whole). */
function balanced(s: string, open: string, close: string): boolean {
  if (open === close) return !s.includes(open);
  let depth = 0;
  for (const ch of s) {
    if (ch === open) depth++;
    else if (ch === close && --depth < 0) return false;
  }
  return depth === 0;
}

/** The surface template of a pair, e.g. `[en][zh]`, `[zh]([en])`, `1.[en]:[zh]`. */
export function surfaceTemplate(
  first: { lang: string; lead: string; trail: string },
  second: { lang: string; lead: string; trail: string },
): string {
  return `${first.lead}[${first.lang}]${first.trail}${second.lead}[${second.lang}]${second.trail}`.replace(/\d+/gu, "#");
}
