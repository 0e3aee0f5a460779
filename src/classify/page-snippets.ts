/**
 * Result snippets of real bilingual pages, as an engine would show them for a parallel query: the page's
 * aligned units in page order, a query sentence pair taken from one unit pair, and the snippet a window of the
 * page text around it — the part of each unit from the query sentence on (60–150 characters), in page order,
 * joined by " … " when the engine skipped text between them, continued with the page text that follows when
 * that is short, and cut at 150–300 characters. Pure and seeded: the caller reads the pages.
 */
import { parallelText } from "../language-pair.js";
import { seededRandom } from "../random.js";
import { EN_ZH, segmentByLanguage } from "../text/index.js";
import type { ClassifierInput } from "./types.js";

/** A real bilingual page: its aligned units in page order. */
export interface BilingualPageUnits {
  /** Where it comes from ("xlhhai_translations/rivers"), kept in every snippet's source. */
  source: string;
  title: string;
  pairs: ReadonlyArray<{ en: string; zh: string }>;
  /** Whether the English unit of a pair comes first on the page. */
  enFirst: boolean;
}

export interface PageSnippet extends ClassifierInput {
  /** "<page source> pair <i> sentence <k>". */
  source: string;
}

const EN_SENTENCE_END = /(?<=[.!?]["”’)]?)\s+(?=["“(]?[A-Z])/;
const ZH_SENTENCE_END = /(?<=[。！？][”」』）]?)/;

/** The unit's sentences with their start offsets. */
function sentences(text: string, lang: "en" | "zh"): Array<{ text: string; start: number }> {
  const parts = text.split(lang === "en" ? EN_SENTENCE_END : ZH_SENTENCE_END).filter((s) => s.trim());
  const out: Array<{ text: string; start: number }> = [];
  let at = 0;
  for (const p of parts) {
    const start = text.indexOf(p, at);
    out.push({ text: p.trim(), start: start < 0 ? at : start });
    at = (start < 0 ? at : start) + p.length;
  }
  return out;
}

/** At most `max` characters of `text` from `start`, cut after a word for English. */
function cut(text: string, start: number, max: number, lang: "en" | "zh"): { text: string; cutShort: boolean } {
  const rest = text.slice(start);
  if (rest.length <= max) return { text: rest, cutShort: false };
  let piece = rest.slice(0, max);
  if (lang === "en") {
    const space = piece.lastIndexOf(" ");
    if (space > max / 2) piece = piece.slice(0, space);
  }
  return { text: piece.trimEnd(), cutShort: true };
}

/**
 * Snippets of a page: for each unit pair, one per sentence pair (sentence k of both units, when they have as many
 * sentences; else the first ones), at most `perPair` of them.
 */
export function pageSnippets(page: BilingualPageUnits, options: { seed?: number; perPair?: number } = {}): PageSnippet[] {
  const rand = seededRandom(options.seed ?? 20240601);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const perPair = options.perPair ?? 3;
  const units = page.pairs.flatMap((p) =>
    page.enFirst
      ? [
          { text: p.en, lang: "en" as const },
          { text: p.zh, lang: "zh" as const },
        ]
      : [
          { text: p.zh, lang: "zh" as const },
          { text: p.en, lang: "en" as const },
        ],
  );
  const out: PageSnippet[] = [];
  page.pairs.forEach((p, i) => {
    const en = sentences(p.en, "en");
    const zh = sentences(p.zh, "zh");
    const n = en.length === zh.length ? Math.min(perPair, en.length) : Math.min(1, en.length, zh.length);
    for (let k = 0; k < n; k++) {
      const at = { en: en[k]!.start, zh: zh[k]!.start };
      const first = units[2 * i]!;
      const second = units[2 * i + 1]!;
      const a = cut(first.text, at[first.lang], int(60, 150), first.lang);
      const b = cut(second.text, at[second.lang], int(60, 150), second.lang);
      // The engine skips text before a fragment that does not start its unit, and after one cut short.
      let text = `${at[first.lang] > 0 ? "... " : ""}${a.text}${a.cutShort || at[second.lang] > 0 ? " ... " : " "}${b.text}`;
      const limit = int(150, 300);
      for (let u = 2 * i + 2; !b.cutShort && text.length < limit && u < units.length; u++) text += ` ${units[u]!.text}`;
      if (text.length > limit) text = `${cut(text, 0, limit, "en").text} ...`;
      out.push({
        query: parallelText(en[k]!.text, zh[k]!.text),
        title: page.title,
        url: `page:${page.source}`,
        snippet: text,
        source: `${page.source} pair ${i + 1} sentence ${k + 1}`,
      });
    }
  });
  return out;
}

/**
 * Mismatched snippets of a page: both languages present, not translations of each other. Laid out like
 * `pageSnippets` (the page's language order, " ... " between the fragments): a fragment of one pair's first unit, then
 * a fragment of the other-language unit of the pair half the page away, continued with the units of that language
 * that follow it (the text of a page in the second language), cut at 150–300 characters. The query is the first
 * fragment's pair (the engine matched one side of it), the title the page title's part in the first fragment's
 * language (a bilingual title is itself a translation). Pages of fewer than 4 pairs give none. `shift` (default half the
 * page) is how many pairs away the second fragment is taken: 1 gives the next pair's translation, the closest text.
 */
export function mismatchedSnippets(
  page: BilingualPageUnits,
  options: { seed?: number; perPage?: number; shift?: number } = {},
): PageSnippet[] {
  const n = page.pairs.length;
  if (n < 4) return [];
  const shift = options.shift ?? Math.floor(n / 2);
  return mismatch(page, page, (i) => (i + shift) % n, options.seed ?? 20240602, options.perPage);
}

/**
 * Crossed snippets: as `mismatchedSnippets`, the second fragment taken from another page (of another source, so
 * another text): the first page's unit i beside the other page's unit at the same relative position.
 */
export function crossedSnippets(
  page: BilingualPageUnits,
  other: BilingualPageUnits,
  options: { seed?: number; perPage?: number } = {},
): PageSnippet[] {
  const n = page.pairs.length;
  const m = other.pairs.length;
  if (n === 0 || m === 0) return [];
  return mismatch(page, other, (i) => Math.floor((i * m) / n), options.seed ?? 20240603, options.perPage);
}

function mismatch(
  page: BilingualPageUnits,
  from: BilingualPageUnits,
  partner: (i: number) => number,
  seed: number,
  perPage: number | undefined,
): PageSnippet[] {
  const rand = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const n = page.pairs.length;
  const count = Math.min(n, perPage ?? n);
  const [firstLang, secondLang] = page.enFirst ? (["en", "zh"] as const) : (["zh", "en"] as const);
  const title = segmentByLanguage(page.title, EN_ZH)
    .filter((s) => s.lang === firstLang)
    .map((s) => s.text)
    .join(" ")
    .trim();
  const samePage = page === from;
  const out: PageSnippet[] = [];
  for (let c = 0; c < count; c++) {
    const i = Math.floor((c * n) / count);
    const j = partner(i);
    const own = page.pairs[i]!;
    const other = from.pairs[j]!;
    // Equal texts repeated on the page (table headers) would be a translation after all.
    if (own.en === other.en || own.zh === other.zh) continue;
    const a = cut(own[firstLang], 0, int(60, 150), firstLang);
    const b = cut(other[secondLang], 0, int(60, 150), secondLang);
    let text = `${a.text} ... ${b.text}`;
    const limit = int(150, 300);
    for (let u = j + 1; !b.cutShort && text.length < limit && u < from.pairs.length && !(samePage && u === i); u++) {
      text += ` ${from.pairs[u]![secondLang]}`;
    }
    if (text.length > limit) text = `${cut(text, 0, limit, "en").text} ...`;
    out.push({
      query: parallelText(sentences(own.en, "en")[0]?.text ?? own.en, sentences(own.zh, "zh")[0]?.text ?? own.zh),
      title,
      url: `page:${page.source}`,
      snippet: text,
      source: samePage
        ? `${page.source} mismatched pair ${i + 1} with pair ${j + 1}`
        : `${page.source} pair ${i + 1} crossed with ${from.source} pair ${j + 1}`,
    });
  }
  return out;
}
