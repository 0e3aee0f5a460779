/**
 * `bitext/wrapper`: record wrappers (feng2010 §4.2–4.3) on tag-path sequences. Learn one from a sample result
 * page, apply it to later pages of the same layout, heal it when the layout changes, keep it in a file.
 */
export {
  applyWithHealing,
  DEFAULT_PARAMS,
  type ExtractResult,
  extractRecords,
  type HealOptions,
  type LearnOptions,
  layoutSimilarity,
  learnWrapper,
  pageQuery,
  parseWrapperFile,
  type ResultRecord,
  readWrapperFile,
  type Wrapper,
  type WrapperParams,
  writeWrapperFile,
} from "../wrapper/index.js";
