import type { Lang, LanguagePair } from "../language-pair.js";
import { charLang, comparableForm, isUnspacedLang, lexiconForm, normalizeText, unitLang } from "../text/index.js";

/**
 * What the rules and the features read of one side of a pair, computed once: the text normalised (width
 * folded, in the lexicon's form), its comparable key, its length, its letters by language, its numbers,
 * URLs and e-mail addresses, and its punctuation by class.
 */
export interface Side {
  lang: Lang;
  text: string;
  key: string;
  /** Characters other than spaces. */
  length: number;
  /** Letters of this side's language, of the other language of the pair, of neither. */
  ownLetters: number;
  otherLetters: number;
  /** Words written in the other language's script (runs of its letters). */
  otherWords: number;
  /** The numbers written in digits, as values (`numbersOf`). */
  numbers: string[];
  /** Those the other side may write in words or leave out: a clock time's minutes ("3:30" = 3点半, "4:00" = 4点). */
  optionalNumbers: string[];
  urls: string[];
  emails: string[];
  /** Counts per punctuation class (PUNCT_CLASSES order). */
  punct: number[];
  /** The class of the final punctuation mark (-1: none). */
  final: number;
  /** The last character other than a space is a letter or a digit (no mark ends the side). */
  endsInWord: boolean;
}

/** Punctuation classes that carry over in a translation, whatever the script (full-width forms folded first). */
const PUNCT_CLASSES: readonly RegExp[] = [/[.。．]/u, /[?？]/u, /[!！]/u, /[,，、]/u, /[:：]/u, /[;；]/u, /["“”「」『』«»]/u, /[(（)）]/u];
const URL = /\b(?:https?:\/\/|www\.)[^\s<>"'，。]+/giu;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu;
const HAS_DIGIT = /\p{Nd}/u;
const DECIMAL = /^\p{Nd}+\.\p{Nd}+$/u;
/**
 * Numbers in digits; a clock time is one match, its hour and minutes in groups 1 and 2. A comma joins groups of three
 * digits ("10,000"); before other digits it separates two numbers ("1925,10" = 1925 and 10).
 */
const NUMBER_OR_TIME = /(\p{Nd}{1,2}):(\p{Nd}{2})(?![\p{Nd}:])|\p{Nd}+(?:,\p{Nd}{3}(?!\p{Nd})|\.\p{Nd}+)*/gu;
/**
 * Languages that count large numbers in myriads, written after the digits: "1万" is 10,000 ("10,000 yen" /
 * 1万日元), "2.5亿" 250,000,000. In the lexicon's form of the text (Chinese in Simplified).
 */
const MYRIADS: Readonly<Record<Lang, Readonly<Record<string, number>>>> = {
  zh: { 万: 1e4, 亿: 1e8 },
  ja: { 万: 1e4, 億: 1e8 },
};
const SPACE = /\s/u;
/** A character's punctuation class (-1: none): a BMP character's from the unit table, found once per character. */
function punctClass(ch: string): number {
  return ch.length === 1 ? punctClassOfUnit(ch.charCodeAt(0)) : PUNCT_CLASSES.findIndex((re) => re.test(ch));
}

/** A text's last character ("" for an empty text). */
function lastCharacter(text: string): string {
  // A surrogate pair's second half: the character is the last two units.
  return isLowSurrogate(text.charCodeAt(text.length - 1)) && text.length > 1 ? text.slice(-2) : text.slice(-1);
}

/** The punctuation class of a text's last character (-1: none, or an empty text). */
function punctClassOfLast(text: string): number {
  return text.length === 0 ? -1 : punctClass(lastCharacter(text));
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Per UTF-16 unit up to U+3000 (the last space character of the BMP): 1 a space, 2 not, 0 not yet known. */
const spaceUnits = new Uint8Array(0x3001);

/** A space, or a control character (U+0000–U+0020 all count: a tab, a stray control code). */
function isSpaceUnit(code: number): boolean {
  if (code <= 0x20) return true;
  if (code > 0x3000) return false;
  let v = spaceUnits[code]!;
  if (v === 0) {
    v = SPACE.test(String.fromCharCode(code)) ? 1 : 2;
    spaceUnits[code] = v;
  }
  return v === 1;
}

/** Per UTF-16 unit, its punctuation class + 2 (1: none; 0: not yet known). */
const punctUnits = new Uint8Array(0x10000);

function punctClassOfUnit(code: number): number {
  let v = punctUnits[code]!;
  if (v === 0) {
    const ch = String.fromCharCode(code);
    v = PUNCT_CLASSES.findIndex((re) => re.test(ch)) + 2;
    punctUnits[code] = v;
  }
  return v - 2;
}

export function readSide(raw: string, lang: Lang, pair: LanguagePair): Side {
  const text = lexiconForm(normalizeText(raw), lang);
  const other = lang === pair.a ? pair.b : pair.a;
  const hasLink = text.includes("@") || text.includes("www.") || text.includes("://");
  const urls = !hasLink ? [] : [...text.matchAll(URL)].map((m) => m[0].replace(/[.,;:!?)]+$/u, "").toLowerCase());
  const emails = !hasLink ? [] : [...text.matchAll(EMAIL)].map((m) => m[0].toLowerCase());
  // Numbers outside URLs and addresses, as values (`numbersOf`).
  const bare = !hasLink ? text : text.replace(URL, " ").replace(EMAIL, " ");
  const { numbers, optionalNumbers } = !HAS_DIGIT.test(bare) ? { numbers: [], optionalNumbers: [] } : numbersOf(bare, lang);
  let length = 0;
  let ownLetters = 0;
  let otherLetters = 0;
  let otherWords = 0;
  let inOther = false;
  const punct = new Array<number>(PUNCT_CLASSES.length).fill(0);
  // Character by character as `for…of` reads them, by UTF-16 unit where a unit is the character (no string made).
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const astral = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1));
    const ch = astral ? text.slice(i, i + 2) : "";
    if (astral) i++;
    else if (isSpaceUnit(code)) {
      inOther = false;
      continue;
    }
    length++;
    const l = astral ? charLang(ch, pair) : unitLang(code, pair);
    if (l === lang) ownLetters++;
    else if (l === other) {
      otherLetters++;
      if (!inOther) otherWords++;
    }
    inOther = l === other;
    if (l === null) {
      const c = astral ? punctClass(ch) : punctClassOfUnit(code);
      if (c >= 0) punct[c]!++;
    }
  }
  const trimmed = text.trimEnd();
  const final = punctClassOfLast(trimmed);
  const endsInWord = WORD_CHAR.test(lastCharacter(trimmed));
  return {
    lang,
    text,
    key: comparableForm(text),
    length,
    ownLetters,
    otherLetters,
    otherWords,
    numbers,
    optionalNumbers,
    urls,
    emails,
    punct,
    final,
    endsInWord,
  };
}

/**
 * The numbers a side writes in digits, as values to compare across languages: thousands separators dropped ("1,000"
 * = "1000"), a fraction's trailing zeros dropped ("$3.00" = 3美元), a number followed by a myriad multiplied out
 * ("1万" = "10000"); a clock time gives its hour and its minutes, the minutes optional (often words or nothing on the
 * other side: "3:30" = 3点半, "4:00 p.m." = 下午4点, "7:45" = 7点45分).
 */
function numbersOf(text: string, lang: Lang): { numbers: string[]; optionalNumbers: string[] } {
  const myriads = MYRIADS[lang];
  const numbers: string[] = [];
  const optionalNumbers: string[] = [];
  for (const m of text.matchAll(NUMBER_OR_TIME)) {
    if (m[1] !== undefined) {
      numbers.push(m[1], m[2]!);
      optionalNumbers.push(m[2]!);
      continue;
    }
    let n = m[0].replace(/,(?=\d{3}\b)/gu, "");
    if (DECIMAL.test(n)) n = n.replace(/\.?0+$/u, "");
    const times = myriads?.[text.charAt(m.index + m[0].length)];
    // Rounded to the unit: 1.1 × 10,000 is 11000.000000000002 in floating point.
    const value = times === undefined ? Number.NaN : Math.round(Number(n) * times);
    numbers.push(Number.isSafeInteger(value) ? String(value) : n);
  }
  if (lang === "en") englishDateNumbers(text, numbers, optionalNumbers);
  return { numbers, optionalNumbers };
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** A month's name next to a number in digits ("October 20", "20 October", "May 2019"): the other side may write the month as a number. */
const MONTH_BY_NUMBER = new RegExp(`\\b(${MONTH_NAMES.join("|")})(?=\\s+\\p{Nd})|(?<=\\p{Nd}\\s+)(${MONTH_NAMES.join("|")})\\b`, "gu");
/** An hour of the afternoon or evening ("11 p.m.", "3:30 pm"): the other side may count it from 0 to 23 (23点). */
const AFTERNOON_HOUR = /(?<!\p{Nd})(\p{Nd}{1,2})(?::\p{Nd}{2})?\s*p\.?\s?m\b/giu;

/**
 * English dates and hours other languages write with other numbers: a month named beside a number adds its number
 * ("October 20" = 10月20日), an hour "p.m." adds its value on a 24-hour clock ("11 p.m." = 23点); both may be missing on the
 * other side (optional), as may the 12-hour value.
 */
function englishDateNumbers(text: string, numbers: string[], optionalNumbers: string[]): void {
  for (const m of text.matchAll(MONTH_BY_NUMBER)) {
    const month = String(MONTH_NAMES.indexOf((m[1] ?? m[2])!) + 1);
    numbers.push(month);
    optionalNumbers.push(month);
  }
  for (const m of text.matchAll(AFTERNOON_HOUR)) {
    const hour = Number(m[1]);
    if (hour < 1 || hour > 11) continue;
    numbers.push(String(hour + 12));
    optionalNumbers.push(m[1]!.replace(/^0/u, ""), String(hour + 12));
  }
}

/**
 * Units of text in a side's own language, comparable across scripts: characters for a language written
 * without spaces (one Han character is about one word), words otherwise (about five letters each).
 */
export function ownUnits(side: Side): number {
  return isUnspacedLang(side.lang) ? side.ownLetters : side.ownLetters / 5;
}

/** log of the length ratio a : b, smoothed so that short sides do not swing it. */
export function logLengthRatio(a: Side, b: Side): number {
  return Math.log((a.length + 5) / (b.length + 5));
}
