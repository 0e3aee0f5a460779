/** `bitext/extract`: parallel sentence pairs inside one bilingual page (structure first, then feng2011). */
export {
  type ExtractOptions,
  extractFromHtml,
  formatPairs,
  OUTPUT_FORMATS,
  type PageExtraction,
  type SentencePair,
  splitSentences,
} from "../extract/index.js";
