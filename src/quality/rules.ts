import { isUnspacedLang } from "../text/index.js";
import { boilerplateOf, isBoilerplate } from "./boilerplate.js";
import { numberWords } from "./number-words.js";
import { logLengthRatio, ownUnits, type Side } from "./sides.js";

/**
 * The hard rules: each names a reason a pair is not a translation, whatever the learned score says.
 * - empty_side: a side with fewer than two letters or digits (one is a word in a language written without
 *   spaces: 堆 "heap"), or none;
 * - wrong_language: a side without letters of its language, or with more words of the other language than
 *   units of its own (an English sentence in the Chinese column, a Chinese page title in the English one);
 * - length_ratio: the length ratio outside the range of real pairs of the language pair (from the model);
 * - number_mismatch / url_mismatch / email_mismatch: numbers written in digits on both sides that disagree
 *   (`numbersDisagree`), URLs or e-mail addresses that are not the same on both sides;
 * - contained: one side's words inside the other's (a label repeated, a side copied);
 * - boilerplate: a side that is only a navigation label, a copyright line, "read more", a date.
 */
export const RULES = [
  "empty_side",
  "wrong_language",
  "length_ratio",
  "number_mismatch",
  "url_mismatch",
  "email_mismatch",
  "contained",
  "boilerplate",
] as const;
export type RuleName = (typeof RULES)[number];

/** The reason given when only the learned score is below the threshold. */
export const LOW_SCORE = "low_score";
export type Reason = RuleName | typeof LOW_SCORE;

/** The range of log(length a / length b) (see `logLengthRatio`) outside which a pair is rejected. */
export interface LengthRange {
  lo: number;
  hi: number;
}

export function ruleReasons(a: Side, b: Side, range: LengthRange): RuleName[] {
  const out: RuleName[] = [];
  if (tooShort(a) || tooShort(b) || isBlank(a) || isBlank(b)) out.push("empty_side");
  else if (wrongLanguage(a) || wrongLanguage(b)) out.push("wrong_language");
  const r = logLengthRatio(a, b);
  if (r < range.lo || r > range.hi) out.push("length_ratio");
  if (numbersDisagree(a, b)) out.push("number_mismatch");
  if (!sameSet(a.urls, b.urls)) out.push("url_mismatch");
  if (!sameSet(a.emails, b.emails)) out.push("email_mismatch");
  if (a.key.length >= 2 && b.key.length >= 2 && (a.key.includes(b.key) || b.key.includes(a.key))) out.push("contained");
  if (isBoilerplate(a.text, a.key, boilerplateOf(a.lang)) || isBoilerplate(b.text, b.key, boilerplateOf(b.lang))) out.push("boilerplate");
  return out;
}

/**
 * Shorter than a word: one letter or digit ("A", "7") — except one letter of a language written without spaces,
 * whose words are often one character (位 "bit", 堆 "heap", 注 "note": a glossary's terms).
 */
function tooShort(s: Side): boolean {
  return s.key.length < 2 && !(isUnspacedLang(s.lang) && s.ownLetters > 0);
}

/** Neither letters nor numbers. */
function isBlank(s: Side): boolean {
  return s.ownLetters + s.otherLetters + s.numbers.length === 0;
}

/**
 * Numbers disagree when both sides write some in digits and they share none, or a number of two digits or more
 * is on one side only (a single digit may be a month or a count written in words on the other side: "July 28" =
 * "7月28日", "2 years" = "二年"; so may a clock time's minutes: "3:30" = "3点半").
 */
function numbersDisagree(a: Side, b: Side): boolean {
  if (a.numbers.length === 0 || b.numbers.length === 0) return false;
  const sa = new Set(a.numbers);
  const sb = new Set(b.numbers);
  if (![...sa].some((n) => sb.has(n))) return true;
  return onOneSideOnly(a, sa, b, sb) || onOneSideOnly(b, sb, a, sa);
}

/**
 * A number of two digits or more of `own`, not optional, that `other` lacks in digits and in words (a side writing
 * some numbers in digits may write others in words: "the ten digits 0, 1, …, 9" = "0、1、…、9共10个").
 */
function onOneSideOnly(own: Side, ownNumbers: ReadonlySet<string>, other: Side, otherNumbers: ReadonlySet<string>): boolean {
  let inWords: ReadonlySet<string> | undefined;
  for (const n of ownNumbers) {
    if (n.length < 2 || otherNumbers.has(n) || own.optionalNumbers.includes(n)) continue;
    inWords ??= new Set(numberWords(other.text, other.lang));
    if (!inWords.has(n)) return true;
  }
  return false;
}

function wrongLanguage(s: Side): boolean {
  return s.ownLetters === 0 || s.otherWords > Math.max(1, ownUnits(s));
}

function sameSet(x: readonly string[], y: readonly string[]): boolean {
  if (x.length === 0 && y.length === 0) return true;
  const sx = new Set(x);
  const sy = new Set(y);
  if (sx.size !== sy.size) return false;
  for (const v of sx) if (!sy.has(v)) return false;
  return true;
}
