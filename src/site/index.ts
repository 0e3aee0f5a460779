/**
 * Parallel page pairs in bilingual websites:
 * crawl (or load a mirror) → pages with language, tags, words and links → URL keys (kit-ng2007) and/or
 * link-based ETS (liu2014) → page pairs.
 *
 * ```ts
 * const site = loadSite("mirror/");                       // or a folder written by crawlSite()
 * const { pairs } = pairPages(site, { method: "both", lexicon: loadLexicon(site.pair) });
 * ```
 */
export { type BuildSiteOptions, buildSite, DEFAULT_MIN_CONTENT_BYTES, type RawPage } from "./build.js";
export { type CandidateOptions, type Candidates, candidatePairs, DEFAULT_CANDIDATE_OPTIONS } from "./candidates.js";
export { buildContentIndex, type ContentIndex } from "./content.js";
export { type CrawlOptions, type CrawlSummary, crawlSite, DEFAULT_CRAWL_OPTIONS } from "./crawl.js";
export { CRAWL_MANIFEST, type CrawledPage, type CrawlManifest, isCrawlFolder, readCrawlManifest } from "./crawl-store.js";
export {
  DEFAULT_ETS_OPTIONS,
  type EtsOptions,
  enhancedSimilarity,
  internalSimilarity,
  neighbours,
  type PageWeighting,
  pageWeights,
  selectPairs,
  structuralSimilarity,
} from "./ets.js";
export { type GoldFile, type GoldPair, matchPairs, readGoldPairs, sitePath } from "./gold.js";
export { LETTERS_PER_CHARACTER, type PageLanguage, pageLanguage } from "./language.js";
export { lcsLength, lcsLengthDp } from "./lcs.js";
export { loadSite, MIRROR_ORIGIN, mirrorFiles } from "./load.js";
export { type PageFeatures, pageFeatures, resolveUrl, PRESENTATION_TAGS } from "./page-features.js";
export { DEFAULT_CALIBRATION, type PairOptions, type PairResult, type PairStats, pairPages } from "./pair.js";
export type { DroppedPage, PagePair, PairingMethod, Site, SitePage } from "./types.js";
export {
  findUrlPairs,
  formatKey,
  generalizeKey,
  type UrlField,
  type UrlKey,
  type UrlKeyOptions,
  type UrlKeyResult,
  urlTokens,
} from "./url-keys.js";
