/** Types that cross module boundaries for record wrappers (feng2010 §4.2–4.3). */

import type { LayoutFingerprint } from "./layout.js";

/** One result record of a search engine result page. */
export interface ResultRecord {
  /** 1-based position among the records extracted from the page. */
  rank: number;
  /** Text of the record's main link. */
  title: string;
  /** That link's href, resolved against the page URL (or `<base href>`). */
  url: string;
  /** The rest of the record's text, whitespace-normalised. */
  snippet: string;
}

/** An essential cluster turned into an extraction rule. */
export interface RecordCluster {
  /** P_a: the tag path of every record's root element. */
  ancestorPath: string;
  /** The cluster's member tag paths (absolute). */
  paths: string[];
  /** How many records the sample page had under this ancestor path. */
  sampleRecords: number;
  /** Tag path of the title link, relative to the record root (e.g. `h3\a`). */
  titlePath: string | null;
  /**
   * True when the link at `titlePath` reads the same in most records (a "Read more »" control): the record's
   * title is then its first block of text and the link gives only the URL. Absent: false.
   */
  titleFromText?: boolean;
  /** Ranking score of the cluster on the sample page: its records with a title link and a snippet. */
  score: number;
  /**
   * "results": its records are result records (the best cluster, plus clusters whose records are
   * siblings of the best one's in the same list: one result list can mix several record templates).
   * "other": a repeated structure that is not the result list (kept for diagnostics).
   */
  role: "results" | "other";
}

export interface WrapperParams {
  /** ε of Equation 2. */
  epsilon: number;
  /** T: an ancestor path must occur more than T times to lead records. */
  minRecords: number;
  /** Clusters need at least this many tag paths. */
  minClusterSize: number;
}

/** A learned record wrapper: everything needed to extract records from later pages of one engine. */
export interface Wrapper {
  engine: string;
  /** ISO date the wrapper was learned. */
  learnedAt: string;
  sample: {
    sha256: string;
    url: string | null;
    file: string | null;
    positions: number;
    uniquePaths: number;
  };
  params: WrapperParams;
  /**
   * "exact": tag paths as the seed defines them. "collapsed": tandem repeats collapsed first
   * (`collapseRepeats`), learned when exact paths show no record list because records nest (legacy markup).
   */
  pathMode: "exact" | "collapsed";
  /** The sample page's layout fingerprint: a page too unlike it is reported as a mismatch. */
  layout: LayoutFingerprint;
  /** Essential clusters, best first; `clusters[0]` carries the organic results. */
  clusters: RecordCluster[];
}

export type ExtractStatus =
  /** Records found. */
  | "ok"
  /** The page has the engine's layout but no result records (a genuine "no results" page). */
  | "empty"
  /** The page does not look like the page the wrapper was learned on (another engine, a new layout, a block page). */
  | "mismatch";

/** How well a page matched the wrapper (for the report and for choosing between wrappers). */
export interface LayoutMatch {
  /** Share of the sample page's layout tokens (class names, or tag paths) the page has (Jaccard). */
  layout: number;
  /** How well the records found match the wrapper's record template (0–1), or null when none was found. */
  template: number | null;
}

export interface ExtractResult {
  status: ExtractStatus;
  records: ResultRecord[];
  /** Human-readable reason for "empty" / "mismatch". */
  detail: string;
  /**
   * Set when the page says the engine answered another query ("Showing results for …", "Did you mean"):
   * the notice's text. The records are the engine's results for that query; the caller decides.
   */
  rewrittenQuery?: string;
  /** The scores the mismatch decision rests on (absent when the page was not compared). */
  match?: LayoutMatch;
}
