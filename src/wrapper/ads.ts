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

/** The first characters of the labels, folded. */
const FIRSTS: ReadonlySet<string> = new Set([...LABELS].map((l) => l.charAt(0)));
/** The ASCII characters `fold` drops or turns into a space. */
const ASCII_BLANKS = " \t\n\v\f\r|:()[]-";

/**
 * Before folding a text (most of the check): false when its folded form cannot be a label, because it begins
 * with an ASCII character (read here, past what folding drops) that begins no label.
 */
function mayBeLabel(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const code = t.charCodeAt(i);
    if (code >= 128) return true;
    const c = t.charAt(i);
    if (ASCII_BLANKS.includes(c)) continue;
    return FIRSTS.has(code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : c);
  }
  return true;
}

/** Whether positions [from, to) hold an ad label as a text node of its own. */
export function hasAdLabel(seq: TagPathSequence, from: number, to: number): boolean {
  for (let p = from; p < to; p++) {
    const t = seq.texts[p];
    if (!t || t.length > LONGEST || !mayBeLabel(t)) continue;
    if (LABELS.has(fold(t))) return true;
  }
  return false;
}
