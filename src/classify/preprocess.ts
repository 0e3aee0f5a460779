/**
 * Snippet preprocessing (feng2010 §5): markup and highlight tags out, widths and spaces normalised,
 * Traditional → Simplified, English contractions expanded, noise (ellipses, dates, URLs, site names) dropped.
 */
import { decodeHTML } from "entities";
import { EN_ZH, expandContractions, langShares, normalizeText, toSimplified } from "../text/index.js";

const TAG = /<\/?[a-zA-Z][^<>]*>/g;

const HIGHLIGHT_TAG = /<\/?(?:em|b|strong|i|mark|font|span)(?:\s[^<>]*)?>/gi;

/**
 * For display: remove only the tags engines wrap around matches (`<em>`, `<b>`, `<strong>`, `<span>`, …)
 * and decode entities. Anything else that looks like markup is text of the snippet and stays visible.
 */
export function stripHighlights(text: string): string {
  return decodeHTML(text.replace(HIGHLIGHT_TAG, ""));
}

/** For features: remove every HTML tag (`<em>` highlights, `<b>`, `<br>`) and decode entities. */
export function stripMarkup(text: string): string {
  const untagged = text.includes("<") ? text.replace(TAG, "") : text;
  return untagged.includes("&") ? decodeHTML(untagged) : untagged;
}

const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
/** Dates and relative times as engines print them before snippets, with a separator that may follow. */
const DATES: readonly RegExp[] = [
  /\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?/g,
  /\d{1,2}\s*月\s*\d{1,2}\s*日/g,
  /\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b/g,
  /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g,
  new RegExp(`\\b${MONTH}\\s+\\d{1,2},?\\s+\\d{4}\\b`, "gi"),
  new RegExp(`\\b\\d{1,2}\\s+${MONTH}\\s+\\d{4}\\b`, "gi"),
  /\b\d+\s+(?:seconds?|minutes?|mins?|hours?|days?|weeks?|months?|years?)\s+ago\b/gi,
  /\d+\s*(?:秒|分钟|小时|天|周|个月|年)前/g,
];
/** The separator engines print after a leading date ("2018年4月25日 - …", "Mar 3, 2020 · …"). */
const DATE_SEPARATOR = "(?:\\s*[-–—·|:])?";
const DATES_WITH_SEPARATOR = DATES.map((re) => new RegExp(re.source + DATE_SEPARATOR, re.flags));

const URL = /\bhttps?:\/\/\S+|\bwww\.\S+/gi;
const DOMAIN =
  /\b[a-z0-9][\w-]*(?:\.[\w-]+)*\.(?:com|net|org|edu|gov|info|biz|io|co|cn|tw|hk|jp|kr|uk|de|fr|ru|us|ca|au|me|tv|cc)(?:\/[^\s]*)?\b/gi;
const ELLIPSIS = /\.{3,}|…+|·{3,}|。{3,}/g;
/** A trailing " - Site name", " | Site", "_百度文库" on a title: short, after a separator. */
const SITE_SUFFIX = /\s*(?:\s[-–—|]\s|_|\s·\s)[^-–—|_·]{1,30}$/u;

function dropDates(text: string): string {
  let out = text;
  for (const re of DATES_WITH_SEPARATOR) out = out.replace(re, " ");
  return out;
}

/** Remove the noise that says nothing about bilinguality: ellipses, dates, URLs and domain names. */
export function removeNoise(text: string): string {
  // Each pattern needs a character most snippets lack (a dot, a digit, …): test for it before scanning.
  let out = text;
  if (MAY_HAVE_URL.test(out)) out = out.replace(URL, " ");
  if (out.includes(".")) out = out.replace(DOMAIN, " ");
  if (HAS_DIGIT.test(out)) out = dropDates(out);
  if (MAY_HAVE_ELLIPSIS.test(out)) out = out.replace(ELLIPSIS, " ");
  return out;
}

const MAY_HAVE_URL = /https?:\/\/|www\./i;
const HAS_DIGIT = /\d/;
const MAY_HAVE_ELLIPSIS = new RegExp(ELLIPSIS.source);

/** The language of most letters of a text, en–zh. */
function mainLang(text: string): "en" | "zh" | null {
  const s = langShares(text, EN_ZH);
  if ((s.en ?? 0) === 0 && (s.zh ?? 0) === 0) return null;
  return (s.en ?? 0) >= (s.zh ?? 0) ? "en" : "zh";
}

/**
 * Drop a trailing site name from a title ("Title - Wikipedia", "标题_百度文库"), when something is left.
 * A suffix of several words in the other language is the title's translation ("我不干了 - I quit"), not a
 * site name, and stays.
 */
export function dropSiteName(title: string): string {
  const m = SITE_SUFFIX.exec(title);
  if (!m) return title;
  const stripped = title.slice(0, m.index);
  if (stripped.trim().length < 2) return title;
  const suffix = m[0].replace(/^\s*(?:[-–—|_·]\s*)?/, "");
  const suffixLang = mainLang(suffix);
  const translated = suffixLang !== null && suffixLang !== mainLang(stripped) && suffix.trim().split(/\s+/).length > 1;
  return translated ? title : stripped;
}

/** Any text of a record, ready for segmentation and tokenisation. */
export function cleanText(text: string): string {
  return normalizeText(expandContractions(toSimplified(removeNoise(normalizeText(stripMarkup(text))))));
}

/**
 * What of a record's title and snippet is read. Engines' snippets stay under ~1,500 characters and titles under a few
 * hundred; text past these bounds is not a snippet (a whole page, or hostile input) and would only cost time.
 */
export const MAX_TITLE_CHARS = 1_000;
export const MAX_SNIPPET_CHARS = 5_000;

/** A record's title and snippet, cleaned; `text` is both, title first, as one string for segmentation. */
export function prepareRecordText(record: { title: string; snippet: string }): {
  title: string;
  snippet: string;
  text: string;
} {
  const title = cleanText(dropSiteName(normalizeText(stripMarkup(record.title.slice(0, MAX_TITLE_CHARS)))));
  const snippet = cleanText(record.snippet.slice(0, MAX_SNIPPET_CHARS));
  return { title, snippet, text: title && snippet ? `${title} \n ${snippet}` : title || snippet };
}
