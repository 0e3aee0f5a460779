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
  // A page repeats a few hundred distinct class attributes over thousands of elements: split each once.
  const attrs = new Set<string>();
  for (const c of seq.classes) if (c) attrs.add(c);
  const tokens = new Set<string>();
  for (const c of attrs) for (const t of c.split(/\s+/)) if (t) tokens.add(t);
  return tokens;
}

const LEGACY_TOKEN_LENGTH = 10;

function legacyPathTokens(seq: TagPathSequence): Set<string> {
  return new Set(seq.paths.map((p) => createHash("sha1").update(p).digest("hex").slice(0, LEGACY_TOKEN_LENGTH)));
}

/**
 * The page's tag-path tokens, one per unique path: 53 bits of a string hash (cyrb53's mixing), built along the
 * tree (a path's state is its parent path's state mixed with its own tag), so each path costs its last tag, not
 * its length (legacy pages nest hundreds of levels deep). Kept as numbers; the fingerprint writes them in hex
 * (14 digits). Wrappers learned before carry 10-digit SHA-1 prefixes, still read. Hashing every path of the page
 * with SHA-1 was a third of applying a wrapper to a class-poor page.
 */
export function pathTokenValues(seq: TagPathSequence): Float64Array {
  const n = seq.paths.length;
  const parentPath = new Int32Array(n).fill(-1);
  const open: number[] = [];
  for (let p = 0; p < seq.pathIds.length; p++) {
    while (open.length > 0 && seq.ends[open[open.length - 1]!]! <= p) open.pop();
    if (open.length > 0) parentPath[seq.pathIds[p]!] = seq.pathIds[open[open.length - 1]!]!;
    open.push(p);
  }
  // Path ids are numbered in order of first occurrence, and a parent occurs before its children.
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  const values = new Float64Array(n);
  for (let id = 0; id < n; id++) {
    const path = seq.paths[id]!;
    const up = parentPath[id]!;
    let h1 = up >= 0 ? a[up]! : 0xdeadbeef;
    let h2 = up >= 0 ? b[up]! : 0x41c6ce57;
    for (let i = up >= 0 ? path.lastIndexOf("\\") : 0; i < path.length; i++) {
      const ch = path.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    a[id] = h1;
    b[id] = h2;
    const f1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    const f2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(f1 ^ (f1 >>> 13), 3266489909);
    values[id] = 4294967296 * (2097151 & f2) + (f1 >>> 0);
  }
  return values;
}

export function layoutFingerprint(seq: TagPathSequence): LayoutFingerprint {
  const classes = classTokens(seq);
  if (classes.size >= MIN_CLASS_TOKENS) return { kind: "classes", tokens: [...classes].sort() };
  // Hex strings of one length sort as their values do: the values are sorted and made distinct as numbers, and each
  // is written byte by byte (a double's own `toString(16)` is slow).
  const values = pathTokenValues(seq).sort();
  const tokens: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (i > 0 && v === values[i - 1]) continue;
    const high = Math.floor(v / 4294967296); // 21 bits
    const low = v - high * 4294967296;
    tokens.push(
      HEX_BYTES[high >>> 16]! +
        HEX_BYTES[(high >>> 8) & 255]! +
        HEX_BYTES[high & 255]! +
        HEX_BYTES[low >>> 24]! +
        HEX_BYTES[(low >>> 16) & 255]! +
        HEX_BYTES[(low >>> 8) & 255]! +
        HEX_BYTES[low & 255]!,
    );
  }
  return { kind: "paths", tokens };
}

/** Two hex digits of each byte value. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** The fingerprint's tokens as a set to look the page's up in, built once per fingerprint (a wrapper reads many pages). */
const fingerprintSets = new WeakMap<LayoutFingerprint, Set<string> | Set<number>>();

function fingerprintSet(fingerprint: LayoutFingerprint): Set<string> | Set<number> {
  let set = fingerprintSets.get(fingerprint);
  if (!set) {
    const legacy = fingerprint.kind === "paths" && fingerprint.tokens[0]?.length === LEGACY_TOKEN_LENGTH;
    set =
      fingerprint.kind === "classes" || legacy
        ? new Set(fingerprint.tokens)
        : new Set(fingerprint.tokens.map((t) => Number.parseInt(t, 16)));
    fingerprintSets.set(fingerprint, set);
  }
  return set;
}

/** A fingerprint's path tokens as numbers, sorted, distinct (built once per fingerprint). */
const fingerprintValues = new WeakMap<LayoutFingerprint, Float64Array>();

function sortedValues(fingerprint: LayoutFingerprint): Float64Array {
  let values = fingerprintValues.get(fingerprint);
  if (!values) {
    values = Float64Array.from(fingerprintSet(fingerprint) as Set<number>).sort();
    fingerprintValues.set(fingerprint, values);
  }
  return values;
}

/**
 * Jaccard similarity of the fingerprint's path tokens and the page's, both sorted: no set of the page's tokens
 * is built (a set of non-integer-sized numbers boxes each one).
 */
function pathTokenSimilarity(fingerprint: LayoutFingerprint, seq: TagPathSequence): number {
  const known = sortedValues(fingerprint);
  const page = pathTokenValues(seq).sort();
  let distinct = 0;
  let common = 0;
  let k = 0;
  for (let i = 0; i < page.length; i++) {
    const v = page[i]!;
    if (i > 0 && v === page[i - 1]) continue;
    distinct++;
    while (k < known.length && known[k]! < v) k++;
    if (k < known.length && known[k] === v) common++;
  }
  const union = known.length + distinct - common;
  return union === 0 ? 1 : common / union;
}

/** Jaccard similarity between the fingerprint and the page's tokens of the same kind. */
export function layoutSimilarity(fingerprint: LayoutFingerprint, seq: TagPathSequence): number {
  if (fingerprint.kind === "paths" && fingerprint.tokens[0]?.length !== LEGACY_TOKEN_LENGTH) return pathTokenSimilarity(fingerprint, seq);
  const known = fingerprintSet(fingerprint);
  let page: Set<string> | Set<number>;
  if (fingerprint.kind === "classes") page = classTokens(seq);
  else if (fingerprint.tokens[0]?.length === LEGACY_TOKEN_LENGTH) page = legacyPathTokens(seq);
  else page = new Set(pathTokenValues(seq));
  let common = 0;
  for (const t of page) if ((known as Set<string | number>).has(t)) common++;
  const union = known.size + page.size - common;
  return union === 0 ? 1 : common / union;
}

export function sameLayout(fingerprint: LayoutFingerprint, seq: TagPathSequence): { same: boolean; similarity: number } {
  const similarity = layoutSimilarity(fingerprint, seq);
  return { same: similarity >= LAYOUT_THRESHOLD[fingerprint.kind], similarity };
}
