/**
 * `bitext/html`: a page as the browser builds it (charset decoded, parse5 with Blink's caps) and its tag-path
 * sequence, the input of record wrappers.
 */
export {
  decodeHtml,
  isPageSkipped,
  PageSkipped,
  readPageTagPaths,
  readSavedPage,
  type TagPathSequence,
  tagPathsFromHtml,
} from "../html/index.js";
