import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { stemmer } from "stemmer";
import { resourcePath } from "../paths.js";
import { cedictWords } from "./cedict.js";
import { expandContractions } from "./normalize.js";
import type { Lang } from "./script.js";

const require = createRequire(import.meta.url);

interface Jieba {
  cut(sentence: string, hmm?: boolean): string[];
}
let jieba: Jieba | undefined;

/** nodejieba loads its dictionaries on the first cut (about 1.5 s): load it only when Chinese is tokenised. */
function getJieba(): Jieba {
  jieba ??= require("nodejieba") as Jieba;
  return jieba;
}

/**
 * The pieces of text that are words, in any of the languages tokenised by pattern: Han runs, abbreviations
 * ("U.S."), letter words (with inner apostrophes), numbers (with inner . or ,). A letter word stops where Han
 * begins (`[^\P{L}\p{Script=Han}]`: a letter that is not Han): "Unicode名称" is two words, not one.
 */
const PIECES =
  /\p{Script=Han}+|\p{Script=Latin}(?:\.\p{Script=Latin})+\.?|(?:[^\P{L}\p{Script=Han}]|\p{M})+(?:['’](?:[^\P{L}\p{Script=Han}]|\p{M})+)*|\p{N}+(?:[.,]\p{N}+)*/gu;
const HAN = /^\p{Script=Han}/u;
const LATIN = /^\p{Script=Latin}/u;
const POSSESSIVE = /['’]s$/u;

/** Latin-script languages other than English: lower-cased, not stemmed (the Porter stemmer is English). */
const LATIN_LANGS = new Set(["fr", "de", "es", "pt", "it", "vi", "id"]);

const ABBREVIATION = /^\p{L}(?:\.\p{L})+\.?$/u;

let lemmas: ReadonlyMap<string, string> | undefined;

/** Irregular English forms → lemma (`models/lemmas-en.tsv`): "was" → "be", "went" → "go", "men" → "man". */
function englishLemmas(): ReadonlyMap<string, string> {
  if (lemmas) return lemmas;
  const map = new Map<string, string>();
  let text = "";
  try {
    text = readFileSync(resourcePath("models", "lemmas-en.tsv"), "utf8");
  } catch {
    // Without the table, irregular forms are only stemmed.
  }
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [form, lemma] = line.split("\t");
    if (form && lemma) map.set(form.trim(), lemma.trim());
  }
  lemmas = map;
  return map;
}

/**
 * An English word as a token: lower-cased, possessive dropped, irregular forms lemmatised ("was" → "be"),
 * then Porter-stemmed ("studies" → "studi"); abbreviations keep their dots ("U.S." → "u.s.").
 */
export function englishToken(word: string): string {
  let token = englishTokens.get(word);
  if (token === undefined) {
    token = computeEnglishToken(word);
    if (englishTokens.size >= TOKEN_CACHE_LIMIT) englishTokens.clear();
    englishTokens.set(word, token);
  }
  return token;
}

/** Words seen → their tokens: stemming and lemma lookups run once per distinct word. */
const englishTokens = new Map<string, string>();
const TOKEN_CACHE_LIMIT = 200_000;

function computeEnglishToken(word: string): string {
  const lower = word.toLowerCase();
  if (ABBREVIATION.test(lower)) return lower.endsWith(".") ? lower : `${lower}.`;
  const bare = lower.replace(POSSESSIVE, "");
  return stemmer(englishLemmas().get(bare) ?? bare);
}

/**
 * Words of `text` in language `lang`, punctuation and spaces dropped:
 * - zh: nodejieba words for Han runs; Latin words inside Chinese text become English tokens (so "iPhone"
 *   matches on both sides), numbers stay as written;
 * - en: contractions expanded, lower-cased, irregular forms lemmatised, Porter stems ("studies" → "studi");
 * - other Latin-script languages: lower-cased words;
 * - anything else (ja, ko, th, …): ICU word segmentation (Intl.Segmenter), lower-cased.
 * Stop words are kept: filter them with `isStopWord` when they should not count.
 */
export function tokenize(text: string, lang: Lang, segmenter: ChineseSegmenter = "jieba"): string[] {
  if (lang === "zh") return tokenizeChinese(text, segmenter);
  if (lang === "en") {
    const out: string[] = [];
    for (const m of expandContractions(text).matchAll(PIECES)) out.push(englishToken(m[0]));
    return out;
  }
  if (LATIN_LANGS.has(lang)) return Array.from(text.matchAll(PIECES), (m) => m[0].toLowerCase());
  return tokenizeWithIcu(text, lang);
}

function tokenizeChinese(text: string, segmenter: ChineseSegmenter): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PIECES)) {
    const piece = m[0];
    if (HAN.test(piece)) {
      if (piece.length === 1) out.push(piece);
      else if (segmenter === "cedict") out.push(...cedictWords(piece));
      else for (const w of jiebaWords(piece)) out.push(w);
    } else if (LATIN.test(piece)) out.push(englishToken(piece));
    else out.push(piece.toLowerCase());
  }
  return out;
}

/**
 * How Han runs are cut into words: "jieba" (nodejieba's words, whose dictionaries cost about a second of CPU
 * to load per process) or "cedict" (CC-CEDICT's headwords, fewest words first: `cedictWords`; for callers that
 * look the words up in the lexicon anyway, so the one CC-CEDICT load serves both).
 */
export type ChineseSegmenter = "jieba" | "cedict";

/** Han runs seen → jieba's words (short runs recur: names, set phrases, the query itself). */
const jiebaCache = new Map<string, readonly string[]>();

function jiebaWords(run: string): readonly string[] {
  let words = jiebaCache.get(run);
  if (!words) {
    words = getJieba().cut(run);
    if (jiebaCache.size >= TOKEN_CACHE_LIMIT) jiebaCache.clear();
    jiebaCache.set(run, words);
  }
  return words;
}

const segmenters = new Map<Lang, Intl.Segmenter>();

function tokenizeWithIcu(text: string, lang: Lang): string[] {
  let seg = segmenters.get(lang);
  if (!seg) {
    seg = new Intl.Segmenter(lang, { granularity: "word" });
    segmenters.set(lang, seg);
  }
  const out: string[] = [];
  for (const s of seg.segment(text)) {
    if (!s.isWordLike) continue;
    out.push(LATIN.test(s.segment) ? englishToken(s.segment) : s.segment.toLowerCase());
  }
  return out;
}

const stopWords = new Map<Lang, ReadonlySet<string>>();
let lastStopLang: Lang | undefined;
let lastStopSet: ReadonlySet<string> = new Set();

/** The stop words of a language from `models/stopwords-<lang>.txt` (empty when there is no list). */
function stopWordSet(lang: Lang): ReadonlySet<string> {
  let set = stopWords.get(lang);
  if (set) return set;
  const words = new Set<string>();
  let text = "";
  try {
    text = readFileSync(resourcePath("models", `stopwords-${lang}.txt`), "utf8");
  } catch {
    // No list for this language: nothing is a stop word.
  }
  for (const raw of text.split("\n")) {
    const w = raw.trim();
    if (!w || w.startsWith("#")) continue;
    words.add(w);
    // English tokens are stems, so the stem of each stop word is a stop word too ("this" → "thi").
    if (lang === "en") words.add(englishToken(w));
  }
  set = words;
  stopWords.set(lang, set);
  return set;
}

/**
 * Whether a token (as returned by `tokenize`) is a function word of `lang` that carries no translation
 * evidence. Latin tokens inside Chinese/Japanese/Korean text are checked against the English list.
 */
export function isStopWord(token: string, lang: Lang): boolean {
  // The last language asked for, kept at hand: the pair scorer asks for every word of every side.
  if (lang !== lastStopLang) {
    lastStopLang = lang;
    lastStopSet = stopWordSet(lang);
  }
  if (lastStopSet.has(token)) return true;
  // U+3000–U+9FFF (CJK punctuation, kana, Han) holds no Latin letter: most tokens of Chinese skip the pattern.
  const first = token.charCodeAt(0);
  if (first >= 0x3000 && first < 0xa000) return false;
  return lang !== "en" && !LATIN_LANGS.has(lang) && LATIN.test(token) && stopWordSet("en").has(token);
}

/** `tokenize` without stop words. */
export function contentTokens(text: string, lang: Lang, segmenter: ChineseSegmenter = "jieba"): string[] {
  return tokenize(text, lang, segmenter).filter((t) => !isStopWord(t, lang));
}
