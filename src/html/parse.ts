import { parse } from "parse5";
import { collectTagPaths, type MinimalNode, type TagPathSequence } from "./tagpaths.js";

/**
 * The tag-path sequence of an HTML string. Uses parse5, the same spec-compliant tree builder
 * jsdom wraps (same implied tbody, same foster parenting, so the same paths as a browser),
 * without building the rest of a DOM: about 14× faster than going through jsdom (`dom.ts`).
 */
export function tagPathsFromHtml(html: string): TagPathSequence {
  return collectTagPaths(parse(html) as unknown as MinimalNode);
}
