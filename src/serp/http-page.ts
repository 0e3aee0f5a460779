import { compile, type Options } from "css-select";
import { parseHtml } from "../html/index.js";
import type { DefaultTreeAdapterMap } from "parse5";
import { decodeHtml } from "../html/index.js";
import { collectTagPaths, type MinimalNode, type TagPathSequence } from "../html/index.js";
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
  const q = queriesOf(def);
  const found = matchAll(doc, [...q.block, ...q.none, ...q.consent]);
  const has = (selectors: readonly Query[]) => selectors.filter((s) => found.matched.has(s)).map((s) => s.selector);
  return {
    seq: collectTagPaths(doc as unknown as MinimalNode),
    title: found.title ? textOf(found.title).trim() : "",
    block: has(q.block),
    none: has(q.none),
    consent: has(q.consent),
  };
}

/**
 * One walk over the elements, in document order, for every selector at once (a walk per selector cost more
 * than the rest of the reading): which selectors match some element, and the first `<title>`.
 */
function matchAll(doc: Node, queries: readonly Query[]): { matched: Set<Query>; title: Element | null } {
  const matched = new Set<Query>();
  let open = queries.filter((x) => x.test !== null);
  let title: Element | null = null;
  const stack: Node[] = [doc];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (isTag(n)) {
      if (title === null && n.tagName === "title") title = n;
      if (open.length > 0 && open.some((x) => x.test!(n))) {
        for (const x of open) if (x.test!(n)) matched.add(x);
        open = open.filter((x) => !matched.has(x));
      }
    }
    const kids = childrenOf(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return { matched, title };
}

interface Query {
  selector: string;
  /** Compiled once per engine definition; null: a selector css-select cannot read (absent, as in the page). */
  test: ((el: Element) => boolean) | null;
}

/** The engine's selectors compiled once, not on every page (compiling them was a visible share of a page's cost). */
const compiled = new WeakMap<EngineDefinition, { block: Query[]; none: Query[]; consent: Query[] }>();

function queriesOf(def: EngineDefinition): { block: Query[]; none: Query[]; consent: Query[] } {
  let q = compiled.get(def);
  if (!q) {
    const of = (selectors: readonly string[]): Query[] =>
      selectors.map((selector) => {
        try {
          return { selector, test: compile<Node, Element>(selector, SELECT) };
        } catch {
          return { selector, test: null };
        }
      });
    q = { block: of(def.blocks.selectors), none: of(def.noResults.selectors), consent: of(def.consent.selectors) };
    compiled.set(def, q);
  }
  return q;
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

const SELECT: Options<Node, Element> = { adapter: PARSE5_ADAPTER };
