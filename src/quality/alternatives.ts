import { isUnspacedLang, type Lang } from "../text/index.js";

/**
 * A glossary lists a term's translations side by side: "argument" / 参数，实参，实际参数, "destructor, dtor" /
 * 析构函数. Such a side translates the other when one of its alternatives does, so the scorer reads the pair as
 * its best alternative (`pairFeatures`). A side is a list of alternatives when it splits at list separators
 * into two or more term-sized parts, opposite a single term-sized side, and neither side ends a sentence (a
 * sentence with a comma is not a list).
 */

/** What separates alternatives in a glossary's cell. */
const LIST_SEPARATOR = /[,，、;；/|]/u;
const SENTENCE_MARK = /[.?!。？！．…]\s*$/u;
/** A term: at most this many words (a language written with spaces) or letters (one written without). */
const MAX_TERM_WORDS = 4;
const MAX_TERM_LETTERS = 12;
const LETTER = /\p{L}/u;

/** The alternatives `text` lists (each trimmed, those without a letter dropped), or null when it is not a list of terms opposite `other`. */
export function termAlternatives(text: string, lang: Lang, other: string, otherLang: Lang): string[] | null {
  if (!LIST_SEPARATOR.test(text) || LIST_SEPARATOR.test(other)) return null;
  if (SENTENCE_MARK.test(text) || SENTENCE_MARK.test(other) || !isTerm(other, otherLang)) return null;
  const parts = text
    .split(LIST_SEPARATOR)
    .map((p) => p.trim())
    .filter((p) => LETTER.test(p));
  if (parts.length < 2 || !parts.every((p) => isTerm(p, lang))) return null;
  return parts;
}

function isTerm(text: string, lang: Lang): boolean {
  if (isUnspacedLang(lang)) {
    let letters = 0;
    for (const ch of text) if (LETTER.test(ch) && ch.charCodeAt(0) > 0x2e7f) letters++;
    return letters <= MAX_TERM_LETTERS;
  }
  return text.split(/\s+/u).filter(Boolean).length <= MAX_TERM_WORDS;
}
