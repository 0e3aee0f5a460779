/**
 * The parse5 tree the extractor works on, and the few things it asks of it: elements, attributes, the
 * visible text of a unit. Every walk here is iterative: a page nested 100,000 deep must not overflow the stack.
 *
 * parse5 is the tree builder jsdom wraps (same implied tbody, same foster parenting) without the rest of a DOM
 * (and without parsing `<style>`): the extractor needs no DOM API, so it no longer builds one.
 */
import type { DefaultTreeAdapterMap } from "parse5";
import { parseHtml } from "../html/index.js";

export type TreeDocument = DefaultTreeAdapterMap["document"];
export type TreeNode = DefaultTreeAdapterMap["node"];
export type TreeElement = DefaultTreeAdapterMap["element"];
export type TreeText = DefaultTreeAdapterMap["textNode"];

/** Parse a page through the project's one capped parse5 entry (nesting, size and element caps: `src/html/limits.ts`). */
export function parseTree(html: string): TreeDocument {
  return parseHtml(html).document;
}

export function isElement(node: TreeNode): node is TreeElement {
  return "tagName" in node;
}

export function isText(node: TreeNode): node is TreeText {
  return node.nodeName === "#text";
}

export function childrenOf(node: TreeNode): readonly TreeNode[] {
  return "childNodes" in node ? node.childNodes : [];
}

export function attribute(el: TreeElement, name: string): string | null {
  for (const a of el.attrs) if (a.name === name) return a.value;
  return null;
}

/** `<body>` (or the root element when there is none). */
export function bodyOf(doc: TreeDocument): TreeElement | null {
  const html = doc.childNodes.find(isElement);
  if (!html) return null;
  return (html.childNodes.find((c) => isElement(c) && c.tagName === "body") as TreeElement | undefined) ?? html;
}

/** Elements whose content is never visible page text (or is a ruby annotation, or struck-out text). */
export const INVISIBLE_TAGS: ReadonlySet<string> = new Set([
  "head",
  "script",
  "style",
  "noscript",
  "template",
  "title",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "select",
  "option",
  "optgroup",
  "textarea",
  "button",
  "rt",
  "rp",
  "canvas",
  "audio",
  "video",
  "map",
  "del",
  "s",
  "strike",
]);

/** Tags that only change how text looks: the page analyser unwraps them, their text joins the parent's. */
export const INLINE_TAGS: ReadonlySet<string> = new Set([
  "a",
  "abbr",
  "acronym",
  "b",
  "bdi",
  "bdo",
  "big",
  "blink",
  "cite",
  "code",
  "data",
  "dfn",
  "em",
  "font",
  "i",
  "ins",
  "kbd",
  "label",
  "mark",
  "nobr",
  "q",
  "rb",
  "ruby",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "tt",
  "u",
  "var",
  "wbr",
]);

/** Inline tags and images: what flows inside a line of text (an image does not break the line around it). */
export const FLOW_TAGS: ReadonlySet<string> = new Set([...INLINE_TAGS, "img"]);

/**
 * The visible text of an element as the page shows it: invisible content left out, `<br>` and block
 * boundaries read as a space, NFC, whitespace collapsed. With `lines`, `<br>` and newlines in the source
 * are kept as line breaks (for `<pre>` blocks and line-structured items), other whitespace still collapsed.
 */
export function visibleText(el: TreeElement, lines = false): string {
  let out = "";
  const stack: Array<TreeNode | string> = [el];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === "string") {
      out += item;
      continue;
    }
    if (isText(item)) {
      out += item.value;
      continue;
    }
    if (!isElement(item)) continue;
    if (item !== el && INVISIBLE_TAGS.has(item.tagName)) continue;
    if (item.tagName === "br") {
      out += lines ? "\n" : " ";
      continue;
    }
    const block = item !== el && !FLOW_TAGS.has(item.tagName);
    if (block) stack.push(lines ? "\n" : " ");
    const kids = childrenOf(item);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    if (block) out += lines ? "\n" : " ";
  }
  return collapse(out, lines);
}

function collapse(text: string, lines: boolean): string {
  const nfc = text.normalize("NFC");
  if (!lines || !nfc.includes("\n")) return nfc.replace(/\s+/gu, " ").trim();
  return nfc
    .split(/\r?\n/u)
    .map((l) => l.replace(/\s+/gu, " ").trim())
    .filter(Boolean)
    .join("\n");
}
