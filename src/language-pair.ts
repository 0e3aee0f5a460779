/**
 * The language-pair concept, in one place: which two languages a corpus holds (`LanguagePair`, codes
 * only) and a text written in both (`ParallelText`, e.g. a query). It lives in the core (not in
 * src/text) because the store, below the text layer, keeps parallel queries too.
 */

/** A language code: "en", "zh", "ja", "ko", … (BCP 47 primary subtag). */
export type Lang = string;

/** The two languages of a corpus. `a` is conventionally the Latin-script side. */
export interface LanguagePair {
  a: Lang;
  b: Lang;
}

/** The default pair when a file or flag says nothing else. */
export const EN_ZH: LanguagePair = Object.freeze({ a: "en", b: "zh" });

/** One side of a parallel text: what it says and in which language. */
export interface TextSide {
  lang: Lang;
  text: string;
}

/**
 * The same content in two languages, e.g. a query submitted as one string (seed §4.1: "I see. 我明白了。").
 * `source` is the pair's `a` side, `target` its `b` side. Either text may be empty where a caller allows it.
 */
export interface ParallelText {
  source: TextSide;
  target: TextSide;
}

/** A parallel text from its two sides' texts, in the languages of `pair` (English–Chinese by default). */
export function parallelText(source: string, target: string, pair: LanguagePair = EN_ZH): ParallelText {
  return { source: { lang: pair.a, text: source }, target: { lang: pair.b, text: target } };
}

/** Identity of a parallel text by its two texts (tab cannot occur inside a side). */
export function parallelTextKey(p: ParallelText): string {
  return `${p.source.text}\t${p.target.text}`;
}

/**
 * The store's columns named after English and Chinese (stores before migration 6 held en–zh pairs only, and
 * the columns keep their names so old stores migrate without loss): the ONE place that maps them to the
 * pair's source (`a`) and target (`b`) sides. Newer columns are named src_/tgt_.
 */
export const LEGACY_COLUMNS = Object.freeze({
  /** fetches and records: the query's two sides. */
  query: Object.freeze({ source: "query_en", target: "query_zh" }),
  /** sentence_pairs: the two texts. */
  text: Object.freeze({ source: "en", target: "zh" }),
  /** sentence_pairs: their normalised forms (the corpus's deduplication key). */
  norm: Object.freeze({ source: "en_norm", target: "zh_norm" }),
});
