/** `bitext/site`: parallel page pairs in bilingual websites (kit-ng2007 URL keys, liu2014 ETS). */
export {
  type CrawlOptions,
  type CrawlSummary,
  crawlSite,
  findUrlPairs,
  loadSite,
  matchPairs,
  type PagePair,
  type PairingMethod,
  type PairOptions,
  type PairResult,
  pairPages,
  readGoldPairs,
  type Site,
  type SitePage,
} from "../site/index.js";
