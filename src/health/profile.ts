import { median } from "../stats.js";
import { METRIC_DIRECTION, METRICS, type MetricName, type PageMetrics } from "./metrics.js";

/**
 * An engine's health profile: the figures of its last pages read well (`pageMetrics`), per metric, kept as a
 * window so the profile follows slow change and forgets old layouts. A page is judged against the profile's
 * own spread: its distance to the profile's median, in units of the spread between the profile's pages
 * (1.4826 × MAD, the robust standard deviation). A profile of few pages cannot show its spread yet: until it
 * can, the spread of the records within its pages and the sampling noise of its pages and of this one stand in
 * for it, as one page's worth of evidence (the profile's n − 1 page-to-page differences outweigh it as they come).
 * JSON as it is: the store keeps it.
 */

export interface HealthProfile {
  /** Pages measured into the profile since it was (re)started. */
  pages: number;
  /** Per metric, the last `window` pages' values and their noise, oldest first. */
  metrics: Record<MetricName, { values: number[]; noise: number[]; spread: number[] }>;
}

export interface DriftOptions {
  /** Pages kept per metric. */
  window: number;
  /**
   * A page lies outside the profile when one metric is further than this many standard deviations on its bad
   * side. 3.5 σ: one-sided, a normal metric passes it with probability 2.3 × 10⁻⁴, so a page of seven metrics
   * about once in 600 pages (Bonferroni). It is a screen, not the verdict: a page outside is read again by a
   * wrapper learned on it (`HealthMonitor`), and drifts only when that reading disagrees.
   */
  zLimit: number;
}

export const DEFAULT_DRIFT: DriftOptions = { window: 50, zLimit: 3.5 };

export function emptyProfile(): HealthProfile {
  return {
    pages: 0,
    metrics: Object.fromEntries(METRICS.map((m) => [m, { values: [], noise: [], spread: [] }])) as unknown as HealthProfile["metrics"],
  };
}

/** The profile with one more page read well. */
export function addPage(profile: HealthProfile, page: PageMetrics, options: DriftOptions = DEFAULT_DRIFT): HealthProfile {
  const metrics = { ...profile.metrics };
  for (const m of METRICS) {
    if (page.missing.includes(m)) continue;
    const keep = (xs: number[], x: number) => [...xs, x].slice(-options.window);
    const old = profile.metrics[m];
    metrics[m] = {
      values: keep(old.values, page.values[m]),
      noise: keep(old.noise, page.noise[m]),
      spread: keep(old.spread, page.spread[m]),
    };
  }
  return { pages: profile.pages + 1, metrics };
}

export interface MetricScore {
  value: number;
  /** The profile's median. */
  center: number;
  /** The standard deviation the distance is measured in. */
  scale: number;
  /** Signed distance in standard deviations (positive: above the median). */
  z: number;
  /** The distance on the metric's bad side (0 when the page is on its good side). */
  bad: number;
}

export interface DriftAssessment {
  drift: boolean;
  /** The largest bad-side distance and its metric (null when no metric could be compared). */
  worst: { metric: MetricName; bad: number } | null;
  scores: Partial<Record<MetricName, MetricScore>>;
}

/** How far the page lies from the profile, per metric, and whether it drifted. A profile without pages judges nothing. */
export function assessPage(profile: HealthProfile, page: PageMetrics, options: DriftOptions = DEFAULT_DRIFT): DriftAssessment {
  const scores: Partial<Record<MetricName, MetricScore>> = {};
  let worst: DriftAssessment["worst"] = null;
  for (const m of METRICS) {
    const { values, noise, spread } = profile.metrics[m];
    if (values.length === 0 || page.missing.includes(m)) continue;
    const center = median(values);
    // The spread between the profile's pages already holds their sampling noise; before there are pages enough to
    // show it, the spread within pages and the noise of the profile's pages and of this one stand in for it, as one
    // page's worth of evidence.
    const between = 1.4826 * median(values.map((v) => Math.abs(v - center)));
    const k = values.length - 1;
    const prior = median(spread) ** 2 + median(noise) ** 2 + page.noise[m] ** 2;
    // A prediction, not a confidence interval: the profile's median is itself only known to ±σ/√n.
    const scale = Math.sqrt(((k * between ** 2 + prior) / (k + 1)) * (1 + 1 / values.length));
    const value = page.values[m];
    const z = scale > 0 ? (value - center) / scale : value === center ? 0 : Math.sign(value - center) * Number.POSITIVE_INFINITY;
    const bad = METRIC_DIRECTION[m] === "both" ? Math.abs(z) : Math.max(0, -z);
    scores[m] = { value, center, scale, z, bad };
    if (!worst || bad > worst.bad) worst = { metric: m, bad };
  }
  return { drift: worst !== null && worst.bad > options.zLimit, worst, scores };
}
