import { type DefaultTreeAdapterMap, defaultTreeAdapter, parse, serialize, type TreeAdapter } from "parse5";
import { checkPageText, MAX_DEPTH, MAX_ELEMENTS, PageSkipped } from "./limits.js";
import { collectTagPaths, type MinimalNode, type TagPathSequence } from "./tagpaths.js";

type Node = DefaultTreeAdapterMap["node"];
type ParentNode = DefaultTreeAdapterMap["parentNode"];
type ChildNode = DefaultTreeAdapterMap["childNode"];
export type HtmlDocument = DefaultTreeAdapterMap["document"];

export interface ParsedHtml {
  document: HtmlDocument;
  /** Elements the nesting cap moved up (0 on every ordinary page). */
  reparented: number;
  elements: number;
}

/**
 * The one HTML parse entry (parse5, the spec's tree builder that jsdom wraps), with the caps of
 * `limits.ts`: text over the size cap or binary, or more than `MAX_ELEMENTS` elements, throws
 * `PageSkipped` (the element count stops the parse as soon as it is passed, so the work stays bounded);
 * nesting stops as in Blink — once `MAX_DEPTH` elements are open (html = 1), an element that would go deeper is attached to the
 * parent of the deepest element instead, so it becomes that element's sibling and no tree walk ever
 * meets a page deeper than the cap.
 */
export function parseHtml(html: string): ParsedHtml {
  checkPageText(html);
  const depth = new WeakMap<Node, number>();
  const depthOf = (n: Node): number => depth.get(n) ?? 0;
  // A template's content counts as nested in the template, so templates cannot escape the cap.
  const templateOf = new WeakMap<Node, ParentNode>();
  const setDepth = (n: Node, d: number): void => {
    depth.set(n, d);
    if ("content" in n && n.content) {
      depth.set(n.content, d);
      templateOf.set(n.content, n);
    }
  };
  // A template's content has no parent node: its template stands in.
  const parentOf = (n: ParentNode): ParentNode | null => ("parentNode" in n ? n.parentNode : null) ?? templateOf.get(n) ?? null;
  let elements = 0;
  let reparented = 0;
  // Where a child of `parent` really goes: `parent` itself, or (at the cap) the nearest ancestor with room.
  const placeUnder = (parent: ParentNode): ParentNode => {
    let target = parent;
    for (let up = parentOf(target); depthOf(target) > MAX_DEPTH && up; up = parentOf(target)) target = up;
    if (target !== parent) reparented++;
    return target;
  };
  const adapter: TreeAdapter<DefaultTreeAdapterMap> = {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      if (++elements > MAX_ELEMENTS) {
        throw new PageSkipped("too-many-elements", `more than ${MAX_ELEMENTS.toLocaleString("en")} elements`);
      }
      return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
    },
    appendChild(parentNode, newNode) {
      const target = placeUnder(parentNode);
      defaultTreeAdapter.appendChild(target, newNode);
      setDepth(newNode, depthOf(target) + 1);
    },
    insertBefore(parentNode, newNode, referenceNode) {
      // Foster parenting inserts before a table: same parent, so the same depth rule.
      const target = placeUnder(parentNode);
      if (target === parentNode) defaultTreeAdapter.insertBefore(parentNode, newNode, referenceNode);
      else defaultTreeAdapter.appendChild(target, newNode);
      setDepth(newNode, depthOf(target) + 1);
    },
  };
  const document = parse(html, { treeAdapter: adapter });
  // Moves by the adoption agency can leave a moved subtree's recorded depths stale: measure for real.
  if (maxDepth(document) > 2 * MAX_DEPTH) {
    throw new PageSkipped("too-deep", `nested deeper than ${2 * MAX_DEPTH} levels after capping at ${MAX_DEPTH}`);
  }
  return { document, reparented, elements };
}

/** The deepest element level of a tree (template contents included), walked without recursion. */
export function maxDepth(root: ParentNode): number {
  let deepest = 0;
  const stack: Array<[Node, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (d > deepest) deepest = d;
    const children = "childNodes" in node ? (node.childNodes as ChildNode[]) : [];
    for (const c of children) if ("tagName" in c) stack.push([c, d + 1]);
    if ("content" in node && node.content) stack.push([node.content, d]);
  }
  return deepest;
}

/**
 * HTML that any parser (jsdom) turns into a tree within the caps: the page itself when it needed no
 * capping, otherwise the capped tree serialised. Throws `PageSkipped` like `parseHtml`.
 */
export function cappedHtml(html: string): string {
  const parsed = parseHtml(html);
  return parsed.reparented === 0 ? html : serialize(parsed.document);
}

/**
 * The tag-path sequence of an HTML string, through the capped parse: same implied tbody and foster
 * parenting as a browser, without building the rest of a DOM (about 14× faster than jsdom, `dom.ts`).
 */
export function tagPathsFromHtml(html: string): TagPathSequence {
  return collectTagPaths(parseHtml(html).document as unknown as MinimalNode);
}
