import type { TagPathSequence } from "../html/index.js";
import data from "./ad-labels.json" with { type: "json" };

/**
 * Paid results sit in the same lists and templates as organic ones; what marks them on every engine is a
 * label ("Ad", "Sponsored", "Anzeige", "广告"…) shown as a text of its own. The labels are data
 * (`ad-labels.json`). Checking a region is a scan of its text nodes, cheap beside parsing.
 */

const LABELS: ReadonlySet<string> = new Set(data.labels.map(fold));
const LONGEST = Math.max(...data.labels.map((l) => l.length)) + 8;

function fold(s: string): string {
  return s
    .toLowerCase()
    .replace(/[\s\u00a0·•|:()[\]\-–—]+/g, " ")
    .trim();
}

/** Whether positions [from, to) hold an ad label as a text node of its own. */
export function hasAdLabel(seq: TagPathSequence, from: number, to: number): boolean {
  for (let p = from; p < to; p++) {
    const t = seq.texts[p];
    if (!t || t.length > LONGEST) continue;
    if (LABELS.has(fold(t))) return true;
  }
  return false;
}
