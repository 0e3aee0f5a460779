/** `bitext/text`: language pairs, segmentation by language, tokenisers and the bilingual lexicon. */
export {
  EN_ZH,
  type Lang,
  type LanguagePair,
  type Lexicon,
  learnLexicon,
  loadLexicon,
  normalizeText,
  parseLanguagePair,
  segmentByLanguage,
  toSimplified,
  tokenize,
} from "../text/index.js";
