/**
 * The six snippet features of feng2010 §5, computed from a record's title + snippet:
 *
 * | # | name | group | definition |
 * |---|------|-------|------------|
 * | 1 | wordOverlap | W | Equation 4: Score(s) = Σ_k InV_k / (n·m). The language string has 2n or 2n+1 segments; for each
 * |   |  |  | segment T at an even position (2nd, 4th, …) InV_k = max(Score(T, left), Score(T, right)) with Score of
 * |   |  |  | Equation 3 (Σ_i max_j Sim(c_i, e_j) / (p+q) over all words, Chinese side summed); m = #(InV_k > 0). 0 if m = 0. |
 * | 2 | pairShare | W | m / n: the share of even segments that have a translated neighbour (0 if n = 0). |
 * | 3 | pairedLength | L | Equation 5: Σ over the m scoring pairs of (Len(T) + Len(neighbour)) / Len(s), Len = tokens. |
 * | 4 | stringLength | L | the number of segments in the language string ("ECEC" → 4). |
 * | 5 | segmentLengthVariance | L | population variance of the segments' token counts. |
 * | 6 | queryFrequency | F | occurrences of the English query plus occurrences of the Chinese query in the title + snippet
 * |   |  |  | (after the same cleaning; case-insensitive; trailing punctuation of the query ignored). |
 *
 * Character-level evidence (group X), for snippets whose two halves share few dictionary words (literary
 * text, technical text with code names inside the Chinese). The snippet's two halves: the English half is
 * the `a` segments of at least SENTENCE_TOKENS tokens; the Chinese half is everything else (the `b` segments
 * and the short `a` runs inside them — names, terms, code).
 *
 * | 7 | halvesOverlap | X | Equation 3 between the halves as two bags of words (0 if either is empty). |
 * | 8 | sharedTerms | X | share of the distinct Latin-script and number tokens of the Chinese half that occur in the English half |
 * |   |  |  | (numbers compared by their digit runs). |
 * | 9 | scriptBalance | X | min(r, 1/r), r = Latin letters / (LETTERS_PER_HAN × Han characters); 0 without either. |
 * | 10 | sentenceBalance | X | min/max of the sentence ends of the halves (。！？ vs . ! ?); 0 if neither has one. |
 *
 * Translation evidence that holds up in literary and classical text (group T, `translation-evidence.ts`), between
 * the same two halves (or, when the snippet has no English run of SENTENCE_TOKENS tokens, its English runs against
 * its Chinese ones):
 *
 * | 11 | charCoverage | T | share of the Chinese half's known characters with a translation among the English half's content words |
 * | 12 | wordCoverage | T | the same over its known words of two or more characters |
 * | 13 | englishCoverage | T | share of the English half's content words that translate a word or character of the Chinese half |
 * | 14 | sentenceLengthFit | T | complete sentences paired in order: mean min(r, 1/r) of their length ratio (as scriptBalance) |
 * | 15 | punctuationAlignment | T | histogram intersection of the halves' punctuation classes |
 */
import {
  EN_ZH,
  isStopWord,
  type Lang,
  type LanguagePair,
  CHAR_DISCOUNT,
  englishToken,
  isUnspacedLang,
  type LangSegment,
  type Lexicon,
  SUBWORD_DISCOUNT,
  segmentByLanguage,
  tokenize,
} from "../text/index.js";
import { cleanText, prepareRecordText } from "./preprocess.js";
import { type Halves, LETTERS_PER_HAN, translationEvidence } from "./translation-evidence.js";
import type { ClassifierInput } from "./types.js";

/** Bumped whenever a definition above changes: models record it and refuse another version. */
export const FEATURE_VERSION = "bitext-17/1";

/**
 * Feature sets a model may have been trained on: the seed's six (feng2010-6/1), those plus the four
 * character-level features (bitext-10/1), and those plus the five of translation evidence (bitext-15/1). Each
 * set extends the one before unchanged, so an older model still classifies, from its first columns.
 */
export const FEATURE_SETS: Readonly<Record<string, number>> = {
  "feng2010-6/1": 6,
  "bitext-10/1": 10,
  "bitext-15/1": 15,
  "bitext-17/1": 17,
};

export const FEATURE_NAMES = [
  "wordOverlap",
  "pairShare",
  "pairedLength",
  "stringLength",
  "segmentLengthVariance",
  "queryFrequency",
  "halvesOverlap",
  "sharedTerms",
  "scriptBalance",
  "sentenceBalance",
  "charCoverage",
  "wordCoverage",
  "englishCoverage",
  "sentenceLengthFit",
  "punctuationAlignment",
  "alignedCoverage",
  "alignmentGain",
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** The seed's three measures, as indices into the feature vector (for the ablation W, W+L, W+L+F). */
export const FEATURE_GROUPS: Readonly<Record<"W" | "L" | "F" | "X" | "T", readonly number[]>> = {
  W: [0, 1],
  L: [2, 3, 4],
  F: [5],
  X: [6, 7, 8, 9],
  T: [10, 11, 12, 13, 14, 15, 16],
};

export type SnippetFeatures = Record<FeatureName, number>;

/** A segment of the language string with its tokens. */
export interface AnalysedSegment extends LangSegment {
  /** One letter per language: E (en), C (zh), J (ja), K (ko), else the code's first letter upper-cased. */
  letter: string;
  tokens: string[];
  content: string[];
}

/** Everything the features are computed from: shown by the annotation UI and `classify --explain`. */
export interface SnippetAnalysis {
  text: string;
  segments: AnalysedSegment[];
  languageString: string;
  /** InV_k for each even segment (1-based positions 2, 4, …), with the neighbour that gave it. */
  pairs: Array<{ segment: number; partner: number | null; score: number }>;
  features: SnippetFeatures;
}

const LETTERS: Readonly<Record<string, string>> = { en: "E", zh: "C", ja: "J", ko: "K" };

export function langLetter(lang: Lang): string {
  return LETTERS[lang] ?? lang.charAt(0).toUpperCase();
}

/** The features in FEATURE_NAMES order. */
export function featureVector(f: SnippetFeatures): number[] {
  return FEATURE_NAMES.map((n) => f[n]);
}

/**
 * Sim on interned tokens, per lexicon and pair: every token gets an integer id, each `pair.b` token's
 * dictionary entry is looked up once (`Row`), and values found through the sub-word back-off are memoised in
 * an integer-keyed map per token. The arithmetic is `wordSim`'s (src/text/similarity.ts), step for step, so
 * the values are the same doubles; a test compares them on real snippets.
 */
/** Translations keyed by token id (the lexicon's maps, keyed by word, re-keyed once). */
type IdWeights = ReadonlyMap<number, number>;

interface Row {
  /** The token's translations (`lex.translations`), or undefined when the lexicon does not know it. */
  direct: IdWeights | undefined;
  /** Unknown word of an unspaced language: the translations of its known proper sub-words and characters. */
  parts?: readonly IdWeights[];
  chars?: readonly IdWeights[];
  memo?: Map<number, number>;
}

class SimTable {
  private readonly ids = new Map<string, number>();
  private readonly tokens: string[] = [];
  /** For `pair.a` English tokens: the id of `englishToken(token)`, Sim's second try. */
  private readonly stems: number[] = [];
  private rows: Array<Row | undefined> = [];
  /** The lexicon's translation maps re-keyed by id, shared by the words (and sub-words) that have them. */
  private rekeyed = new Map<ReadonlyMap<string, number>, IdWeights>();
  private readonly bLang: Lang;
  private readonly aIsEnglish: boolean;
  private readonly unspacedB: boolean;

  constructor(
    private readonly lex: Lexicon,
    pair: LanguagePair,
  ) {
    this.bLang = pair.b;
    this.aIsEnglish = pair.a === "en";
    this.unspacedB = isUnspacedLang(pair.b);
  }

  /** The id of a token, the same for equal strings whatever their language. */
  id(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.tokens.length;
      this.ids.set(token, id);
      this.tokens.push(token);
      this.stems.push(-1);
    }
    return id;
  }

  idsOf(tokens: readonly string[]): number[] {
    const out = new Array<number>(tokens.length);
    for (let i = 0; i < tokens.length; i++) out[i] = this.id(tokens[i]!);
    return out;
  }

  private byId(translations: ReadonlyMap<string, number> | undefined): IdWeights | undefined {
    if (!translations) return undefined;
    let m = this.rekeyed.get(translations);
    if (!m) {
      const out = new Map<number, number>();
      for (const [w, weight] of translations) out.set(this.id(w), weight);
      this.rekeyed.set(translations, out);
      m = out;
    }
    return m;
  }

  private row(c: number): Row {
    let row = this.rows[c];
    if (!row) {
      const word = this.tokens[c]!;
      row = { direct: this.byId(this.lex.translations(word, this.bLang)) };
      if (!row.direct && this.unspacedB) {
        const chars = Array.from(word);
        if (chars.length >= 2) {
          const known = (w: string) => this.byId(this.lex.translations(w, this.bLang));
          const parts: IdWeights[] = [];
          for (let len = chars.length - 1; len >= 2; len--) {
            for (let i = 0; i + len <= chars.length; i++) {
              const t = known(chars.slice(i, i + len).join(""));
              if (t) parts.push(t);
            }
          }
          row.parts = parts;
          row.chars = chars.map(known).filter((t): t is IdWeights => t !== undefined);
          row.memo = new Map();
        }
      }
      this.rows[c] = row;
    }
    return row;
  }

  /** `direct` of similarity.ts: the weight of e among the translations, else of englishToken(e), at most 1. */
  private direct(translations: IdWeights, e: number): number {
    let w = translations.get(e) ?? 0;
    if (w === 0 && this.aIsEnglish) {
      let stem = this.stems[e]!;
      if (stem === -1) {
        stem = this.id(englishToken(this.tokens[e]!));
        this.stems[e] = stem;
      }
      if (stem !== e) w = translations.get(stem) ?? 0;
    }
    return Math.min(1, w);
  }

  /** Sim(c, e), c a token of `pair.b`, e of `pair.a`. */
  sim(c: number, e: number): number {
    if (c === e) return 1;
    const row = this.row(c);
    if (row.direct) return this.direct(row.direct, e);
    if (!row.memo) return 0;
    let v = row.memo.get(e);
    if (v === undefined) {
      let best = 0;
      for (const t of row.parts!) {
        const s = this.direct(t, e);
        if (s > best) best = s;
      }
      if (best > 0) v = best * SUBWORD_DISCOUNT;
      else {
        for (const t of row.chars!) {
          const s = this.direct(t, e);
          if (s > best) best = s;
        }
        v = best * CHAR_DISCOUNT;
      }
      row.memo.set(e, v);
    }
    return v;
  }

  /**
   * feng2010 Equation 3 on ids: Σ over the `b` tokens of max_j Sim(c_i, e_j), over (p + q); the same sums in
   * the same order as `overlapScore`, so the same doubles.
   */
  overlap(c: readonly number[], e: readonly number[]): number {
    const p = c.length;
    const q = e.length;
    if (p === 0 || q === 0) return 0;
    let sum = 0;
    for (let i = 0; i < p; i++) {
      const ci = c[i]!;
      let best = 0;
      for (let j = 0; j < q; j++) {
        const s = this.sim(ci, e[j]!);
        if (s > best) {
          best = s;
          if (best >= 1) break;
        }
      }
      sum += best;
    }
    return sum / (p + q);
  }

  /**
   * Bounded memory over a long harvest: start again when the vocabulary has grown past the limit. Called
   * between records only, since ids handed out for a record must stay valid while it is scored.
   */
  bound(): void {
    if (this.tokens.length < TABLE_LIMIT) return;
    this.ids.clear();
    this.tokens.length = 0;
    this.stems.length = 0;
    this.rows = [];
    this.rekeyed = new Map();
  }
}

/** Distinct tokens kept per table (ids and memo rows are dropped together beyond it). */
const TABLE_LIMIT = 500_000;

const simTables = new WeakMap<Lexicon, Map<string, SimTable>>();

function simTable(lex: Lexicon, pair: LanguagePair): SimTable {
  let byPair = simTables.get(lex);
  if (!byPair) {
    byPair = new Map();
    simTables.set(lex, byPair);
  }
  const key = `${pair.a}\u0000${pair.b}`;
  let t = byPair.get(key);
  if (!t) {
    t = new SimTable(lex, pair);
    byPair.set(key, t);
  }
  return t;
}

function countOccurrences(haystack: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

const EDGE_PUNCTUATION = /^[\p{P}\s]+|[\p{P}\s]+$/gu;

/** A query side as it is matched against the text: cleaned like the text, lower-cased, edge punctuation off. */
export function queryNeedle(query: string): string {
  let needle = needles.get(query);
  if (needle === undefined) {
    needle = cleanText(query).toLowerCase().replace(EDGE_PUNCTUATION, "");
    if (needles.size >= 10_000) needles.clear();
    needles.set(query, needle);
  }
  return needle;
}

/** The query side is the same for every record a query returned: cleaned once per query. */
const needles = new Map<string, string>();

/** A segment as the features need it: language, tokens and their ids, and its sentences. */
interface TokenisedSegment {
  seg: LangSegment;
  tokens: string[];
  ids: number[];
  /** The segment cut after each sentence end; `closed` when the piece ends with an end mark. */
  pieces: Piece[];
}

interface Piece {
  text: string;
  tokens: string[];
  closed: boolean;
}

/**
 * Sentence ends: . ! ? before a space or the end in English (3.5 and U.S.A go on), 。 ! ? (width-folded) in Chinese;
 * a run of marks ends one sentence.
 */
const SENTENCE_BREAK: Readonly<Record<"a" | "b", RegExp>> = { a: /[.!?]+(?=\s|$)/g, b: /[。!?！？]+/g };

/**
 * The segment's sentence pieces and tokens, tokenised piece by piece: no token spans an end mark, so the tokens are
 * those of the whole segment.
 */
function tokenizeBySentence(seg: LangSegment, pair: LanguagePair): { tokens: string[]; pieces: Piece[] } {
  const re = SENTENCE_BREAK[seg.lang === pair.a ? "a" : "b"];
  const pieces: Piece[] = [];
  let from = 0;
  re.lastIndex = 0;
  for (let m = re.exec(seg.text); m; m = re.exec(seg.text)) {
    const to = m.index + m[0].length;
    const text = seg.text.slice(from, to);
    pieces.push({ text, tokens: tokenize(text, seg.lang), closed: true });
    from = to;
  }
  if (from < seg.text.length) {
    const text = from ? seg.text.slice(from) : seg.text;
    pieces.push({ text, tokens: tokenize(text, seg.lang), closed: false });
  }
  return { tokens: pieces.length === 1 ? pieces[0]!.tokens : pieces.flatMap((p) => p.tokens), pieces };
}

/** Clean, segment and tokenise a record, and compute its features from that. */
function computeFeatures(
  input: ClassifierInput,
  lex: Lexicon,
  pair: LanguagePair,
): { text: string; segments: TokenisedSegment[]; pairs: SnippetAnalysis["pairs"]; features: SnippetFeatures } {
  const table = simTable(lex, pair);
  table.bound();
  const { text } = prepareRecordText(input);
  const segments: TokenisedSegment[] = segmentByLanguage(text, pair).map((seg) => {
    const { tokens, pieces } = tokenizeBySentence(seg, pair);
    return { seg, tokens, ids: table.idsOf(tokens), pieces };
  });
  // Equation 3 sums over the words of the non-English (pair.b) side. All words count, function words
  // included: 我 next to "I" is evidence of translation too, and p and q are the segments' lengths.
  const eq3 = (x: TokenisedSegment, y: TokenisedSegment) => {
    const [c, e] = x.seg.lang === pair.a ? [y, x] : [x, y];
    return c.seg.lang === e.seg.lang ? 0 : table.overlap(c.ids, e.ids);
  };
  const L = segments.length;
  const n = Math.floor(L / 2);
  const pairs: SnippetAnalysis["pairs"] = [];
  let sum = 0;
  let m = 0;
  let pairedTokens = 0;
  for (let k = 0; k < n; k++) {
    const t = 2 * k + 1; // 0-based index of the (k+1)-th even position
    const left = eq3(segments[t]!, segments[t - 1]!);
    const right = t + 1 < L ? eq3(segments[t]!, segments[t + 1]!) : 0;
    const score = Math.max(left, right);
    const partner = score === 0 ? null : left >= right ? t - 1 : t + 1;
    pairs.push({ segment: t, partner, score });
    if (score > 0) {
      sum += score;
      m++;
      pairedTokens += segments[t]!.tokens.length + segments[partner!]!.tokens.length;
    }
  }
  const lengths = segments.map((s) => s.tokens.length);
  const totalTokens = lengths.reduce((a, b) => a + b, 0);
  const mean = L ? totalTokens / L : 0;
  const variance = L ? lengths.reduce((a, x) => a + (x - mean) ** 2, 0) / L : 0;
  const haystack = text.toLowerCase();
  const halves = halvesOf(segments, pair);
  const features: SnippetFeatures = {
    wordOverlap: m ? sum / (n * m) : 0,
    pairShare: n ? m / n : 0,
    pairedLength: totalTokens ? pairedTokens / totalTokens : 0,
    stringLength: L,
    segmentLengthVariance: variance,
    queryFrequency:
      countOccurrences(haystack, queryNeedle(input.query.source.text)) + countOccurrences(haystack, queryNeedle(input.query.target.text)),
    halvesOverlap: halves.b.length && halves.a.length ? table.overlap(halves.b, halves.a) : 0,
    sharedTerms: sharedTerms(halves.terms, halves.aTokens),
    scriptBalance: scriptBalance(text),
    sentenceBalance: balance(halves.bEnds, halves.aEnds),
    ...translationEvidence(halves.text, lex),
  };
  return { text, segments, pairs, features };
}

/** An `a` segment this long or longer is a sentence of the English half; shorter ones are terms in the other. */
const SENTENCE_TOKENS = 3;
const LATIN_OR_NUMBER = /^[\p{Script=Latin}\p{N}]/u;
const A_SENTENCE_END = /[.!?](?=\s|$)/g;
const B_SENTENCE_END = /[。！？]/g;

/**
 * The snippet's two halves (see the table at the top). For the translation evidence (group T), a snippet whose English
 * runs are all short ("I see. 我明白了。 I quit! 我不干了!") is read as those runs against the Chinese ones.
 */
function halvesOf(segments: readonly TokenisedSegment[], pair: LanguagePair) {
  const a: number[] = [];
  const b: number[] = [];
  const aTokens = new Set<string>();
  const terms = new Set<string>();
  let aEnds = 0;
  let bEnds = 0;
  let anySentence = false;
  for (const s of segments) {
    if (s.seg.lang === pair.a && s.tokens.length >= SENTENCE_TOKENS) {
      anySentence = true;
      for (const id of s.ids) a.push(id);
      for (const t of s.tokens) aTokens.add(t);
      aEnds += s.seg.text.match(A_SENTENCE_END)?.length ?? 0;
    } else {
      if (s.seg.lang === pair.b) for (const id of s.ids) b.push(id);
      for (const t of s.tokens) if (s.seg.lang === pair.a || LATIN_OR_NUMBER.test(t)) terms.add(t);
      bEnds += s.seg.text.match(B_SENTENCE_END)?.length ?? 0;
    }
  }
  const english = anySentence
    ? (s: TokenisedSegment) => s.seg.lang === pair.a && s.tokens.length >= SENTENCE_TOKENS
    : (s: TokenisedSegment) => s.seg.lang === pair.a;
  return { a, b, aTokens, terms, aEnds, bEnds, text: translationHalves(segments, pair, english, anySentence) };
}

/**
 * The halves as the translation evidence reads them, sentence by sentence: a half's sentence ends at an end mark or
 * where the other half's text comes between. With English sentences in the snippet, the Chinese half's text includes
 * the short English runs inside it (names, code); without, it is the Chinese runs alone.
 */
function translationHalves(
  segments: readonly TokenisedSegment[],
  pair: LanguagePair,
  english: (s: TokenisedSegment) => boolean,
  termsInChinese: boolean,
): Halves {
  const en: string[][] = [];
  const zh: Array<{ text: string; tokens: string[] }> = [];
  let enText = "";
  let zhText = "";
  let enOpen = false;
  let zhOpen = false;
  for (const s of segments) {
    if (english(s)) {
      zhOpen = false;
      for (const p of s.pieces) {
        if (!enOpen) en.push([]);
        const sentence = en[en.length - 1]!;
        for (const t of p.tokens) sentence.push(t);
        enOpen = !p.closed;
      }
      enText += `${s.seg.text} `;
    } else if (s.seg.lang === pair.b) {
      enOpen = false;
      for (const p of s.pieces) {
        if (!zhOpen) zh.push({ text: "", tokens: [] });
        const sentence = zh[zh.length - 1]!;
        sentence.text += p.text;
        for (const t of p.tokens) sentence.tokens.push(t);
        zhOpen = !p.closed;
      }
      zhText += s.seg.text;
    } else if (termsInChinese) {
      enOpen = false;
      zhText += s.seg.text;
    }
  }
  return { en, enText, zh, zhText };
}

const DIGITS = /\p{N}+/gu;

/** Numbers compare by their digit runs: "1925年10月" and "1925,10" share 1925 and 10. */
function termKeys(tokens: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) {
    const digits = t.match(DIGITS);
    if (digits) for (const d of digits) out.add(d);
    else out.add(t);
  }
  return out;
}

function sharedTerms(terms: ReadonlySet<string>, aTokens: ReadonlySet<string>): number {
  if (terms.size === 0) return 0;
  const mine = termKeys(terms);
  const theirs = termKeys(aTokens);
  let n = 0;
  for (const t of mine) if (theirs.has(t)) n++;
  return n / mine.size;
}

function balance(x: number, y: number): number {
  const hi = Math.max(x, y);
  return hi ? Math.min(x, y) / hi : 0;
}

const HAN = /^\p{Script=Han}$/u;
const LATIN_LETTER = /^\p{Script=Latin}$/u;
/** Script of each BMP code unit, filled on first sight: 0 unknown, 1 Han, 2 Latin, 3 other. */
const SCRIPT_OF = new Uint8Array(0x10000);

function scriptOf(ch: string): number {
  return HAN.test(ch) ? 1 : LATIN_LETTER.test(ch) ? 2 : 3;
}

function scriptBalance(text: string): number {
  let han = 0;
  let latin = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let k: number;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      k = scriptOf(text.slice(i, i + 2)); // astral: Han extensions
      i++;
    } else {
      k = SCRIPT_OF[code]!;
      if (k === 0) {
        k = scriptOf(text[i]!);
        SCRIPT_OF[code] = k;
      }
    }
    if (k === 1) han++;
    else if (k === 2) latin++;
  }
  if (!han || !latin) return 0;
  const r = latin / (LETTERS_PER_HAN * han);
  return Math.min(r, 1 / r);
}

/** Analyse a record: clean, segment by language, tokenise, and compute the features. */
export function analyseRecord(input: ClassifierInput, lex: Lexicon, pair: LanguagePair = EN_ZH): SnippetAnalysis {
  const { text, segments, pairs, features } = computeFeatures(input, lex, pair);
  const analysed: AnalysedSegment[] = segments.map(({ seg, tokens }) => ({
    ...seg,
    letter: langLetter(seg.lang),
    tokens,
    content: tokens.filter((t) => !isStopWord(t, seg.lang)),
  }));
  return { text, segments: analysed, languageString: analysed.map((s) => s.letter).join(""), pairs, features };
}

/** The feature vector of a record (FEATURE_NAMES order). */
export function recordFeatures(input: ClassifierInput, lex: Lexicon, pair: LanguagePair = EN_ZH): number[] {
  return featureVector(computeFeatures(input, lex, pair).features);
}
