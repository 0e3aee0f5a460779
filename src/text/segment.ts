import { charLang, EN_ZH, type Lang, type LanguagePair } from "./script.js";

/** A maximal run of one language: `text === input.slice(start, end)` (UTF-16 offsets), trimmed of spaces. */
export interface LangSegment {
  lang: Lang;
  text: string;
  start: number;
  end: number;
}

/** How a neutral (non-letter) character attaches to the runs around it. */
type Neutral = "open" | "close" | "space" | "other";

const OPEN = /[\p{Ps}\p{Pi}]/u;
const CLOSE = /[\p{Pe}\p{Pf}\p{Po}\p{Pd}\p{Pc}]/u;
const SPACE = /\s/u;

function neutralKind(ch: string): Neutral {
  if (SPACE.test(ch)) return "space";
  if (OPEN.test(ch)) return "open";
  if (CLOSE.test(ch)) return "close";
  return "other";
}

/**
 * Cut `text` into maximal runs of one language of `pair` (feng2011 §3, feng2010 §5):
 * - letters belong to their script's language;
 * - between runs of two different languages, open punctuation ( “ ( 《 「 ) goes to the next run, close and
 *   other punctuation ( . , ! ? 。 ” ) ) to the previous one, so "U.S." stays inside its English run and
 *   "I see. 我明白了。" is `I see.` + `我明白了。`;
 * - digits and symbols go to the run they touch without a space (the previous one if both or neither);
 * - neutral characters at the ends of the text go to the only neighbour; spaces at run edges are trimmed;
 * - adjacent runs of one language merge. Text without letters of either language gives no segments.
 */
export function segmentByLanguage(text: string, pair: LanguagePair = EN_ZH): LangSegment[] {
  // One entry per code point: its offset, length and language (null = neutral).
  const offs: number[] = [];
  const lens: number[] = [];
  const langs: (Lang | null)[] = [];
  let off = 0;
  for (const ch of text) {
    offs.push(off);
    lens.push(ch.length);
    langs.push(charLang(ch, pair));
    off += ch.length;
  }
  const n = langs.length;
  const owner: (Lang | null)[] = langs.slice();

  // Resolve each maximal neutral span [i, j) between letters.
  let i = 0;
  while (i < n) {
    if (langs[i] !== null) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && langs[j] === null) j++;
    const left = i > 0 ? langs[i - 1]! : null;
    const right = j < n ? langs[j]! : null;
    if (left === null || right === null || left === right) {
      const l = left ?? right;
      for (let k = i; k < j; k++) owner[k] = l;
    } else {
      const split = splitPoint(text, offs, lens, i, j);
      for (let k = i; k < j; k++) owner[k] = k < split ? left : right;
    }
    i = j;
  }

  // Group consecutive code points of one owner, trimming spaces at the edges of each run.
  const segments: LangSegment[] = [];
  let k = 0;
  while (k < n) {
    const l = owner[k];
    let e = k;
    while (e < n && owner[e] === l) e++;
    if (l !== null && l !== undefined) {
      let s = k;
      let t = e;
      while (s < t && SPACE.test(text.slice(offs[s]!, offs[s]! + lens[s]!))) s++;
      while (t > s && SPACE.test(text.slice(offs[t - 1]!, offs[t - 1]! + lens[t - 1]!))) t--;
      if (s < t) {
        const start = offs[s]!;
        const end = offs[t - 1]! + lens[t - 1]!;
        const prev = segments.at(-1);
        if (prev && prev.lang === l) {
          prev.end = end;
          prev.text = text.slice(prev.start, end);
        } else segments.push({ lang: l, text: text.slice(start, end), start, end });
      }
    }
    k = e;
  }
  return segments;
}

/**
 * Index in [i, j) of the first code point of a neutral span that belongs to the next run
 * (everything before it belongs to the previous run).
 */
function splitPoint(text: string, offs: number[], lens: number[], i: number, j: number): number {
  const kinds: Neutral[] = [];
  for (let k = i; k < j; k++) kinds.push(neutralKind(text.slice(offs[k]!, offs[k]! + lens[k]!)));
  let split = j;
  // The first open punctuation starts the next run.
  for (let k = 0; k < kinds.length; k++) {
    if (kinds[k] === "open") {
      split = i + k;
      break;
    }
  }
  // A chunk of digits/symbols touching only the next run goes with it.
  let c = kinds.length;
  while (c > 0 && kinds[c - 1] === "other") c--;
  if (c < kinds.length && c > 0) split = Math.min(split, i + c);
  // Spaces just before the split point belong to neither run (they are trimmed later); move the split
  // to the first of them so the previous run does not end in a space.
  while (split > i && kinds[split - 1 - i] === "space") split--;
  return split;
}
