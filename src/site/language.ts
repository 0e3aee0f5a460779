/**
 * The language of a whole page, by script (kit-ng2007 §3: "a percentage > 50% of English characters
 * signifies an English page"), made fair to scripts whose characters carry more text each.
 */
import { type Lang, type LanguagePair, langShares } from "../text/index.js";

/**
 * Latin letters one character of a script stands for, on average: an English word has ≈ 4.7 letters and a
 * Chinese word ≈ 1.5 Han characters, so one Han character ≈ 3 letters of the same text. Without this a
 * Chinese page with English product names and commands reads as "English" by raw letter counts (on the
 * nacos site every Chinese page but one would). Languages not listed count 1.
 */
export const LETTERS_PER_CHARACTER: Readonly<Record<Lang, number>> = Object.freeze({ zh: 3, ja: 2, ko: 2 });

export interface PageLanguageOptions {
  /** Overrides of `LETTERS_PER_CHARACTER`. */
  lettersPerCharacter?: Readonly<Record<Lang, number>>;
}

/** A page's language decision with the evidence behind it. */
export interface PageLanguage {
  lang: Lang | null;
  /** Share of the page's text in each language of the pair, weighted by `LETTERS_PER_CHARACTER`. */
  shares: Record<Lang, number>;
}

/**
 * The language of `text` (a page's natural-language text, code excluded): the language of the pair with the
 * larger weighted share, or null when the text has no letters of either language.
 */
export function pageLanguage(text: string, pair: LanguagePair, options: PageLanguageOptions = {}): PageLanguage {
  const raw = langShares(text, pair);
  const weights = { ...LETTERS_PER_CHARACTER, ...options.lettersPerCharacter };
  const wa = (raw[pair.a] ?? 0) * (weights[pair.a] ?? 1);
  const wb = (raw[pair.b] ?? 0) * (weights[pair.b] ?? 1);
  const total = wa + wb;
  if (total === 0) return { lang: null, shares: { [pair.a]: 0, [pair.b]: 0 } };
  const shares = { [pair.a]: wa / total, [pair.b]: wb / total };
  return { lang: wa >= wb ? pair.a : pair.b, shares };
}
