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
  /**
   * True when the walk stopped early at its size budget (a hostile page with an enormous number of
   * distinct deep paths): the sequence covers the start of the page only.
   */
  truncated: boolean;
}

export const TEXT_TAG = "#text";
export const PATH_SEPARATOR = "\\";

/**
 * Walk a document (or element) in pre-order and record its tag-path sequence.
 * Blank text, comments and the contents of script/style/noscript/template are not positions:
 * they carry no visible text, and browsers and offline parsers disagree on what is inside
 * `<noscript>`, so skipping it keeps browser-learned and file-learned wrappers interchangeable.
 *
 * Bounded on any page (a hostile page can nest 100,000 elements in 1 MB):
 * - no recursion: an explicit stack, held in parallel arrays;
 * - a path is interned as (parent path id, tag) → id, so equal paths are found without building or
 *   hashing their strings (the old walk's strings grew with depth², 3.9 GB on a 100k-deep page); each
 *   distinct path's string is built once, from its parent's;
 * - nesting is capped as Blink caps it (`kMaximumHTMLParserDOMTreeDepth` = 512): an element below depth
 *   513 (`html` is 1) becomes a following sibling at depth 513 and keeps its own text (merged into one
 *   node, as Blink appends it), which is the DOM Chromium builds from such a page; so the walk gives the
 *   same sequence on a parse5 tree as in the browser (where the cap never fires: the DOM is capped already);
 * - distinct paths may total at most 2^24 characters (real pages: tens of thousands); past that the walk
 *   stops and the sequence, cut there, is marked `truncated`.
 */
export function collectTagPaths(root: MinimalNode): TagPathSequence {
  const out: TagPathSequence = { paths: [], pathIds: [], ends: [], texts: [], hrefs: [], classes: [], baseHref: null, truncated: false };
  // Literals, not module constants: the function must stay self-contained (see the module comment).
  const capDepth = 513;
  const maxPathChars = 16777216;
  let pathChars = 0;
  let lastText = -1;
  // Path ids by parent path id (+1, so the root's -1 is slot 0), then by tag: no string is built to look one up.
  const childPaths: Array<Map<string, number>> = [new Map()];
  // The stack, entries of three slots pushed together: a node to visit, its parent's path id (-1: none) and
  // its depth (`html` is 1); or null, the position to close, 0. (One flat array: nothing allocated per node.)
  const stack: Array<MinimalNode | null | number> = [root, -1, 1];
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const arg = stack.pop() as number;
    const node = stack.pop() as MinimalNode | null;
    if (node === null) {
      out.ends[arg] = out.pathIds.length;
      continue;
    }
    if (out.truncated) continue; // only the closings are left to do
    if (node.nodeType === 10 || node.nodeType === 8) continue; // doctype, comment
    const name = node.nodeName.toLowerCase();
    const kids = node.childNodes;
    if (name === "#document" || name === "#document-fragment") {
      for (let i = (kids ? kids.length : 0) - 1; i >= 0; i--) stack.push(kids![i]!, -1, 1);
      continue;
    }
    const isText = name === "#text";
    if (!isText && (name.charAt(0) === "#" || name === "!doctype")) continue; // comments, doctype, CDATA
    let text: string | null = null;
    if (isText) {
      text = node.nodeValue ?? node.value ?? "";
      if (!/\S/.test(text)) {
        // Not a position of its own, but the space it puts between two inline texts (`<b>a</b> <b>b</b>`) is
        // kept at the end of the text before it.
        if (lastText >= 0 && !/\s$/.test(out.texts[lastText]!)) out.texts[lastText] += " ";
        continue;
      }
      lastText = out.pathIds.length;
    }
    const siblings = childPaths[arg + 1]!;
    let id = siblings.get(name);
    if (id === undefined) {
      const path = arg < 0 ? name : `${out.paths[arg]}\\${name}`;
      pathChars += path.length;
      if (pathChars > maxPathChars) {
        out.truncated = true;
        continue;
      }
      id = out.paths.length;
      out.paths.push(path);
      childPaths.push(new Map());
      siblings.set(name, id);
    }
    const pos = out.pathIds.length;
    out.pathIds.push(id);
    out.ends.push(pos + 1);
    out.texts.push(text);
    if (isText) {
      out.hrefs.push(null);
      out.classes.push(null);
      continue;
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
    out.hrefs.push(href);
    out.classes.push(cls);
    if (!kids || name === "script" || name === "style" || name === "noscript" || name === "template") continue;
    if (depth < capDepth) {
      stack.push(null, pos, 0);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!, id, depth + 1);
      continue;
    }
    // At the cap: the element's element children become its following siblings, under the same parent,
    // and its own text, no longer split by them, is one text node inside it — Blink's tree for such markup.
    let ownText = "";
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i]!;
      if (kid.nodeName === "#text") {
        ownText = (kid.nodeValue ?? kid.value ?? "") + ownText;
        continue;
      }
      stack.push(kid, arg, depth + 1);
    }
    stack.push(null, pos, 0);
    if (ownText !== "") stack.push({ nodeName: "#text", value: ownText }, id, depth + 1);
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
  const ids = new Map<string, number>();
  const work = Int32Array.from(tags, (t) => {
    const id = ids.get(t) ?? ids.size;
    ids.set(t, id);
    return id;
  });
  const kept = collapseTagIds(work, work.length);
  return kept === tags.length ? path : tagsPath(work, kept, [...ids.keys()]);
}

/**
 * `collapseRepeats` on tag ids, in place: `tags[0, length)` is the path; returns the length of the collapsed
 * path. The rewriting is not confluent (`a\b\a\a\b\a\b` collapses to `a\b\a\a\b` whole, to `a\b` from its
 * collapsed parent path), so the order of the scans is part of the definition: keep it.
 */
function collapseTagIds(tags: Int32Array, length: number): number {
  let n = length;
  let changed = true;
  while (changed) {
    changed = false;
    for (let unit = 2; unit <= 3; unit++) {
      if (n < 2 * unit) continue;
      // One scan: at each position i, while the unit there repeats right after it, drop the repeat, then go on
      // to i + 1. Done in place with each tag moved once (dropping by shifting the rest was most of the cost of
      // collapsing a legacy page's paths): tags[0, w) are the tags scanned and the unit at i = w − unit,
      // tags[r, n) the tags still to come.
      let w = unit;
      let r = unit;
      while (r + unit <= n) {
        const same = tags[w - unit] === tags[r] && tags[w - unit + 1] === tags[r + 1] && (unit === 2 || tags[w - 1] === tags[r + 2]);
        if (same) {
          r += unit;
          changed = true;
        } else tags[w++] = tags[r++]!;
      }
      while (r < n) tags[w++] = tags[r++]!;
      n = w;
    }
  }
  return n;
}

/** The path string of `tags[0, length)`, tag ids naming `names`. */
function tagsPath(tags: Int32Array, length: number, names: readonly string[]): string {
  let path = names[tags[0]!]!;
  for (let k = 1; k < length; k++) path += PATH_SEPARATOR + names[tags[k]!]!;
  return path;
}

/**
 * The parent path id of each path id (-1 for a root path), read off the positions. Path ids are numbered in
 * order of first occurrence and a parent occurs before its children, so a parent's id is below its child's.
 */
export function parentPathIds(seq: TagPathSequence): Int32Array {
  const parentPath = new Int32Array(seq.paths.length).fill(-1);
  const open: number[] = [];
  for (let p = 0; p < seq.pathIds.length; p++) {
    while (open.length > 0 && seq.ends[open[open.length - 1]!]! <= p) open.pop();
    if (open.length > 0) parentPath[seq.pathIds[p]!] = seq.pathIds[open[open.length - 1]!]!;
    open.push(p);
  }
  return parentPath;
}

/**
 * The same sequence with every path replaced by its collapsed form (path ids renumbered). A path is its parent
 * path, a separator and its own tag (`collectTagPaths` builds it so), so the paths are walked as the tree they
 * form, depth first, with one stack of tag ids: no path string is split. Each path is still collapsed whole, as
 * `collapseRepeats` does (`collapseTagIds` says why not from its parent's collapsed form).
 */
export function collapsedView(seq: TagPathSequence): TagPathSequence {
  const n = seq.paths.length;
  const parent = parentPathIds(seq);
  const { first, kids } = pathChildren(parent);
  const tagIds = new Map<string, number>();
  const names: string[] = [];
  const depth = new Int32Array(n); // number of tags in each path
  // A path without tandem repeats is its own collapsed form; it has none when its parent path has none and none
  // ends at its own tags (every repeat ends at some tag, and a path's tags begin with its parent's).
  const clean = new Uint8Array(n);
  let longest = 0;
  for (const p of seq.paths) longest = Math.max(longest, p.length);
  const tags = new Int32Array((longest >> 1) + 2); // the tag ids of the path being visited (its ancestors' stay below it)
  const scratch = new Int32Array(tags.length);
  const trie = new CollapsedTrie(names);
  const nodeOf = new Int32Array(n);
  const stack: number[] = [];
  for (let k = first[1]! - 1; k >= first[0]!; k--) stack.push(kids[k]!);
  while (stack.length > 0) {
    const id = stack.pop()!;
    const up = parent[id]!;
    const path = seq.paths[id]!;
    let length = up >= 0 ? depth[up]! : 0;
    let repeats = up >= 0 && clean[up] === 0;
    // Its own tags: one in a walk's sequence (a sequence made otherwise may skip a level).
    let from = up >= 0 ? seq.paths[up]!.length + 1 : 0;
    do {
      let to = path.indexOf(PATH_SEPARATOR, from);
      if (to < 0) to = path.length;
      const t = path.slice(from, to);
      from = to + 1;
      let tag = tagIds.get(t);
      if (tag === undefined) {
        tag = names.length;
        tagIds.set(t, tag);
        names.push(t);
      }
      tags[length++] = tag;
      for (let unit = 2; unit <= 3 && !repeats; unit++) {
        if (length < 2 * unit) break;
        repeats = true;
        for (let k = length - unit; k < length && repeats; k++) repeats = tags[k] === tags[k - unit];
      }
    } while (from <= path.length);
    depth[id] = length;
    clean[id] = repeats ? 0 : 1;
    let kept = length;
    let work = tags;
    if (repeats) {
      work = scratch;
      for (let k = 0; k < length; k++) work[k] = tags[k]!;
      kept = collapseTagIds(work, length);
    }
    nodeOf[id] = trie.find(work, kept, up >= 0 ? nodeOf[up]! : 0);
    for (let k = first[id + 2]! - 1; k >= first[id + 1]!; k--) stack.push(kids[k]!);
  }
  // Collapsed path ids in order of the first path id that collapses to each, as before.
  const paths: string[] = [];
  const idOfNode = new Int32Array(trie.paths.length).fill(-1);
  const remap = new Int32Array(n);
  for (let id = 0; id < n; id++) {
    const node = nodeOf[id]!;
    if (idOfNode[node]! < 0) {
      idOfNode[node] = paths.length;
      paths.push(trie.paths[node]!);
    }
    remap[id] = idOfNode[node]!;
  }
  return { ...seq, paths, pathIds: seq.pathIds.map((id) => remap[id]!) };
}

/** The path tree's children lists: those of path id p (-1: the roots) are kids[first[p + 1], first[p + 2]), by id. */
function pathChildren(parent: Int32Array): { first: Int32Array; kids: Int32Array } {
  const n = parent.length;
  const first = new Int32Array(n + 2);
  for (let id = 0; id < n; id++) first[parent[id]! + 2]!++;
  for (let p = 1; p <= n + 1; p++) first[p]! += first[p - 1]!;
  const kids = new Int32Array(n);
  const fill = first.slice(0, n + 1);
  for (let id = 0; id < n; id++) kids[fill[parent[id]! + 1]!++] = id;
  return { first, kids };
}

/**
 * The collapsed paths as a trie of tag ids (node 0: the empty path), so that finding a path's costs no string.
 * Child node of (node, tag) under key node·2^24 + tag: the walk's path budget keeps tag ids below 2^24.
 */
class CollapsedTrie {
  /** Each node's path string. */
  readonly paths: string[] = [""];
  private readonly child = new Map<number, number>();
  // Each node's tag, parent node and number of tags.
  private readonly tag: number[] = [-1];
  private readonly up: number[] = [-1];
  private readonly depth: number[] = [0];
  private readonly names: readonly string[];

  /** `names`: the tag names by tag id (the caller adds to them). */
  constructor(names: readonly string[]) {
    this.names = names;
  }

  /**
   * The node of the path `tags[0, length)`. A path mostly collapses to its parent path's collapsed form (`near`)
   * and its own tag: that is checked by walking up from `near` (integers), then the rest taken step by step down,
   * instead of descending from the root by the map.
   */
  find(tags: Int32Array, length: number, near: number): number {
    let node = near;
    let k = this.depth[node]!;
    if (k > length) k = -1;
    for (let m = node; k > 0 && m > 0; m = this.up[m]!) if (this.tag[m] !== tags[--k]) k = -1;
    if (k < 0) node = 0; // not `near`'s path and more: from the root
    for (k = this.depth[node]!; k < length; k++) {
      const key = node * 16777216 + tags[k]!;
      let next = this.child.get(key);
      if (next === undefined) {
        next = this.paths.length;
        this.child.set(key, next);
        const name = this.names[tags[k]!]!;
        this.paths.push(node === 0 ? name : `${this.paths[node]}${PATH_SEPARATOR}${name}`);
        this.tag.push(tags[k]!);
        this.up.push(node);
        this.depth.push(k + 1);
      }
      node = next;
    }
    return node;
  }
}
