/** `bitext/extract`: parallel sentence pairs inside one bilingual page (structure first, then feng2011). */
export {
  type ExtractOptions,
  extractFromHtml,
  type PageExtraction,
  type SentencePair,
  splitSentences,
} from "../extract/index.js";
export { formatPairs, OUTPUT_FORMATS } from "../export/index.js";
