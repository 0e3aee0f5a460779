import type { Lang, LanguagePair } from "../text/index.js";

/** One page of a bilingual site, reduced to what the pairing methods use. */
export interface SitePage {
  /** The page's name in every output: its path relative to the folder for a mirror, its URL for a crawl. */
  key: string;
  /** The URL the page's URL keys are computed from (the relative path for a mirror). */
  url: string;
  title: string;
  /** Language by script (`pageLanguage`); null when the page has no letters of either language. */
  lang: Lang | null;
  /** Weighted script shares behind `lang`. */
  shares: Record<Lang, number>;
  /** UTF-8 bytes of the page's visible text: its size for liu2014's size ratio. */
  contentBytes: number;
  /** Structural tag sequence (visual tags removed), as ids into `Site.tagNames`. */
  tags: Uint16Array;
  /** Distinct content tokens of the page (ids into `Site.vocabulary`), ascending, with their counts. */
  termIds: Int32Array;
  termCounts: Int32Array;
  /** Pages this page links to (indices into `Site.pages`; on-site, deduplicated, itself excluded). */
  links: number[];
}

/** A page that was found but not kept, and why. */
export interface DroppedPage {
  key: string;
  reason: string;
}

/** A loaded site: a crawl or a mirror folder. */
export interface Site {
  source: "crawl" | "mirror";
  /** The folder it was loaded from. */
  root: string;
  pair: LanguagePair;
  pages: SitePage[];
  tagNames: string[];
  /** Token strings by id (tokens as `tokenize` returns them, so lexicon lookups work on them). */
  vocabulary: string[];
  dropped: DroppedPage[];
}

/** A pair of pages that translate each other, found by one of the methods. */
export interface PagePair {
  /** Page indices (into `Site.pages`) of the `pair.a` and `pair.b` page. */
  a: number;
  b: number;
  /** Confidence in [0, 1]: the key's share of pages for URL keys, ETS for links. */
  score: number;
  /** Which evidence produced the pair. */
  via: "urls" | "links";
  /** The URL key (`en:tc`) for pairs found by URL keys. */
  key?: string;
  /** The key's linking power. */
  power?: number;
}

export type PairingMethod = "urls" | "links" | "both";
