/**
 * The shared text module: scripts, language segmentation, normalisation, tokenisation, the bilingual
 * lexicon and Sim(c, e). Every part of bitext that reads text in two languages goes through here.
 */
export {
  charLang,
  unitLang,
  EN_JA,
  EN_KO,
  EN_ZH,
  isKnownLang,
  isUnspacedLang,
  knownLangs,
  type Lang,
  type LanguagePair,
  langShares,
  parseLanguagePair,
} from "./script.js";
export { type LangSegment, segmentByLanguage } from "./segment.js";
export { comparableForm, comparableText, expandContractions, lexiconForm, mayConvert, normalizeText, toSimplified } from "./normalize.js";
export { contentTokens, englishToken, isStopWord, tokenize } from "./tokenize.js";
export {
  buildLexicon,
  formatLexiconFile,
  LEXICON_FILE_MAGIC,
  type Lexicon,
  type LexiconFile,
  type LexiconOptions,
  loadLexicon,
  overlayLexicon,
  parseLexiconFile,
  lexiconNamed,
  lexiconSourceName,
  readLexiconFile,
  shippedDictionaryFiles,
  shippedLexiconFiles,
} from "./lexicon.js";
export {
  type BackoffTranslations,
  backoffTranslations,
  CHAR_DISCOUNT,
  derivedTranslations,
  overlapScore,
  SUBWORD_DISCOUNT,
  translatedShare,
  wordSim,
} from "./similarity.js";
export {
  type LearnedPair,
  type LearnLexiconOptions,
  learnLexicon,
  learnLexiconFromSentences,
  type ParallelSentence,
  parseParallelTsv,
} from "./learn-lexicon.js";
export { cedictGlossTexts, cedictStats, cedictWords } from "./cedict.js";
export { type EcdictEntry, type EcdictRow, ecdictEntries, ecdictTranslations } from "./ecdict.js";
