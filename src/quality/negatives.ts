import type { LanguagePair } from "../language-pair.js";
import { comparableText, isUnspacedLang, type Lexicon, tokenize } from "../text/index.js";

/** A pair of texts, `a` in the pair's first language, `b` in its second. */
export interface TextPair {
  a: string;
  b: string;
}

/**
 * The kinds of synthetic non-translations made from real pairs (the negatives the scorer learns from and is
 * measured against), the errors an extractor makes on real pages:
 * - shuffled: a side with the other side of a random pair of the same source;
 * - neighbour: with the other side of the next pair (a misalignment by one);
 * - truncated: one side cut to a part of its words (a sentence split wrongly, a half aligned to a whole);
 * - same_language: a side replaced by a sentence of the other side's language (both sides in one language);
 * - gloss: side b replaced by a word-by-word gloss of side a through the dictionary (sentences of 4+ words).
 */
export const NEGATIVE_KINDS = ["shuffled", "neighbour", "truncated", "same_language", "gloss"] as const;
export type NegativeKind = (typeof NEGATIVE_KINDS)[number];

export interface Negative extends TextPair {
  kind: NegativeKind;
}

/**
 * One negative per real pair, of the kinds in turn (so each kind is a fifth of the negatives). `pairs` are
 * in their source's order (neighbours are next to each other). Deterministic for a given `random`.
 */
export function makeNegatives(pairs: readonly TextPair[], pair: LanguagePair, lex: Lexicon, random: () => number): Negative[] {
  const out: Negative[] = [];
  if (pairs.length < 2) return out;
  const offset = Math.floor(random() * NEGATIVE_KINDS.length);
  // A "negative" that is one of the source's real pairs is a translation (a corpus pairs a sentence with
  // several translations, and a translation with several sentences): it would teach the model to reject it.
  const known = new Set(pairs.map(pairKey));
  const real = (n: Negative | null) => (n && !known.has(pairKey(n)) ? n : null);
  for (let i = 0; i < pairs.length; i++) {
    const kind = NEGATIVE_KINDS[(i + offset) % NEGATIVE_KINDS.length]!;
    const neg = real(makeOne(kind, i, pairs, pair, lex, random)) ?? real(makeOne("shuffled", i, pairs, pair, lex, random));
    if (neg) out.push(neg);
  }
  return out;
}

function makeOne(
  kind: NegativeKind,
  i: number,
  pairs: readonly TextPair[],
  pair: LanguagePair,
  lex: Lexicon,
  random: () => number,
): Negative | null {
  const p = pairs[i]!;
  switch (kind) {
    case "shuffled": {
      const q = otherPair(i, pairs, random);
      return q ? { kind, a: p.a, b: q.b } : null;
    }
    case "neighbour": {
      const q = pairs[i + 1 < pairs.length ? i + 1 : i - 1]!;
      // A neighbour with the same side a is another translation of it (a corpus lists each translation).
      return differs(p.b, q.b) && differs(p.a, q.a) ? { kind, a: p.a, b: q.b } : null;
    }
    case "truncated":
      return truncated(p, pair, random);
    case "same_language": {
      const q = otherPair(i, pairs, random);
      if (!q) return null;
      return random() < 0.5 ? { kind, a: p.a, b: q.a } : { kind, a: q.b, b: p.b };
    }
    case "gloss": {
      const b = gloss(p.a, p.b, pair, lex);
      return b && differs(b, p.b) ? { kind, a: p.a, b } : null;
    }
  }
}

function pairKey(p: TextPair): string {
  return `${comparableText(p.a)}\t${comparableText(p.b)}`;
}

function differs(x: string, y: string): boolean {
  return comparableText(x) !== comparableText(y);
}

function otherPair(i: number, pairs: readonly TextPair[], random: () => number): TextPair | null {
  for (let tries = 0; tries < 10; tries++) {
    const q = pairs[Math.floor(random() * pairs.length)]!;
    if (q !== pairs[i] && differs(q.a, pairs[i]!.a) && differs(q.b, pairs[i]!.b)) return q;
  }
  return null;
}

/**
 * One side cut to 20–60 % of its words (of its characters for a language written without spaces). A side of a
 * language written with spaces is cut between words only: "container" cut to "conta" is no text a page holds.
 */
function truncated(p: TextPair, pair: LanguagePair, random: () => number): Negative | null {
  const cutA = random() < 0.5;
  const text = cutA ? p.a : p.b;
  const spaced = !isUnspacedLang(cutA ? pair.a : pair.b);
  const units = spaced ? text.trim().split(/\s+/u) : Array.from(text.trim());
  if (units.length < 3) return null;
  const keep = Math.max(1, Math.min(units.length - 2, Math.round(units.length * (0.2 + 0.4 * random()))));
  const cut = units.slice(0, keep).join(spaced ? " " : "");
  // A term's side listing alternatives ("浅拷贝，浅复制", "destructor, dtor") cut at a separator keeps a
  // whole alternative: a translation, not a negative. (A sentence cut at a comma stays a negative: half of
  // it aligned to the whole.)
  const joiner = spaced ? " " : "";
  const atSeparator = /[\p{P}]$/u.test(cut) || /^\p{P}/u.test(units.slice(keep).join(joiner));
  const otherIsTerm = (cutA ? p.b : p.a).trim().split(/\s+/u).length < MIN_GLOSS_WORDS;
  if (atSeparator && otherIsTerm) return null;
  return cutA ? { kind: "truncated", a: cut, b: p.b } : { kind: "truncated", a: p.a, b: cut };
}

const MIN_GLOSS_WORDS = 4;

/**
 * Side a glossed word by word into b's language: each word's strongest dictionary translation, in a's word
 * order, with b's own final punctuation mark (so the gloss differs from a translation only in its words).
 */
function gloss(a: string, b: string, pair: LanguagePair, lex: Lexicon): string | null {
  // A term glossed word by word is often its translation ("abstract syntax tree"): only sentences are glossed.
  if (a.trim().split(/\s+/u).length < MIN_GLOSS_WORDS) return null;
  const words: string[] = [];
  let known = 0;
  for (const t of tokenize(a, pair.a)) {
    const tr = lex.translations(t, pair.a);
    let best = "";
    let bestW = 0;
    if (tr) for (const [w, weight] of tr) if (weight > bestW || (weight === bestW && w.length < best.length)) [best, bestW] = [w, weight];
    if (best) known++;
    words.push(best || t);
  }
  if (known === 0) return null;
  const final = /[\p{P}]$/u.exec(b.trim())?.[0] ?? "";
  return words.join(isUnspacedLang(pair.b) ? "" : " ") + final;
}
