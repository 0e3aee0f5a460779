import { createHash } from "node:crypto";
import type { TagPathSequence } from "../html/index.js";

/**
 * A fingerprint of a result page's layout, to tell whether a later page has the layout the wrapper was
 * learned on. Class names are what distinguishes engines (`b_algo`, `res-title`, `LC20lb`…): on the 40
 * real result pages, pages of one engine and period share ≥ 0.12 of their class tokens (Jaccard), pages
 * of different engines ≤ 0.01. Class-poor legacy pages fall back to the set of tag paths.
 * Used only to refuse a foreign page, never to find records (records come from tag paths alone).
 */
export interface LayoutFingerprint {
  kind: "classes" | "paths";
  /** Sorted class tokens, or short hashes of the tag paths. */
  tokens: string[];
}

/** Below this share of tokens in common, a page is not the wrapper's layout. */
export const LAYOUT_THRESHOLD = { classes: 0.05, paths: 0.15 } as const;
const MIN_CLASS_TOKENS = 20;

export function classTokens(seq: TagPathSequence): Set<string> {
  const tokens = new Set<string>();
  for (const c of seq.classes) if (c) for (const t of c.split(/\s+/)) if (t) tokens.add(t);
  return tokens;
}

function pathTokens(seq: TagPathSequence): Set<string> {
  return new Set(seq.paths.map((p) => createHash("sha1").update(p).digest("hex").slice(0, 10)));
}

export function layoutFingerprint(seq: TagPathSequence): LayoutFingerprint {
  const classes = classTokens(seq);
  if (classes.size >= MIN_CLASS_TOKENS) return { kind: "classes", tokens: [...classes].sort() };
  return { kind: "paths", tokens: [...pathTokens(seq)].sort() };
}

/** Jaccard similarity between the fingerprint and the page's tokens of the same kind. */
export function layoutSimilarity(fingerprint: LayoutFingerprint, seq: TagPathSequence): number {
  const page = fingerprint.kind === "classes" ? classTokens(seq) : pathTokens(seq);
  let common = 0;
  for (const t of fingerprint.tokens) if (page.has(t)) common++;
  const union = fingerprint.tokens.length + page.size - common;
  return union === 0 ? 1 : common / union;
}

export function sameLayout(fingerprint: LayoutFingerprint, seq: TagPathSequence): { same: boolean; similarity: number } {
  const similarity = layoutSimilarity(fingerprint, seq);
  return { same: similarity >= LAYOUT_THRESHOLD[fingerprint.kind], similarity };
}
