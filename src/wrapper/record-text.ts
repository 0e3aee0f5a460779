import type { TagPathIndex } from "../html/index.js";

/**
 * Text of a range of positions, joined the way a reader sees it: inline elements (`<em>案件</em>(范例)`)
 * join without a space, block-level boundaries and `<br>` become one space, whitespace is collapsed.
 */

export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "cite",
  "caption",
  "center",
  "option",
]);

export const HEADING_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

/** Last tag name of each path id (`…\div\a` → `a`). */
export function lastTags(paths: readonly string[]): string[] {
  return paths.map((p) => p.slice(p.lastIndexOf("\\") + 1));
}

/** Kinds of element a path id ends in (`TextContext.kinds`), as bits. */
export const BLOCK = 1;
export const HEADING = 2;
export const BR = 4;
export const LINK = 8;
export const CITE = 16;

function tagKinds(tags: readonly string[]): Uint8Array {
  const kinds = new Uint8Array(tags.length);
  tags.forEach((t, id) => {
    kinds[id] =
      (BLOCK_TAGS.has(t) ? BLOCK : 0) |
      (HEADING_TAGS.has(t) ? HEADING : 0) |
      (t === "br" ? BR : 0) |
      (t === "a" ? LINK : 0) |
      (t === "cite" ? CITE : 0);
  });
  return kinds;
}

export interface TextContext {
  index: TagPathIndex;
  tags: string[];
  /** Per path id, the kinds of its last tag (`BLOCK`, `HEADING`…): looked up per position, with no string. */
  kinds: Uint8Array;
  /**
   * What records.ts reads more than once on a page (applying reads each region's title link in several steps,
   * and each candidate link's title while looking for it), kept for the page's lifetime.
   */
  memo: {
    /** Title text of a link, by position. */
    linkTitles: Map<number, { text: string; skip: number[] }>;
    /** Title link of a region, by title path (null: none learned), then region (`root · (N + 1) + end`). */
    titleLinks: Map<string | null, Map<number, number>>;
    /** Per position: 0 not looked at yet, 1 a navigable link, 2 not one. */
    navigable: Uint8Array;
  };
}

export function textContext(index: TagPathIndex): TextContext {
  const tags = lastTags(index.seq.paths);
  return {
    index,
    tags,
    kinds: tagKinds(tags),
    memo: { linkTitles: new Map(), titleLinks: new Map(), navigable: new Uint8Array(index.length) },
  };
}

function nearestBlock(ctx: TextContext, pos: number, floor: number): number {
  const { parents, seq } = ctx.index;
  let p = parents[pos]!;
  while (p >= floor && (ctx.kinds[seq.pathIds[p]!]! & BLOCK) === 0) p = parents[p]!;
  return p;
}

/**
 * Text of positions [from, to), skipping the subtrees rooted at positions in `skip` (sorted or not).
 */
export function rangeText(ctx: TextContext, from: number, to: number, skip: ReadonlyArray<number> = []): string {
  const { seq } = ctx.index;
  let out = "";
  let prevText = -1;
  let prevBlock = -2; // nearestBlock of prevText once known (-2: not yet)
  let p = from;
  while (p < to) {
    if (skip.length > 0 && skip.includes(p)) {
      p = Math.max(p + 1, seq.ends[p]!);
      if (prevText >= 0) out += " ";
      continue;
    }
    const text = seq.texts[p];
    if (text !== null && text !== undefined) {
      let block = -2;
      if (prevText >= 0 && out.length > 0) {
        block = nearestBlock(ctx, p, from);
        let separate = (prevBlock !== -2 ? prevBlock : nearestBlock(ctx, prevText, from)) !== block;
        for (let q = prevText + 1; q < p && !separate; q++) if ((ctx.kinds[seq.pathIds[q]!]! & BR) !== 0) separate = true;
        if (separate) out += " ";
      }
      out += text;
      prevText = p;
      prevBlock = block;
    }
    p++;
  }
  return normaliseSpace(out);
}

export function normaliseSpace(s: string): string {
  // Most texts are normal already (single spaces between words): the replace would copy them for every space.
  let space = true; // a space here would be a leading or a double one
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return spaceNormalised(s);
      space = true;
    } else if (c < 32 || (c >= 0xa0 && mayBeSpace(c))) return spaceNormalised(s);
    else space = false;
  }
  return space && s.length > 0 ? spaceNormalised(s) : s;
}

function spaceNormalised(s: string): string {
  return s.replace(/[\s\u00a0\u200b\u3000]+/g, " ").trim();
}

/** A superset of the non-ASCII characters `\s` and `trim` take as blank (and U+200B). */
function mayBeSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x206f) || c === 0x3000 || c === 0xfeff;
}
