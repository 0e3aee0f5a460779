import type { ResultRecord } from "../wrapper/index.js";
import { queryTerms, targetSite } from "../wrapper/index.js";

/**
 * What one result page's reading looks like, as numbers an engine's health profile follows: how many records,
 * the share with a snippet, how long titles and snippets are, how many distinct sites they lead to, how many
 * echo the query, and how well they match the wrapper's record template. Each figure comes with its own
 * sampling noise on this page (`noise`, one standard error), so a page of three records is not judged as
 * sharply as a page of thirty.
 */

export const METRICS = ["records", "snippetShare", "titleLength", "snippetLength", "siteShare", "queryEcho", "template"] as const;
export type MetricName = (typeof METRICS)[number];

/**
 * Which way a metric goes when a wrapper reads the wrong list or half of it. "both": either way is suspect
 * (a navigation list has shorter titles, a list of ads or of whole blocks longer ones); "low": only a fall is
 * (more records — a longer page —, more echoing the query, or matching the template better is no sign of a break).
 */
export const METRIC_DIRECTION: Readonly<Record<MetricName, "both" | "low">> = {
  records: "low",
  snippetShare: "low",
  titleLength: "both",
  snippetLength: "both",
  siteShare: "low",
  queryEcho: "low",
  template: "low",
};

export interface PageMetrics {
  values: Record<MetricName, number>;
  /** One standard error of each value from the page's own records. */
  noise: Record<MetricName, number>;
  /**
   * The spread of the value's parts among the page's records (their standard deviation: of log lengths, of
   * 0/1 for shares; 0 for the count): how far another page's value may plausibly lie before the profile has
   * seen pages enough to show its own spread.
   */
  spread: Record<MetricName, number>;
  /** Metrics with no value on this page (no query to echo, no template score). */
  missing: MetricName[];
}

export interface PageReading {
  records: readonly ResultRecord[];
  /** The wrapper's template match of the records (`ExtractResult.match.template`); null when unknown. */
  template: number | null;
  /** The query the page answers (the harvest's query, or the page's own title); null when unknown. */
  query: string | null;
}

/**
 * The page's figures. A reading without records has only its count (the other figures are missing): a page of
 * the engine's layout where the wrapper finds nothing is a drift unless the engine says it found nothing.
 */
export function pageMetrics(reading: PageReading): PageMetrics {
  const records = reading.records;
  const n = records.length;
  const missing: MetricName[] = n === 0 ? METRICS.filter((m) => m !== "records") : [];
  const snippets = records.filter((r) => r.snippet.trim().length > 0);
  const titleLogs = records.map((r) => Math.log1p(r.title.trim().length));
  const snippetLogs = snippets.map((r) => Math.log1p(r.snippet.trim().length));
  const sites = new Set(records.map((r) => targetSite(r.url) ?? r.url));
  const terms = reading.query ? queryTerms(reading.query) : [];
  const echo =
    terms.length === 0
      ? null
      : records.filter((r) => {
          const text = `${r.title} ${r.snippet}`.toLowerCase();
          return terms.some((t) => text.includes(t));
        }).length / n;
  if (echo === null) missing.push("queryEcho");
  if (reading.template === null) missing.push("template");
  if (snippetLogs.length === 0) missing.push("snippetLength");
  if (n === 0)
    return {
      values: { ...none(), records: anscombe(0) },
      noise: { ...none(), records: 1 },
      spread: none(),
      missing: [...new Set(missing)],
    };
  const values: Record<MetricName, number> = {
    records: anscombe(n),
    snippetShare: snippets.length / n,
    titleLength: mean(titleLogs),
    snippetLength: snippetLogs.length === 0 ? 0 : mean(snippetLogs),
    siteShare: sites.size / n,
    queryEcho: echo ?? 0,
    template: reading.template ?? 0,
  };
  const noise: Record<MetricName, number> = {
    // A count of records varies from query to query like a Poisson count: on Anscombe's scale its deviation is 1.
    records: 1,
    snippetShare: shareError(values.snippetShare, n),
    titleLength: meanError(titleLogs),
    snippetLength: meanError(snippetLogs),
    siteShare: shareError(values.siteShare, n),
    queryEcho: shareError(values.queryEcho, n),
    template: shareError(values.template, n),
  };
  const spread: Record<MetricName, number> = {
    records: 0,
    snippetShare: shareSpread(values.snippetShare),
    titleLength: meanError(titleLogs) * Math.sqrt(titleLogs.length),
    snippetLength: meanError(snippetLogs) * Math.sqrt(snippetLogs.length),
    siteShare: shareSpread(values.siteShare),
    queryEcho: shareSpread(values.queryEcho),
    template: shareSpread(values.template),
  };
  return { values, noise, spread, missing };
}

/** Anscombe's transform of a count: a Poisson count's standard deviation is about 1 on this scale, whatever its mean. */
export function anscombe(count: number): number {
  return 2 * Math.sqrt(count + 3 / 8);
}

function none(): Record<MetricName, number> {
  return Object.fromEntries(METRICS.map((m) => [m, 0])) as Record<MetricName, number>;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
}

/** Standard error of a share measured over `n` records, with the share pulled off 0 and 1 (Agresti–Coull's +2/+4). */
export function shareError(share: number, n: number): number {
  const p = (share * n + 2) / (n + 4);
  return Math.sqrt((p * (1 - p)) / (n + 4));
}

/** Standard deviation of a 0/1 variable of mean `share`. */
function shareSpread(share: number): number {
  return Math.sqrt(share * (1 - share));
}

/** Standard error of a mean (sample standard deviation / √n); 0 for fewer than two values. */
export function meanError(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  const variance = xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
  return Math.sqrt(variance / xs.length);
}

/** A metric's value in the words a person reads: record counts and lengths in characters back from their scales. */
export function shownValue(metric: MetricName, value: number): number {
  if (metric === "records") return Math.max(0, (value / 2) ** 2 - 3 / 8);
  if (metric === "titleLength" || metric === "snippetLength") return Math.expm1(value);
  return value;
}
