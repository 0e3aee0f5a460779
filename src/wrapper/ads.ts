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

/** The first two characters of the labels, folded, when ASCII. */
const HEADS: ReadonlySet<string> = new Set(
  [...LABELS].map((l) => l.slice(0, 2)).filter((h) => h.length === 2 && h.charCodeAt(0) < 128 && h.charCodeAt(1) < 128),
);
/** The ASCII characters `fold` drops or turns into a space. */
const ASCII_BLANKS = " \t\n\v\f\r|:()[]-";

/**
 * Before folding a text (most of the check): false when its folded form cannot be a label, because its first two
 * characters (read here: ASCII, lowercased, a run of what folding blanks as one space) begin no label. A text with
 * another character among them, or shorter, is folded.
 */
function mayBeLabel(t: string): boolean {
  let head = "";
  let blank = false;
  for (let i = 0; i < t.length; i++) {
    const code = t.charCodeAt(i);
    if (code >= 128) return true;
    const c = t.charAt(i);
    if (ASCII_BLANKS.includes(c)) {
      blank = head.length > 0;
      continue;
    }
    if (blank) head += " ";
    if (head.length < 2) head += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : c;
    if (head.length === 2) return HEADS.has(head);
    blank = false;
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
