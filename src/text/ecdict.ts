/**
 * ECDICT (https://github.com/skywind3000/ECDICT, MIT), an English–Chinese dictionary of 770,000 headwords with
 * domain-tagged senses ("[计] 迭代器"), as lexicon entries: the technical and everyday words CC-CEDICT lacks
 * (CC-CEDICT is written from the Chinese side: "caller", "iterator" and "destructor" are none of its glosses).
 * Rows in, entries out; reading the CSV is the caller's.
 */
import { englishToken } from "./tokenize.js";

/** The columns of an ECDICT row this reads (the CSV has more). */
export interface EcdictRow {
  word: string;
  /** The Chinese senses: lines (written `\n` in the CSV) such as "n. 访客, 召集员\n[计] 呼叫方标识". */
  translation: string;
  /** Frequency ranks in the Collins/COCA (frq) and British National Corpus (bnc) lists; 0 or empty: not ranked. */
  frq?: string;
  bnc?: string;
}

/** A lexicon entry: an English token (as `tokenize` makes it) and a Chinese word. */
export interface EcdictEntry {
  en: string;
  zh: string;
  weight: number;
}

/** A headword the lexicon can use: one lower-case word (names and phrases are not tokens). */
const HEADWORD = /^[a-z](?:[a-z-]*[a-z])?$/u;
const PART_OF_SPEECH = /^\s*(?:(?:n|v|vt|vi|a|adj|adv|ad|prep|conj|pron|int|interj|num|art|abbr|aux|pl|suf|pref|phr|s)\.\s*)+/iu;
const DOMAIN = /^\s*\[([^\]]+)\]\s*/u;
const BRACKETED = /（[^（）]*）|\([^()]*\)|【[^【】]*】|<[^<>]*>|\[[^\]]*\]|〔[^〔〕]*〕|“[^”]*”/gu;
const SENSE_SEPARATOR = /[,，;；、]/u;
/** A translation: 1–8 Han characters (a longer one is a definition, not a word). */
const HAN_WORD = /^[\u3400-\u9fff]{1,8}$/u;
/** Senses of these domains are names of people and places, not translations of the headword. */
const NAME_DOMAINS: ReadonlySet<string> = new Set(["人名", "地名"]);
/** A sense line naming a person or a place untagged: "n. (Alert)人名；(西)阿莱尔特". */
const NAME_SENSE = /人名|地名/u;
/** The domain whose senses are kept for unranked words: computing, where CC-CEDICT is thinnest. */
const TERM_DOMAIN = "计";

/**
 * A row's translations: each sense line without its part of speech and bracketed notes, split at separators; the
 * lines that name a person or a place left out.
 */
export function ecdictTranslations(translation: string): Array<{ zh: string; domain: string }> {
  const out: Array<{ zh: string; domain: string }> = [];
  for (const raw of translation.replaceAll("\\n", "\n").split("\n")) {
    let line = raw.trim();
    const tag = DOMAIN.exec(line);
    const domain = tag?.[1] ?? "";
    if (tag) line = line.slice(tag[0].length);
    if (NAME_DOMAINS.has(domain) || NAME_SENSE.test(line)) continue;
    line = line.replace(PART_OF_SPEECH, "").replace(BRACKETED, "");
    for (const part of line.split(SENSE_SEPARATOR)) {
      const zh = part.trim().replaceAll("…", "");
      if (HAN_WORD.test(zh)) out.push({ zh, domain });
    }
  }
  return out;
}

/**
 * The entries of ECDICT rows, each English token with each of its translations once, weight 1 (a dictionary
 * translation, as a one-word CC-CEDICT gloss). Kept: one-word headwords; the senses of ranked words (frq or bnc),
 * and the computing senses of the others; never the name senses. The unranked rest (rare, mostly medical and
 * chemical words) is four times as large and slows every load of the lexicon for little.
 */
export async function ecdictEntries(rows: Iterable<EcdictRow> | AsyncIterable<EcdictRow>): Promise<EcdictEntry[]> {
  const seen = new Set<string>();
  const out: EcdictEntry[] = [];
  for await (const row of rows) {
    if (!HEADWORD.test(row.word)) continue;
    const ranked = Number(row.frq || 0) > 0 || Number(row.bnc || 0) > 0;
    const en = englishToken(row.word);
    for (const { zh, domain } of ecdictTranslations(row.translation)) {
      if (!(ranked || domain === TERM_DOMAIN)) continue;
      const key = `${en}\t${zh}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ en, zh, weight: 1 });
    }
  }
  return out;
}
