/**
 * The seed extractor of feng2011 §IV.B: adjacent snippets in different languages that pass both the
 * Gale-Church length model (Eq. 1) and the word-overlap alignment model (Eq. 2, the shared Sim(c, e)).
 */
import {
  charLang,
  contentTokens,
  EN_ZH,
  type Lang,
  type LanguagePair,
  type Lexicon,
  loadLexicon,
  overlapScore,
  toSimplified,
  wordSim,
} from "../text/index.js";
import { type LengthModel, lengthModelFor, lengthProbability, textLengthDelta } from "./length-model.js";
import type { Snippet, SnippetPair } from "./types.js";

/** What the two models say about a pair of snippets. */
export interface PairEvidence {
  /** Gale-Church δ (0 = the expected length ratio). */
  delta: number;
  /** Two-tailed probability of that δ. */
  lengthProbability: number;
  /** Word-overlap score, Eq. 2 (denominator p + q). */
  overlap: number;
  /** The same score with numbers left out: a seed needs some dictionary evidence, not only a shared `3`. */
  lexicalOverlap: number;
}

export interface SeedThresholds {
  /** Largest |δ| a seed may have. */
  maxDelta: number;
  /** Smallest overlap score a seed needs. */
  minOverlap: number;
}

/**
 * Scores pairs of snippets of one page; tokens are computed once per snippet.
 * The CJK side (`pair.b`) is l1 of the length model and the side Eq. 2 sums over.
 */
export class PairScorer {
  private readonly tokens = new Map<Snippet, string[]>();
  private readonly lex: Lexicon;
  private readonly model: LengthModel;

  private readonly isCjkLetter: (ch: string) => boolean;

  constructor(private readonly langs: LanguagePair) {
    this.model = lengthModelFor(langs.b);
    this.lex = loadLexicon(langs);
    this.isCjkLetter = (ch) => charLang(ch, langs) === langs.b;
  }

  evidence(pair: SnippetPair): PairEvidence {
    const [a, b] = pair.first.lang === this.langs.a ? [pair.first, pair.second] : [pair.second, pair.first];
    const delta = textLengthDelta(b.text, a.text, this.isCjkLetter, this.model);
    const bt = this.tokensOf(b);
    const at = this.tokensOf(a);
    const overlap = this.overlap(bt, at);
    const lexicalOverlap = overlap === 0 ? 0 : this.overlap(withoutNumbers(bt), withoutNumbers(at));
    return { delta, lengthProbability: lengthProbability(delta), overlap, lexicalOverlap };
  }

  /** Eq. 2 with numbers left out: the dictionary evidence alone (cheaper than `evidence` when only that is asked). */
  lexicalOverlap(pair: SnippetPair): number {
    const [a, b] = pair.first.lang === this.langs.a ? [pair.first, pair.second] : [pair.second, pair.first];
    return this.overlap(withoutNumbers(this.tokensOf(b)), withoutNumbers(this.tokensOf(a)));
  }

  /** Eq. 2 summed over the CJK tokens `bt` against the other side's tokens `at`. */
  private overlap(bt: readonly string[], at: readonly string[]): number {
    return this.langs.b === "ja" ? kanjiOverlapScore(bt, at, this.langs.a) : overlapScore(bt, this.langs.b, at, this.langs.a, this.lex);
  }

  private tokensOf(s: Snippet): string[] {
    let t = this.tokens.get(s);
    if (!t) {
      // Chinese as CC-CEDICT's words, from Simplified: the lexicon's own headwords, Traditional text included
      // (the text itself stays as written), and no segmenter to load beside the lexicon.
      t = s.lang === "zh" ? contentTokens(toSimplified(s.text), s.lang, "cedict") : contentTokens(s.text, s.lang);
      this.tokens.set(s, t);
    }
    return t;
  }
}

/** Whether a pair's evidence makes it a seed. */
export function isSeed(e: PairEvidence, t: SeedThresholds): boolean {
  return Math.abs(e.delta) <= t.maxDelta && e.overlap >= t.minOverlap && e.lexicalOverlap > 0;
}

const NUMBER = /^[\p{N}.,:%-]+$/u;

function withoutNumbers(tokens: readonly string[]): string[] {
  return tokens.filter((t) => !NUMBER.test(t));
}

const HAN = /\p{Script=Han}/u;
const HAN_RUN = /\p{Script=Han}+/gu;
const KANA_OR_PUNCT_ONLY = /^[\p{Script=Hiragana}\p{Script=Katakana}\u30fc\p{P}\p{S}]+$/u;

/**
 * Word overlap for Japanese–English without a ja–en dictionary: the kanji of each Japanese word are
 * looked up through CC-CEDICT (Japanese and Chinese share most kanji compounds: 会議/会议, 学生, 経済/经济
 * via Traditional→Simplified), Latin words and numbers match when identical. Kana-only words (particles,
 * endings) carry no dictionary evidence and are left out of the sum and of p, so the score is on the scale
 * of Eq. 2 for Chinese. Katakana loanwords get no credit: that is the honest weakness of this model.
 */
export function kanjiOverlapScore(jaTokens: readonly string[], enTokens: readonly string[], enLang: Lang): number {
  const bearing = jaTokens.filter((t) => !KANA_OR_PUNCT_ONLY.test(t));
  const p = bearing.length;
  const q = enTokens.length;
  if (p === 0 || q === 0) return 0;
  const zhLex = loadLexicon(EN_ZH);
  let sum = 0;
  for (const t of bearing) {
    let best = 0;
    const kanji = HAN.test(t) ? (t.match(HAN_RUN) ?? []).join("") : null;
    for (const e of enTokens) {
      const s = kanji ? wordSim(kanji, "zh", e, enLang, zhLex) : t === e ? 1 : 0;
      if (s > best) best = s;
    }
    sum += best;
  }
  return sum / (p + q);
}
