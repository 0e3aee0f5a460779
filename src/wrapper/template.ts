import type { TagPathIndex } from "../html/index.js";
import type { LayoutFingerprint } from "./layout.js";
import { HEADING_TAGS } from "./record-text.js";
import { headingTail, type RecordRegion, relativePath } from "./records.js";
import type { RecordCluster } from "./types.js";

/**
 * A learned record template on a later page. A wrapper stores absolute tag paths, but the same template can
 * hang a level deeper or shallower on the next capture (a wrapper div added around the list, a page served as
 * fragments, a record with an extra box around its title): its records are then found by the template — the
 * cluster's member paths relative to the record root, and the title path — under whatever root path carries it.
 * How well the records found match the template (their tag paths, and the class names they share with the
 * sample page) is what tells a page of the wrapper's layout from another engine's or another decade's.
 */

/** The cluster's record template: its member paths (and title path) relative to the record root. */
export function recordTemplate(cluster: RecordCluster): string[] {
  const prefix = `${cluster.ancestorPath}\\`;
  const rel = new Set<string>();
  for (const p of cluster.paths) if (p.startsWith(prefix)) rel.add(p.slice(prefix.length));
  if (cluster.titlePath) rel.add(cluster.titlePath);
  return [...rel];
}

/**
 * The title path's heading-led tail when it is shorter than the path (`div\h2\a` → `h2\a`): where the title
 * sits in a record whose root moved below the learned one. Null when no heading sits below the path's first tag
 * (`headingTail` in records.ts also returns a path that starts with its heading).
 */
export function shorterHeadingTail(titlePath: string): string | null {
  const tags = titlePath.split("\\");
  for (let i = tags.length - 1; i > 0; i--) if (HEADING_TAGS.has(tags[i]!)) return tags.slice(i).join("\\");
  return null;
}

/**
 * Whether a region's title link sits where the template has it: at the title path, or at its heading-led tail
 * (one template at two depths). `findTitleLink` also tolerates a link holding a heading anywhere in the region;
 * such a record may be read, but it is no evidence that the region is one of the template's records.
 */
export function titleAtTemplate(index: TagPathIndex, region: RecordRegion, link: number, titlePath: string | null): boolean {
  if (titlePath === null) return true;
  const rel = relativePath(index, region.root, link);
  if (rel === titlePath) return true;
  const tail = headingTail(titlePath);
  return tail !== null && (rel === tail || rel.endsWith(`\\${tail}`));
}

/** A re-anchored root may differ from the learned ancestor path by this many inserted or deleted tags. */
export const MAX_ROOT_SHIFT = 2;

/**
 * Root paths that may carry the cluster's records on a page: the learned ancestor path if the page has it,
 * and every path with the same last tag under which the title path (or its heading-led tail) occurs, directly
 * or one element down, and which is the learned path with at most `MAX_ROOT_SHIFT` tags inserted or deleted
 * (the list moved a level or two; a list elsewhere on the page is another list).
 */
export function candidateRoots(index: TagPathIndex, pathIds: ReadonlyMap<string, number>, cluster: RecordCluster): number[] {
  const { ancestorPath, titlePath } = cluster;
  const lastTag = ancestorPath.slice(ancestorPath.lastIndexOf("\\") + 1);
  const roots = new Set<number>();
  const exact = pathIds.get(ancestorPath);
  if (exact !== undefined) roots.add(exact);
  if (!titlePath) return [...roots];
  const tails = [titlePath];
  const tail = shorterHeadingTail(titlePath);
  if (tail) tails.push(tail);
  const learnedTags = ancestorPath.split("\\");
  const paths = index.seq.paths;
  for (let id = 0; id < paths.length; id++) {
    const p = paths[id]!;
    for (const t of tails) {
      if (p.length <= t.length || !p.endsWith(t) || p.charCodeAt(p.length - t.length - 1) !== 92) continue;
      let root = p.slice(0, p.length - t.length - 1);
      for (let up = 0; up < 2 && root.length > 0; up++) {
        if (root.endsWith(`\\${lastTag}`)) {
          const rid = pathIds.get(root);
          if (rid !== undefined && !roots.has(rid) && withinShift(learnedTags, root.split("\\"), MAX_ROOT_SHIFT)) roots.add(rid);
        }
        root = root.slice(0, Math.max(0, root.lastIndexOf("\\")));
      }
    }
  }
  return [...roots];
}

/** Whether tag list b is tag list a with at most `max` tags inserted or deleted (no substitutions). */
export function withinShift(a: readonly string[], b: readonly string[], max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  // Insert/delete distance = |a| + |b| − 2·LCS; a banded LCS is enough at this size.
  const n = a.length;
  const m = b.length;
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    [prev, cur] = [cur, prev];
  }
  return n + m - 2 * prev[m]! <= max;
}

/** Without its first tag (`div\h2\a` → `h2\a`), or "" for a one-tag path. */
function dropFirst(rel: string): string {
  const i = rel.indexOf("\\");
  return i < 0 ? "" : rel.slice(i + 1);
}

/**
 * What the paths match under one root path id, by path id: `direct[id]` the template entry it is (or, one level
 * up, stands for), -1 none, -2 not looked up yet; `headed[id]` (only when it is no entry) the entries holding a
 * heading that it ends in.
 */
interface PathMatches {
  direct: Int32Array;
  headed: Array<number[] | undefined>;
}
interface PreparedTemplate {
  /** Relative path (or its one-level-up variant) → template entry. */
  wanted: Map<string, number>;
  /** Template entries holding a heading, as suffixes. */
  headed: Array<{ suffix: string; i: number }>;
  index: TagPathIndex;
  /** By root path id: what each path matches under that root (it depends on the pair only). */
  matches: Map<number, PathMatches>;
}

/** A template's lookups, built once per template and page: `templateMatch` asks for one region at a time. */
const prepared = new WeakMap<readonly string[], PreparedTemplate>();

function preparedTemplate(index: TagPathIndex, template: readonly string[]): PreparedTemplate {
  const known = prepared.get(template);
  if (known && known.index === index) return known;
  const wanted = new Map<string, number>();
  const headed: Array<{ suffix: string; i: number }> = [];
  template.forEach((t, i) => {
    wanted.set(t, i);
    const shorter = dropFirst(t);
    if (shorter && !wanted.has(shorter)) wanted.set(shorter, i);
    if (t.split("\\").some((tag) => HEADING_TAGS.has(tag))) headed.push({ suffix: `\\${t}`, i });
  });
  const made: PreparedTemplate = { wanted, headed, index, matches: new Map() };
  prepared.set(template, made);
  return made;
}

/**
 * Per record, the share of the template's paths found in it, averaged over the records. A path also counts when
 * one of the two has an extra element at its top (one template at two depths), and a path of the title's heading
 * (`h3\\a\\#text`) wherever it sits in the record: a redesign can wrap the title in new boxes (the way
 * `findTitleLink` takes the title at its heading-led tail).
 */
export function templateSimilarity(index: TagPathIndex, regions: readonly RecordRegion[], template: readonly string[]): number {
  if (regions.length === 0 || template.length === 0) return 0;
  const { seq } = index;
  const { wanted, headed, matches } = preparedTemplate(index, template);
  let total = 0;
  const seen = new Uint8Array(template.length);
  for (const region of regions) {
    seen.fill(0);
    let found = 0;
    const rootId = seq.pathIds[region.root]!;
    const rootPath = seq.paths[rootId]!;
    let byPath = matches.get(rootId);
    if (!byPath) {
      byPath = { direct: new Int32Array(seq.paths.length).fill(-2), headed: [] };
      matches.set(rootId, byPath);
    }
    for (let p = region.root + 1; p < region.end; p++) {
      const id = seq.pathIds[p]!;
      let direct = byPath.direct[id]!;
      if (direct === -2) {
        const rel = seq.paths[id]!.slice(rootPath.length + 1);
        direct = wanted.get(rel) ?? wanted.get(dropFirst(rel)) ?? -1;
        byPath.direct[id] = direct;
        if (direct < 0) byPath.headed[id] = headed.filter((h) => rel.endsWith(h.suffix)).map((h) => h.i);
      }
      let i = direct < 0 ? undefined : direct;
      if (i === undefined) for (const hi of byPath.headed[id]!) if (!seen[hi]) i = hi;
      if (i !== undefined && !seen[i]) {
        seen[i] = 1;
        found++;
      }
    }
    total += found / template.length;
  }
  return total / regions.length;
}

/** A fingerprint's class tokens as a set, built once per fingerprint (a wrapper reads many pages). */
const fingerprintTokens = new WeakMap<LayoutFingerprint, Set<string>>();

/**
 * Share of the class tokens used inside the records that the sample page used too (null when the records carry
 * no class, or the fingerprint is not of class names): records of one engine and period are styled by the
 * same names; another engine's, or the same engine's a decade later, by others.
 */
export function classSimilarity(index: TagPathIndex, regions: readonly RecordRegion[], fingerprint: LayoutFingerprint): number | null {
  if (fingerprint.kind !== "classes") return null;
  let known = fingerprintTokens.get(fingerprint);
  if (!known) {
    known = new Set(fingerprint.tokens);
    fingerprintTokens.set(fingerprint, known);
  }
  const tokens = new Set<string>();
  const { classes } = index.seq;
  for (const region of regions) {
    for (let p = region.root; p < region.end; p++) {
      const c = classes[p];
      if (c) for (const t of c.split(/\s+/)) if (t) tokens.add(t);
    }
  }
  if (tokens.size === 0) return null;
  let common = 0;
  for (const t of tokens) if (known.has(t)) common++;
  return common / tokens.size;
}
