import { readFileSync } from "node:fs";
import { inputError, UserError } from "../errors.js";
import { listResources } from "../config/index.js";
import { CEDICT_SENSE_SEPARATOR as SEP, loadCedict } from "./cedict.js";
import { toSimplified } from "./normalize.js";
import { EN_ZH, type Lang, type LanguagePair } from "./script.js";
import { englishToken, isStopWord, tokenize } from "./tokenize.js";

/**
 * A bilingual lexicon: for a word (a token as `tokenize` returns it: Chinese words, English Porter stems),
 * its translations in the other language of the pair with a weight in (0, 1] (1 = a one-word gloss or a
 * confident learned equivalent). Undefined when the word is unknown.
 */
export interface Lexicon {
  readonly pair: LanguagePair;
  translations(word: string, from: Lang): ReadonlyMap<string, number> | undefined;
  /** Where the entries come from: "cc-cedict" and the learned lexicon files. */
  readonly sources: readonly string[];
}

/** Header line every learned lexicon file starts with. */
export const LEXICON_FILE_MAGIC = "# bitext-lexicon 1";

/** A learned lexicon file (`models/lexicon-*.tsv`), parsed. */
export interface LexiconFile {
  path: string;
  /** The two languages of the columns, in column order. */
  languages: [Lang, Lang];
  /** `# key: value` header lines (source, licence, method, …). */
  header: Record<string, string>;
  entries: Array<{ a: string; b: string; weight: number }>;
}

// ---------------------------------------------------------------------------------------------------------
// CC-CEDICT (cedict.ts) as translations.

const cedictZhEn = new Map<string, ReadonlyMap<string, number> | null>();
let cedictEnZh: Map<string, Map<string, number>> | undefined;

/** Glosses that are cross-references or metadata, not translations. */
const NOT_A_TRANSLATION =
  /^(?:(?:old |archaic |ancient )?variant of|see |see also |CL:|surname |used in |abbr\. |also written|erhua variant|Japanese variant|\(?Taiwan pr\.)/i;
/** Words that only mark a gloss's part of speech ("to understand", "sth", "sb"). */
const GLOSS_FILLER = new Set(["to", "sth", "sb", "one", "a", "an", "the", "of"]);
const PARENTHESES = /\([^()]*\)|\[[^\]]*\]|\S*\|\S*/g;

/**
 * English tokens of each gloss of an entry, weighted 1 / (content words in the gloss): a one-word gloss
 * ("to understand") is a full translation, a phrase spreads its weight over its words. Max over glosses.
 */
function glossTranslations(senses: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const sense of senses.split(SEP)) {
    for (const gloss of sense.split(";")) {
      const g = gloss.trim();
      if (!g || NOT_A_TRANSLATION.test(g)) continue;
      const words = tokenize(g.replace(PARENTHESES, " "), "en");
      // Function words do not count, unless they are the whole gloss (我: "I; me; my").
      let content = words.filter((t) => !isStopWord(t, "en"));
      if (content.length === 0) content = words.filter((t) => !GLOSS_FILLER.has(t));
      if (content.length === 0) continue;
      const w = 1 / content.length;
      for (const t of content) if ((out.get(t) ?? 0) < w) out.set(t, w);
    }
  }
  return out;
}

function cedictZhToEn(word: string): ReadonlyMap<string, number> | undefined {
  const cached = cedictZhEn.get(word);
  if (cached !== undefined) return cached ?? undefined;
  const senses = loadCedict().glosses.get(word);
  const map = senses ? glossTranslations(senses) : undefined;
  const result = map && map.size > 0 ? map : null;
  cedictZhEn.set(word, result);
  return result ?? undefined;
}

/** The reverse index (English token → Chinese words), built on first use from every entry. */
function cedictEnToZh(token: string): ReadonlyMap<string, number> | undefined {
  return cedictReverse().get(token);
}

/** The English tokens CC-CEDICT's glosses hold. */
function cedictEnglishWords(): Iterable<string> {
  return cedictReverse().keys();
}

function cedictReverse(): Map<string, Map<string, number>> {
  if (!cedictEnZh) {
    const rev = new Map<string, Map<string, number>>();
    for (const zh of loadCedict().glosses.keys()) {
      const fwd = cedictZhToEn(zh);
      if (!fwd) continue;
      for (const [en, w] of fwd) {
        let m = rev.get(en);
        if (!m) {
          m = new Map();
          rev.set(en, m);
        }
        if ((m.get(zh) ?? 0) < w) m.set(zh, w);
      }
    }
    cedictEnZh = rev;
  }
  return cedictEnZh;
}

// ---------------------------------------------------------------------------------------------------------
// Learned lexicon files.

/**
 * Parse a learned lexicon file:
 * ```
 * # bitext-lexicon 1
 * # languages: zh en
 * # source: …   (any `# key: value` lines)
 * 明白<TAB>understand<TAB>0.83
 * ```
 * Words are tokens as `tokenize` returns them; the weight is in (0, 1].
 */
export function parseLexiconFile(path: string, text: string): LexiconFile {
  const lines = text.split("\n");
  if (lines[0]?.trim() !== LEXICON_FILE_MAGIC) {
    throw inputError({ file: path, line: 1 }, `not a bitext lexicon (expected the first line "${LEXICON_FILE_MAGIC}")`);
  }
  const header: Record<string, string> = {};
  const entries: LexiconFile["entries"] = [];
  let languages: [Lang, Lang] | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (!line.trim()) continue;
    if (line.startsWith("#")) {
      const m = /^#\s*([\w-]+):\s*(.*)$/.exec(line);
      if (m) header[m[1]!] = m[2]!.trim();
      if (m?.[1] === "languages") {
        const langs = m[2]!.trim().split(/\s+/);
        if (langs.length !== 2) throw inputError({ file: path, line: i + 1, field: "languages" }, "expected two language codes");
        languages = [langs[0]!, langs[1]!];
      }
      continue;
    }
    if (!languages) throw inputError({ file: path, line: i + 1 }, 'entries before the "# languages: A B" header line');
    const cols = line.split("\t");
    if (cols.length !== 3) throw inputError({ file: path, line: i + 1 }, `expected 3 tab-separated columns, found ${cols.length}`);
    const weight = Number(cols[2]);
    if (!(weight > 0 && weight <= 1))
      throw inputError({ file: path, line: i + 1, field: "weight" }, `"${cols[2]}" is not a number in (0, 1]`);
    if (!cols[0] || !cols[1]) throw inputError({ file: path, line: i + 1 }, "empty word");
    entries.push({ a: cols[0], b: cols[1], weight });
  }
  if (!languages) throw inputError({ file: path }, 'missing the "# languages: A B" header line');
  return { path, languages, header, entries };
}

/**
 * The text of a lexicon file: the magic line, `# languages: A B`, the other header lines in order, then
 * one `A<TAB>B<TAB>weight` line per entry (weights to 4 decimals).
 */
export function formatLexiconFile(
  languages: [Lang, Lang],
  header: ReadonlyArray<[string, string]>,
  entries: ReadonlyArray<{ a: string; b: string; weight: number }>,
): string {
  const lines = [LEXICON_FILE_MAGIC, `# languages: ${languages[0]} ${languages[1]}`];
  for (const [k, v] of header) lines.push(`# ${k}: ${v.replace(/\s+/g, " ")}`);
  for (const e of entries) lines.push(`${e.a}\t${e.b}\t${Math.min(1, Math.max(0.0001, e.weight)).toFixed(4)}`);
  return `${lines.join("\n")}\n`;
}

export function readLexiconFile(path: string): LexiconFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new UserError(`${path}: cannot read lexicon (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { cause: err });
  }
  return parseLexiconFile(path, text);
}

/** The learned lexicons in use: `models/lexicon-*.tsv`, the user's (bitext lexicon learn) shadowing shipped ones of the same name. */
export function shippedLexiconFiles(): string[] {
  return listResources("models", (n) => n.startsWith("lexicon-") && n.endsWith(".tsv")).map((r) => r.path);
}

/**
 * Dictionaries a model opts into (`models/dictionary-*.tsv`, same format; ECDICT by `bitext lexicon import`): not
 * part of the shared lexicon, whose users (the classifier, the extractor, the site pairer) were measured without
 * them. The pair scorer trains with them and its model file names them (`lexiconNamed`).
 */
export function shippedDictionaryFiles(): string[] {
  return listResources("models", (n) => n.startsWith("dictionary-") && n.endsWith(".tsv")).map((r) => r.path);
}

/** The name a model file records for a lexicon source: "cc-cedict" or the file's name. */
export function lexiconSourceName(source: string): string {
  return source.split(/[\\/]/u).at(-1) ?? source;
}

/**
 * The lexicon a model was trained with, from the source names it records (`lexiconSourceName`): CC-CEDICT when
 * named, and each named file of `models/` (the user's shadowing the shipped). A name not found is an error naming it.
 */
export function lexiconNamed(pair: LanguagePair, names: readonly string[], modelPath: string): Lexicon {
  const byName = new Map(
    listResources("models", (n) => (n.startsWith("lexicon-") || n.startsWith("dictionary-")) && n.endsWith(".tsv")).map((r) => [
      r.name,
      r.path,
    ]),
  );
  const files: string[] = [];
  for (const name of names.map(lexiconSourceName)) {
    if (name === CEDICT_SOURCE) continue;
    const path = byName.get(name);
    if (!path) throw new UserError(`${modelPath}: lexicon: the model was trained with ${name}, which is not in models/ (shipped or yours)`);
    files.push(path);
  }
  return loadLexicon(pair, { files, cedict: names.includes(CEDICT_SOURCE) });
}

const CEDICT_SOURCE = "cc-cedict";

// ---------------------------------------------------------------------------------------------------------

export interface LexiconOptions {
  /** Learned lexicon files to use (default: the shipped `models/lexicon-*.tsv` of the pair). */
  files?: readonly string[];
  /** Use CC-CEDICT when the pair is English–Chinese (default true). */
  cedict?: boolean;
}

const cache = new Map<string, Lexicon>();

/**
 * The one shared lexicon of a language pair: CC-CEDICT (for en–zh, loaded on the first lookup) plus the
 * learned translation equivalents of the pair. Cached: every caller gets the same instance.
 * Weights from several sources are combined by taking the maximum.
 */
export function loadLexicon(pair: LanguagePair = EN_ZH, options: LexiconOptions = {}): Lexicon {
  const key = JSON.stringify([pair.a, pair.b, options.files ?? null, options.cedict ?? true]);
  const hit = cache.get(key);
  if (hit) return hit;
  const files = (options.files ?? shippedLexiconFiles()).map(readLexiconFile);
  const lex = buildLexicon(pair, files, options.cedict ?? true);
  cache.set(key, lex);
  return lex;
}

/** A word of the lexicon whose translations are not yet read. */
const UNBUILT = 0;

/** Per language of the pair, each word's translations with their weights (entries added by `addEntry`). */
type EntryTables = Map<Lang, Map<string, Map<string, number>>>;

function entryTables(pair: LanguagePair): EntryTables {
  return new Map([
    [pair.a, new Map()],
    [pair.b, new Map()],
  ]);
}

/** Add a translation of `w1` (in `from`), keeping the larger weight when it is there already. */
function addEntry(tables: EntryTables, from: Lang, w1: string, w2: string, weight: number): void {
  const byWord = tables.get(from)!;
  let m = byWord.get(w1);
  if (!m) {
    m = new Map();
    byWord.set(w1, m);
  }
  if ((m.get(w2) ?? 0) < weight) m.set(w2, weight);
}

/** A lexicon from parsed files (and CC-CEDICT when asked and the pair is en–zh); not cached. */
export function buildLexicon(pair: LanguagePair, files: readonly LexiconFile[], useCedict: boolean): Lexicon {
  const learned = entryTables(pair);
  const sources: string[] = [];
  const add = (from: Lang, w1: string, w2: string, weight: number) => addEntry(learned, from, w1, w2, weight);
  for (const f of files) {
    const [l1, l2] = f.languages;
    const matches = (l1 === pair.a && l2 === pair.b) || (l1 === pair.b && l2 === pair.a);
    if (!matches) continue;
    sources.push(f.path);
    for (const e of f.entries) {
      add(l1, e.a, e.b, e.weight);
      add(l2, e.b, e.a, e.weight);
    }
  }
  const withCedict = useCedict && ((pair.a === "en" && pair.b === "zh") || (pair.a === "zh" && pair.b === "en"));
  if (withCedict) sources.unshift(CEDICT_SOURCE);

  const direct = (word: string, from: Lang): ReadonlyMap<string, number> | undefined => {
    const learnedMap = learned.get(from)?.get(word);
    let dict: ReadonlyMap<string, number> | undefined;
    if (withCedict) dict = from === "zh" ? cedictZhToEn(word) : from === "en" ? cedictEnToZh(word) : undefined;
    if (learnedMap && dict) {
      const m = new Map(dict);
      for (const [w, v] of learnedMap) if ((m.get(w) ?? 0) < v) m.set(w, v);
      return m;
    }
    return learnedMap ?? dict;
  };

  // Per language, every word any source knows, made on the language's first lookup: UNBUILT until the word is
  // asked for, then its translations (null: its entries had none). An unknown word costs one map read and adds
  // nothing (the scorer asks for millions of strings, most of them runs of characters no dictionary has).
  const known: Partial<Record<Lang, Map<string, ReadonlyMap<string, number> | null | typeof UNBUILT>>> = {};
  const tableOf = (from: Lang) => {
    let table = known[from];
    if (!table) {
      table = new Map();
      for (const w of learned.get(from)?.keys() ?? []) table.set(w, UNBUILT);
      if (withCedict && from === "zh") for (const w of loadCedict().glosses.keys()) table.set(w, UNBUILT);
      if (withCedict && from === "en") for (const w of cedictEnglishWords()) table.set(w, UNBUILT);
      known[from] = table;
    }
    return table;
  };
  const lookup = (word: string, from: Lang): ReadonlyMap<string, number> | undefined => {
    const table = tableOf(from);
    const hit = table.get(word);
    if (hit === undefined) return undefined;
    if (hit !== UNBUILT) return hit ?? undefined;
    const built = direct(word, from);
    table.set(word, built ?? null);
    return built;
  };

  return {
    pair,
    sources,
    translations(word: string, from: Lang): ReadonlyMap<string, number> | undefined {
      if (from !== pair.a && from !== pair.b) return undefined;
      const found = lookup(word, from);
      if (found) return found;
      // Be lenient with callers: Traditional Chinese, and English words that are not yet stems.
      const alt = from === "zh" ? toSimplified(word) : from === "en" ? englishToken(word) : word;
      return alt === word ? undefined : lookup(alt, from);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// A lexicon with a document's own entries.

/**
 * `base` with more entries (the terms of one document, learned from its pairs): a word's translations are the base's
 * and its own, the larger weight where both have one. Merged lists are made once per word (the scorer's caches key on
 * a list's identity). `source` names the added entries in `sources`.
 */
export function overlayLexicon(base: Lexicon, entries: ReadonlyArray<{ a: string; b: string; weight: number }>, source: string): Lexicon {
  const { pair } = base;
  const own = entryTables(pair);
  for (const e of entries) {
    addEntry(own, pair.a, e.a, e.b, e.weight);
    addEntry(own, pair.b, e.b, e.a, e.weight);
  }
  const merged = new Map<Lang, Map<string, ReadonlyMap<string, number> | undefined>>([
    [pair.a, new Map()],
    [pair.b, new Map()],
  ]);
  return {
    pair,
    sources: [...base.sources, source],
    translations(word: string, from: Lang): ReadonlyMap<string, number> | undefined {
      const ownOf = own.get(from)?.get(word);
      if (!ownOf) return base.translations(word, from);
      const done = merged.get(from)!;
      if (done.has(word)) return done.get(word);
      const m = new Map(base.translations(word, from) ?? []);
      for (const [w, v] of ownOf) if ((m.get(w) ?? 0) < v) m.set(w, v);
      done.set(word, m);
      return m;
    },
  };
}
