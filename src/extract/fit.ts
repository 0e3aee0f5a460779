/**
 * What the structural pairing asks of a text: its letters per language, its side (which language it is
 * written in), and how well two texts fit the Gale-Church length model of their pair (`length-model.ts`).
 */
import { charLang, type LanguagePair } from "../text/index.js";
import { lengthModelFor } from "./length-model.js";

/** The two languages of a pair: `a` (English, the Latin-script side), `b` (the CJK side). */
export type Side = "a" | "b";

/**
 * The side of a unit in a run: CJK when more than a tenth of its letters are CJK (a table header
 * "Unicode名称", a sentence full of code names), the other language when it has (almost) none and reads as
 * text: a word of three letters at least when it has digits ("42 pt" is a measure), not a code point ("FF0C"), not romanised Chinese
 * ("biāodiǎn fúhào": pinyin is Latin script but not English).
 */
export function unitSide(letters: readonly [number, number], text: string): Side | null {
  const [na, nb] = letters;
  if (na + nb === 0) return null;
  if (nb / (na + nb) > 0.1) return "b";
  if (text.length > 80) return "a"; // measures, code points and romanised terms are short
  if (/\d/u.test(text) && !/\p{L}{3}/u.test(text)) return null;
  if (/^[\s,;/]*(?:(?:U\+)?[0-9A-F]{4,6}[\s,;/]*)+$/u.test(text)) return null;
  // Checked only where there are letters with diacritics (cheap test first: most units have none).
  if (/[\u00c0-\u01dc]/u.test(text) && isPinyin(text.match(/[\p{L}\p{N}+]+/gu) ?? [])) return null;
  return "a";
}

const TONE_MARK = /[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]/iu;
const PINYIN_ONLY_MARK = /[āǎēěīǐōǒūǔǖǘǚǜ]/iu;

/** Romanised Chinese: most words carry a tone mark, one of them a mark English and French do not use. */
function isPinyin(words: readonly string[]): boolean {
  const marked = words.filter((w) => TONE_MARK.test(w));
  return marked.length === words.length || (marked.length * 2 >= words.length && marked.some((w) => PINYIN_ONLY_MARK.test(w)));
}

/** English-dominant: letters of pair.a and ≤ 10 % of pair.b; CJK-dominant: > 30 % pair.b letters. */
export function dominant([na, nb]: readonly [number, number]): Side | "mixed" | null {
  const total = na + nb;
  if (total === 0) return null;
  if (nb / total > 0.3) return "b";
  if (na > 0 && nb / total <= 0.1) return "a";
  return "mixed";
}

export function countLetters(text: string, pair: LanguagePair): [number, number] {
  const c = countChars(text, pair);
  return [c.a, c.b];
}

/** Letters of each language of the pair, and other letters and digits (Gale-Church's length unit is all of them). */
export interface CharCounts {
  a: number;
  b: number;
  other: number;
}

/** Counted with fast paths for ASCII and the CJK block (regular expressions per character only for the rest). */
export function countChars(text: string, pair: LanguagePair, into?: CharCounts): CharCounts {
  const out: CharCounts = into ?? { a: 0, b: 0, other: 0 };
  out.a = 0;
  out.b = 0;
  out.other = 0;
  const latinA = pair.a === "en";
  const hanB = pair.b === "zh" || pair.b === "ja";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
        if (latinA) out.a++;
        else out.other++;
      } else if (code >= 48 && code <= 57) out.other++;
      continue;
    }
    if (hanB && code >= 0x4e00 && code <= 0x9fff) {
      out.b++;
      continue;
    }
    if (code >= 0x3000 && code <= 0x303f) continue; // CJK punctuation
    if (code >= 0xff00 && code <= 0xff0f) continue; // full-width punctuation
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (cp > 0xffff) i++;
    const l = charLang(ch, pair);
    if (l === pair.a) out.a++;
    else if (l === pair.b) out.b++;
    else if (/[\p{L}\p{N}]/u.test(ch)) out.other++;
  }
  return out;
}

/**
 * Length-model δ of a (CJK, other) pair of texts, as `textLengthDelta` computes it (letters and digits;
 * letters of the CJK side not in its script carried over one for one), from character counts.
 */
export class LengthFit {
  private readonly model;
  constructor(private readonly pair: LanguagePair) {
    this.model = lengthModelFor(pair.b);
  }
  delta(b: string, a: string): number {
    return this.deltaOf(this.lengths(b, a));
  }
  /** The lengths of a (CJK, other) pair as the model counts them. */
  lengths(b: string, a: string): PairLengths {
    return lengthsOf(countChars(b, this.pair), countChars(a, this.pair));
  }
  /**
   * δ of lengths where the other side runs `scale` times as long per CJK character as the model's corpus
   * says (1: the model; a page's own ratio, see `pageScale`): expectation and spread both scale with it.
   */
  deltaOf(l: PairLengths, scale = 1): number {
    const n1 = Math.max(l.cjk, 1);
    return (l.other - scale * l.cjk * this.model.c - l.carried) / (scale * Math.sqrt(n1 * this.model.s2 + n1 * n1 * this.model.b));
  }
  /**
   * The ratio of a set of pairs to the model: the median over the pairs of (other length − carried letters) /
   * (c · CJK length). Classical Chinese takes about twice the English per character of the modern Chinese the
   * model was estimated on; a glossary of terms about as much: the median, not the mean, so a few notes-like
   * outliers do not move it.
   */
  pageScale(list: readonly PairLengths[]): number {
    const ratios = list.map((l) => Math.max(l.other - l.carried, 1) / (this.model.c * Math.max(l.cjk, 1))).sort((x, y) => x - y);
    if (ratios.length === 0) return 1;
    const m = ratios.length >> 1;
    return ratios.length % 2 ? ratios[m]! : (ratios[m - 1]! + ratios[m]!) / 2;
  }
}

/** The lengths of a pair from the character counts of its CJK side `cb` and its other side `ca`. */
export function lengthsOf(cb: CharCounts, ca: CharCounts): PairLengths {
  return { other: ca.a + ca.b + ca.other, cjk: cb.b, carried: cb.a + cb.other };
}

/** Lengths of a pair in the model's unit: the other side's letters and digits, the CJK side's CJK letters and the rest of its letters. */
export interface PairLengths {
  other: number;
  cjk: number;
  carried: number;
}

/**
 * A CJK text that quotes every word of its English partner ("Yes?" / "yes 的意思通常是…") is a note about
 * the English, not its translation.
 */
function isNoteOn(b: string, a: string): boolean {
  if (a.length > 80 || !/[A-Za-z\u00c0-\u024f]/u.test(b)) return false; // notes quote a word or a phrase
  const words = a.toLowerCase().match(/\p{L}+/gu);
  if (!words || words.length === 0) return false;
  const inB = new Set(b.toLowerCase().match(/\p{L}+/gu) ?? []);
  return words.every((w) => inB.has(w));
}

/** Length fit of a pair in (0, 1] (1: the expected length ratio), or 0 when the CJK side is a note on the English. */
export function pairFit(a: string, b: string, scorer: LengthFit): { score: number; delta: number } {
  if (isNoteOn(b, a)) return { score: 0, delta: Number.POSITIVE_INFINITY };
  const delta = scorer.delta(b, a);
  return { score: Math.exp((-delta * delta) / 8), delta };
}

const LIST_NUMBER = /^\(?\d{1,3}[.)、．]\s*/u;

/** A list number on one side only ("1. Would you…" / "请你…") is the list's decoration, not text. */
export function withoutOneSidedNumber(a: string, b: string): [string, string] {
  const na = LIST_NUMBER.test(a);
  const nb = LIST_NUMBER.test(b);
  if (na === nb) return [a, b];
  return [a.replace(LIST_NUMBER, "") || a, b.replace(LIST_NUMBER, "") || b];
}
