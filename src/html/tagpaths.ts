/**
 * Tag paths (feng2010 §3.1, §4.2): the pre-order traversal of a page's DOM, where each position
 * is an element or a non-blank text node and its tag path is the chain of tag names from `html`
 * down to it (`html\body\div\a`, text nodes end in `\#text`).
 *
 * `collectTagPaths` is written once and runs anywhere a DOM exists: on jsdom or parse5 trees in
 * Node, and inside a browser page through Playwright's `page.evaluate(collectTagPaths)`, where the
 * page is already parsed. It must therefore stay self-contained: no imports, no closures, no inner
 * helper functions (their source would not travel with it).
 */

/** The least a DOM node must offer. Browser DOM and jsdom nodes satisfy it, and so do parse5's default tree nodes. */
export interface MinimalNode {
  nodeName: string;
  /** DOM only: 1 element, 3 text, 9 document, 10 doctype, … (a DOM doctype's nodeName is "html"). */
  nodeType?: number;
  childNodes?: ArrayLike<MinimalNode>;
  /** DOM text nodes */
  nodeValue?: string | null;
  /** parse5 text nodes */
  value?: string;
  /** DOM elements */
  getAttribute?(name: string): string | null;
  /** parse5 elements */
  attrs?: ReadonlyArray<{ name: string; value: string }>;
}

/**
 * The serialised tag-path sequence of a page: JSON-safe so it can cross from the browser to Node.
 * Arrays indexed by position have one entry per position.
 */
export interface TagPathSequence {
  /** Unique tag paths; a path's index here is its path id. */
  paths: string[];
  /** Path id at each position. */
  pathIds: number[];
  /** Exclusive end of each position's subtree: the node at p spans positions [p, ends[p]). */
  ends: number[];
  /** Text of text positions, null for elements. */
  texts: (string | null)[];
  /** Raw `href` attribute of `<a>` positions, null elsewhere. */
  hrefs: (string | null)[];
  /** Raw `class` attribute of element positions (null when absent). Not part of a tag path; kept for diagnostics. */
  classes: (string | null)[];
  /** The document's `<base href>`, if any. */
  baseHref: string | null;
}

export const TEXT_TAG = "#text";
export const PATH_SEPARATOR = "\\";

/**
 * Walk a document (or element) in pre-order and record its tag-path sequence.
 * Blank text, comments and the contents of script/style/noscript/template are not positions:
 * they carry no visible text, and browsers and offline parsers disagree on what is inside
 * `<noscript>`, so skipping it keeps browser-learned and file-learned wrappers interchangeable.
 */
export function collectTagPaths(root: MinimalNode): TagPathSequence {
  const out: TagPathSequence = {
    paths: [],
    pathIds: [],
    ends: [],
    texts: [],
    hrefs: [],
    classes: [],
    baseHref: null,
  };
  const pathIndex = new Map<string, number>();
  // Stack items: a node to visit (with its parent's path) or the closing of position `close`.
  const stack: Array<{ node?: MinimalNode; parentPath?: string; close?: number }> = [{ node: root, parentPath: "" }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.close !== undefined) {
      out.ends[item.close] = out.pathIds.length;
      continue;
    }
    const node = item.node!;
    const parentPath = item.parentPath ?? "";
    if (node.nodeType === 10 || node.nodeType === 8) continue; // doctype, comment
    const name = node.nodeName.toLowerCase();
    if (name === "#document" || name === "#document-fragment") {
      const kids = node.childNodes;
      if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!, parentPath: "" });
      continue;
    }
    if (name === "#text") {
      const text = node.nodeValue ?? node.value ?? "";
      if (!/\S/.test(text)) continue;
      const path = parentPath === "" ? "#text" : `${parentPath}\\#text`;
      let id = pathIndex.get(path);
      if (id === undefined) {
        id = out.paths.length;
        out.paths.push(path);
        pathIndex.set(path, id);
      }
      const pos = out.pathIds.length;
      out.pathIds.push(id);
      out.ends.push(pos + 1);
      out.texts.push(text);
      out.hrefs.push(null);
      out.classes.push(null);
      continue;
    }
    if (name.charAt(0) === "#" || name === "!doctype") continue; // comments, doctype, CDATA
    const path = parentPath === "" ? name : `${parentPath}\\${name}`;
    let id = pathIndex.get(path);
    if (id === undefined) {
      id = out.paths.length;
      out.paths.push(path);
      pathIndex.set(path, id);
    }
    let href: string | null = null;
    let cls: string | null = null;
    if (node.getAttribute) {
      if (name === "a" || name === "base") href = node.getAttribute("href");
      cls = node.getAttribute("class");
    } else if (node.attrs) {
      for (let i = 0; i < node.attrs.length; i++) {
        const attr = node.attrs[i]!;
        if (attr.name === "href" && (name === "a" || name === "base")) href = attr.value;
        else if (attr.name === "class") cls = attr.value;
      }
    }
    if (name === "base") {
      if (out.baseHref === null && href !== null) out.baseHref = href;
      href = null;
    }
    const pos = out.pathIds.length;
    out.pathIds.push(id);
    out.ends.push(pos + 1);
    out.texts.push(null);
    out.hrefs.push(href);
    out.classes.push(cls);
    stack.push({ close: pos });
    if (name === "script" || name === "style" || name === "noscript" || name === "template") continue;
    const kids = node.childNodes;
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!, parentPath: path });
  }
  return out;
}

/** A tag-path sequence with the inverted map from each unique path to its occurrence vector S_i. */
export interface TagPathIndex {
  seq: TagPathSequence;
  /** S_i: the sorted positions at which path i occurs. */
  occurrences: Int32Array[];
  /** Parent position of each position (-1 for the root). */
  parents: Int32Array;
  /** Number of positions (the page length N). */
  length: number;
}

export function indexTagPaths(seq: TagPathSequence): TagPathIndex {
  const n = seq.pathIds.length;
  const counts = new Int32Array(seq.paths.length);
  for (let p = 0; p < n; p++) counts[seq.pathIds[p]!]!++;
  const occurrences = Array.from(counts, (c) => new Int32Array(c));
  const fill = new Int32Array(seq.paths.length);
  for (let p = 0; p < n; p++) {
    const id = seq.pathIds[p]!;
    occurrences[id]![fill[id]!++] = p;
  }
  const parents = new Int32Array(n).fill(-1);
  const open: number[] = [];
  for (let p = 0; p < n; p++) {
    while (open.length > 0 && seq.ends[open[open.length - 1]!]! <= p) open.pop();
    if (open.length > 0) parents[p] = open[open.length - 1]!;
    open.push(p);
  }
  return { seq, occurrences, parents, length: n };
}

export function isTextPath(path: string): boolean {
  return path.endsWith(TEXT_TAG);
}

/** The tag names of a path, root first. */
export function pathTags(path: string): string[] {
  return path.split(PATH_SEPARATOR);
}

/**
 * A path with its tandem repeats collapsed: a run of a repeated unit of two or three tags becomes one
 * unit (`html\body\dl\dd\li\dd\li\a` → `html\body\dl\dd\li\a`). Unclosed tags in legacy pages make the
 * parser nest each record inside the previous one, so every record gets a deeper, unique path;
 * collapsed, they share one again. Single-tag repeats (`div\div`) are left alone: nested divs are
 * ordinary structure, not recursion.
 */
export function collapseRepeats(path: string): string {
  const tags = path.split(PATH_SEPARATOR);
  let changed = true;
  while (changed) {
    changed = false;
    for (let unit = 2; unit <= 3; unit++) {
      for (let i = 0; i + 2 * unit <= tags.length; i++) {
        let same = true;
        for (let k = 0; k < unit && same; k++) same = tags[i + k] === tags[i + unit + k];
        if (same) {
          tags.splice(i + unit, unit);
          changed = true;
          i--;
        }
      }
    }
  }
  return tags.join(PATH_SEPARATOR);
}

/** The same sequence with every path replaced by its collapsed form (path ids renumbered). */
export function collapsedView(seq: TagPathSequence): TagPathSequence {
  const paths: string[] = [];
  const ids = new Map<string, number>();
  const remap = seq.paths.map((p) => {
    const c = collapseRepeats(p);
    let id = ids.get(c);
    if (id === undefined) {
      id = paths.length;
      paths.push(c);
      ids.set(c, id);
    }
    return id;
  });
  return { ...seq, paths, pathIds: seq.pathIds.map((id) => remap[id]!) };
}
