import type { Lang } from "../language-pair.js";
import { Converter, Locale } from "opencc-js";

/** Zero-width characters and the byte-order mark: invisible, and they break words apart. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;
const WHITESPACE = /[\s\u00a0\u3000]+/gu;
/** Full-width ASCII variants (！ to ～) and the half-width katakana/hangul block. */
const WIDTH_VARIANTS = /[\uff01-\uff5e\uff61-\uffdc\uffe0-\uffe6\uffe8-\uffee]/g;

/**
 * Fold full-width ASCII (ＡＢＣ１２３，：！) to ASCII and half-width katakana to full-width, remove
 * zero-width characters, and collapse runs of whitespace (including U+3000 and NBSP) to one space, trimmed.
 * CJK punctuation without an ASCII twin (。、「」《》) is kept as is.
 */
export function normalizeText(text: string): string {
  let out = text;
  if (HAS_ZERO_WIDTH.test(out)) out = out.replace(ZERO_WIDTH, "");
  if (HAS_WIDTH_VARIANT.test(out)) out = out.replace(WIDTH_VARIANTS, (ch) => ch.normalize("NFKC"));
  if (ODD_WHITESPACE.test(out)) out = out.replace(WHITESPACE, " ");
  return out.trim();
}

/**
 * The form two texts are compared in when only their words matter: width-folded, lower-cased, without spaces,
 * punctuation and symbols (`Good morning!` = `good morning`). The corpus deduplicates on it; the pair scorer
 * tests containment on it.
 */
export function comparableText(text: string): string {
  return comparableForm(normalizeText(text));
}

/** `comparableText` of a text `normalizeText` has already normalised. */
export function comparableForm(normalized: string): string {
  return normalized.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, "");
}

/**
 * A text in the form the lexicon is indexed in: Chinese in Simplified characters (CC-CEDICT's headwords), any
 * other language unchanged. Tokenise this form when looking words up.
 */
export function lexiconForm(text: string, lang: Lang): string {
  return lang === "zh" ? toSimplified(text) : text;
}

/** Whitespace other than single spaces: the only case where collapsing changes anything. */
const ODD_WHITESPACE = /[^\S ]| {2}/u;

// Non-global twins of the patterns above for a cheap "anything to do?" test (most text has none).
const HAS_ZERO_WIDTH = new RegExp(ZERO_WIDTH.source);
const HAS_WIDTH_VARIANT = new RegExp(WIDTH_VARIANTS.source);

let t2s: ((s: string) => string) | undefined;

function traditionalToSimplified(): (s: string) => string {
  if (t2s) return t2s;
  const convert: (s: string) => string = Converter({ from: "tw", to: "cn" });
  t2s = convert;
  return convert;
}

/**
 * Runs OpenCC can change: its dictionaries' keys are Han characters only (checked in the tests), so
 * converting each run apart gives the conversion of the whole text. Ideographic description characters
 * (U+2FF0–2FFF) are kept inside runs because OpenCC reads them together with the characters they describe.
 */
const HAN_RUN = /[\p{Script=Han}\u2ff0-\u2fff]+/gu;
const HAS_HAN = /[\p{Script=Han}\u2ff0-\u2fff]/u;
const RUN_CACHE_LIMIT = 100_000;
const converted = new Map<string, string>();

function simplifyRun(run: string): string {
  if (!mayConvert(run)) return run;
  let out = converted.get(run);
  if (out === undefined) {
    out = traditionalToSimplified()(run);
    if (converted.size >= RUN_CACHE_LIMIT) converted.clear();
    converted.set(run, out);
  }
  return out;
}

/**
 * Traditional → Simplified Chinese (opencc-js, Taiwan standard → mainland), leaving other text unchanged.
 * Text with no character OpenCC could change (most Simplified text) is returned as it is; otherwise only the Han
 * runs go through OpenCC, each converted once per process (cached).
 */
export function toSimplified(text: string): string {
  if (!HAS_HAN.test(text) || !mayConvert(text)) return text;
  return text.replace(HAN_RUN, simplifyRun);
}

/** The tw→cn conversion's dictionaries, in the order OpenCC applies them (normalisation, then conversion). */
const T2S = Locale.configs.tw2s as unknown as { normalizationChain: unknown[]; conversionChain: unknown[] };

let convertible: Uint8Array | undefined;

/**
 * UTF-16 units of which every key of the conversion's dictionaries holds at least one: all one-character keys,
 * and for the longer keys made only of characters that are no key themselves (上梁 → 上樑, 一家三口), a few of their
 * characters chosen to cover them all (the one in most such keys first). A text without any of them matches no
 * key, so OpenCC returns it unchanged. Surrogates are always marked (a key may be astral; such text is rare).
 */
function convertibleUnits(): Uint8Array {
  if (convertible) return convertible;
  const dicts = [...T2S.normalizationChain, ...T2S.conversionChain].flat() as Array<string | Array<[string, string]>>;
  const keys = dicts.flatMap((d) => (typeof d === "string" ? d.split("|").map((e) => e.split(" ")[0]!) : d.map(([k]) => k)));
  const table = new Uint8Array(0x10000);
  table.fill(1, 0xd800, 0xe000);
  for (const k of keys) if (k.length === 1) table[k.charCodeAt(0)] = 1;
  let rest = keys.filter((k) => k.length > 1 && !hasMarked(k, table));
  while (rest.length > 0) {
    const count = new Map<number, number>();
    for (const k of rest) for (const u of new Set(Array.from(k, (_, i) => k.charCodeAt(i)))) count.set(u, (count.get(u) ?? 0) + 1);
    let best = -1;
    let most = 0;
    for (const [u, n] of count) if (n > most || (n === most && u > best)) [best, most] = [u, n];
    table[best] = 1;
    rest = rest.filter((k) => !hasMarked(k, table));
  }
  convertible = table;
  return table;
}

function hasMarked(text: string, table: Uint8Array): boolean {
  for (let i = 0; i < text.length; i++) if (table[text.charCodeAt(i)] === 1) return true;
  return false;
}

/** Whether OpenCC could change anything in `text` (false: it would return it unchanged). */
export function mayConvert(text: string): boolean {
  return hasMarked(text, convertibleUnits());
}

/**
 * English contractions in one pattern (an alternative matching further left wins, as the longest-first replacements
 * did); `'s` is left alone but after the words where it can only be "is" or "us" (possessive or "is" cannot be told
 * apart elsewhere).
 */
const CONTRACTION =
  /\b(won|can|shan|ain)['’]t\b|\b(let)['’]s\b|\b(it|that|there|here|what|who|he|she|where|how)['’]s\b|n['’]t\b|['’](re|ve|ll|d)\b|\b(i)['’]m\b/gi;
const NEGATED: Readonly<Record<string, string>> = { won: "will not", can: "can not", shan: "shall not", ain: "is not" };
const AUXILIARY: Readonly<Record<string, string>> = { re: " are", ve: " have", ll: " will", d: " would" };

const HAS_APOSTROPHE = /['’]/;

/** Expand English contractions ("I'm" → "I am", "don't" → "do not", "it's" → "it is"). */
export function expandContractions(text: string): string {
  if (!HAS_APOSTROPHE.test(text)) return text;
  return text.replace(CONTRACTION, (m, neg?: string, lets?: string, is?: string, aux?: string, i?: string) => {
    if (neg) return NEGATED[neg.toLowerCase()]!;
    if (lets) return `${lets} us`;
    if (is) return `${is} is`;
    if (aux) return AUXILIARY[aux.toLowerCase()]!;
    if (i) return `${i} am`;
    return m.length === 3 ? " not" : m;
  });
}
