import { type Options, selectOne } from "css-select";
import { parseHtml } from "../html/parse.js";
import type { DefaultTreeAdapterMap } from "parse5";
import { decodeHtml } from "../html/charset.js";
import { collectTagPaths, type MinimalNode, type TagPathSequence } from "../html/tagpaths.js";
import type { EngineDefinition } from "./engines.js";

/**
 * A result page read without a browser: decoded as a browser would, parsed with parse5 (the same tree
 * builder the browser's HTML matches), its tag-path sequence collected with the same `collectTagPaths`,
 * and the engine's block / consent / no-results selectors matched with css-select on that tree — the
 * observation the driver makes inside the page, made from the downloaded HTML instead.
 */

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

export interface HtmlObservation {
  seq: TagPathSequence;
  title: string;
  block: string[];
  none: string[];
  consent: string[];
}

export function observeHtml(bytes: Uint8Array, contentType: string | null, def: EngineDefinition): HtmlObservation {
  const html = decodeHtml(bytes, { contentType }).text;
  const doc = parseHtml(html).document;
  const has = (selectors: readonly string[]) =>
    selectors.filter((s) => {
      try {
        return selectOne(s, doc, { adapter: PARSE5_ADAPTER }) !== null;
      } catch {
        return false; // a selector css-select cannot read counts as absent, as in the page
      }
    });
  const titleEl = selectOne("title", doc, { adapter: PARSE5_ADAPTER });
  return {
    seq: collectTagPaths(doc as unknown as MinimalNode),
    title: titleEl ? textOf(titleEl).trim() : "",
    block: has(def.blocks.selectors),
    none: has(def.noResults.selectors),
    consent: has(def.consent.selectors),
  };
}

const isTag = (n: Node): n is Element => "tagName" in n;

function parentOf(n: Node): Node | null {
  return "parentNode" in n ? ((n.parentNode as Node | null) ?? null) : null;
}

function childrenOf(n: Node): Node[] {
  if ("childNodes" in n) return n.childNodes as Node[];
  return [];
}

/** Text content, without recursion (pages may nest deeply). */
function textOf(n: Node): string {
  let out = "";
  const stack: Node[] = [n];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.nodeName === "#text") out += (x as DefaultTreeAdapterMap["textNode"]).value;
    const kids = childrenOf(x);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return out;
}

/** css-select over parse5's default tree. */
const PARSE5_ADAPTER: NonNullable<Options<Node, Element>["adapter"]> = {
  isTag,
  getAttributeValue: (el, name) => el.attrs.find((a) => a.name === name)?.value,
  getChildren: childrenOf,
  getName: (el) => el.tagName,
  getParent: parentOf,
  getSiblings: (n) => {
    const parent = parentOf(n);
    return parent ? childrenOf(parent) : [n];
  },
  getText: textOf,
  hasAttrib: (el, name) => el.attrs.some((a) => a.name === name),
  removeSubsets: (nodes) => {
    const set = new Set(nodes);
    return nodes.filter((n) => {
      for (let p = parentOf(n); p; p = parentOf(p)) if (set.has(p)) return false;
      return true;
    });
  },
};
