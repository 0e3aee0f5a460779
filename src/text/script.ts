/**
 * Languages told apart by script. Any pair whose two languages are written in different scripts works
 * (en–zh first; en–ja, en–ko, en–ru, …); two languages sharing a script (en–fr) cannot be separated here.
 */
import { UserError } from "../errors.js";

import { EN_ZH, type Lang, type LanguagePair } from "../language-pair.js";

export { EN_ZH, type Lang, type LanguagePair };
export const EN_JA: LanguagePair = Object.freeze({ a: "en", b: "ja" });
export const EN_KO: LanguagePair = Object.freeze({ a: "en", b: "ko" });

/**
 * The scripts each language is written in (Unicode script property values). Han belongs to zh, ja and
 * ko alike: within one pair only one side normally uses it, and `charLang` checks `a` before `b`.
 */
const LANG_SCRIPTS: Readonly<Record<Lang, RegExp>> = {
  en: /\p{Script=Latin}/u,
  fr: /\p{Script=Latin}/u,
  de: /\p{Script=Latin}/u,
  es: /\p{Script=Latin}/u,
  pt: /\p{Script=Latin}/u,
  it: /\p{Script=Latin}/u,
  vi: /\p{Script=Latin}/u,
  id: /\p{Script=Latin}/u,
  zh: /[\p{Script=Han}\p{Script=Bopomofo}]/u,
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}\u30fc]/u,
  ko: /[\p{Script=Hangul}\p{Script=Han}]/u,
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  el: /\p{Script=Greek}/u,
  ar: /\p{Script=Arabic}/u,
  he: /\p{Script=Hebrew}/u,
  th: /\p{Script=Thai}/u,
  hi: /\p{Script=Devanagari}/u,
};

const LETTER = /[\p{L}\p{M}]/u;

/** Whether `lang` has a known script (so it can be one side of a pair). */
export function isKnownLang(lang: Lang): boolean {
  return Object.hasOwn(LANG_SCRIPTS, lang);
}

/**
 * `en-zh` → { a: "en", b: "zh" } (`EN_ZH` itself), for any two known languages of different scripts.
 * Throws a `UserError` saying what is wrong with the text (the caller adds where it came from).
 */
export function parseLanguagePair(text: string): LanguagePair {
  const m = /^([a-z]{2,3})-([a-z]{2,3})$/.exec(text.trim().toLowerCase());
  if (!m) throw new UserError(`"${text}" is not two language codes like en-zh`);
  const [, a, b] = m as unknown as [string, string, string];
  for (const l of [a, b]) if (!isKnownLang(l)) throw new UserError(`no script is known for "${l}"`);
  if (a === b) throw new UserError("the two languages must differ");
  return a === EN_ZH.a && b === EN_ZH.b ? EN_ZH : { a, b };
}

/** The languages bitext can separate by script. */
export function knownLangs(): Lang[] {
  return Object.keys(LANG_SCRIPTS);
}

/** Whether the language is written without spaces between words (word segmentation needs a dictionary). */
export function isUnspacedLang(lang: Lang): boolean {
  return lang === "zh" || lang === "ja" || lang === "th";
}

/**
 * The language of one character within `pair`, or null for neutral characters (digits, spaces,
 * punctuation, symbols) and letters of a script belonging to neither language.
 */
export function charLang(ch: string, pair: LanguagePair): Lang | null {
  if (ch.length !== 1) return scriptLang(ch, pair);
  return unitLang(ch.charCodeAt(0), pair);
}

/** `charLang` of the character of one UTF-16 unit (a BMP character), for loops that read a text unit by unit. */
export function unitLang(code: number, pair: LanguagePair): Lang | null {
  const table = bmpTable(pair);
  let v = table[code]!;
  if (v === UNKNOWN) {
    const l = scriptLang(String.fromCharCode(code), pair);
    v = l === null ? NEUTRAL : l === pair.a ? SIDE_A : SIDE_B;
    table[code] = v;
  }
  return v === NEUTRAL ? null : v === SIDE_A ? pair.a : pair.b;
}

function scriptLang(ch: string, pair: LanguagePair): Lang | null {
  if (!LETTER.test(ch)) return null;
  const ra = LANG_SCRIPTS[pair.a];
  if (ra?.test(ch)) return pair.a;
  const rb = LANG_SCRIPTS[pair.b];
  if (rb?.test(ch)) return pair.b;
  return null;
}

// The language of each BMP character, per pair, filled on first sight: the script regexes run once per
// character instead of once per occurrence (segmentation reads every character of every snippet).
const UNKNOWN = 0;
const NEUTRAL = 1;
const SIDE_A = 2;
const SIDE_B = 3;
const bmpTables = new Map<string, Uint8Array>();

let lastPair: LanguagePair | undefined;
let lastTable: Uint8Array | undefined;

function bmpTable(pair: LanguagePair): Uint8Array {
  if (pair === lastPair && lastTable) return lastTable;
  const key = `${pair.a}\u0000${pair.b}`;
  let t = bmpTables.get(key);
  if (!t) {
    t = new Uint8Array(0x10000);
    bmpTables.set(key, t);
  }
  lastPair = pair;
  lastTable = t;
  return t;
}

/**
 * Share of the letters of `text` in each language of the pair (keys `pair.a` and `pair.b`, summing to 1
 * when the text has letters of either; both 0 when it has none). Letters of other scripts are ignored.
 */
export function langShares(text: string, pair: LanguagePair): Record<Lang, number> {
  let na = 0;
  let nb = 0;
  for (const ch of text) {
    const l = charLang(ch, pair);
    if (l === pair.a) na++;
    else if (l === pair.b) nb++;
  }
  const total = na + nb;
  return { [pair.a]: total ? na / total : 0, [pair.b]: total ? nb / total : 0 };
}
