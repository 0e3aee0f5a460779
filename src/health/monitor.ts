import { type PageMetrics, pageMetrics, type PageReading } from "./metrics.js";
import {
  addPage,
  assessPage,
  DEFAULT_DRIFT,
  type DriftAssessment,
  type DriftOptions,
  emptyProfile,
  type HealthProfile,
} from "./profile.js";

/**
 * One engine's watch over its pages, as a harvest (or a replay) reads them: each page read is judged against
 * the profile; a page within it joins the profile. A page outside it is read again by a wrapper learned on the
 * page itself: when that reading agrees with the wrapper's (the same records, F ≥ 0.8 by URL, the bar a
 * "break" is measured against), the wrapper reads the page right and it is the profile that had not seen such a
 * page yet — the page joins it; when the re-learned reading is within the profile, it replaces the wrapper's
 * (the fix); otherwise the page drifted. `stopAfter` drifted pages in a row stop the engine. A re-learned wrapper
 * adopted on a refused page restarts the profile from that page (a new layout has its own figures).
 */

export interface HealthOptions extends DriftOptions {
  /** Drifted pages in a row, none fixed, after which the engine is stopped. */
  stopAfter: number;
}

export const DEFAULT_HEALTH: HealthOptions = { ...DEFAULT_DRIFT, stopAfter: 3 };

export interface HealthVerdict {
  metrics: PageMetrics;
  assessment: DriftAssessment;
  /**
   * What was done: the page joined the profile ("ok"); it lay outside but a re-learned wrapper read the same
   * records, so it joined too ("confirmed"); it drifted and a re-learned wrapper's reading fixed it ("relearned");
   * or it drifted ("drift").
   */
  action: "ok" | "confirmed" | "relearned" | "drift";
  /** Drifted pages in a row, none fixed (0 after a page read well). */
  streak: number;
  /** The engine should stop: `stopAfter` drifted pages in a row. */
  stop: boolean;
}

export class HealthMonitor {
  private streak = 0;

  constructor(
    public profile: HealthProfile = emptyProfile(),
    private readonly options: HealthOptions = DEFAULT_HEALTH,
  ) {}

  /** Judge a page's reading without changing anything. */
  judge(reading: PageReading): { metrics: PageMetrics; assessment: DriftAssessment } {
    const metrics = pageMetrics(reading);
    return { metrics, assessment: assessPage(this.profile, metrics, this.options) };
  }

  /**
   * Watch a page read with the engine's layout (with records, or none though the engine does not say so).
   * `relearn` is asked only for a page outside the profile (or `suspect`): a re-learned wrapper's reading of it
   * (null when none could be learned); it confirms the reading when it finds the same records, and fixes the page
   * when it finds others and is within the profile.
   */
  observe(
    reading: PageReading,
    relearn: () => PageReading | null = () => null,
    /** The caller's own doubt about the reading (the wrapper found far fewer records than on its sample): looked at again whatever the profile says. */
    suspect = false,
  ): HealthVerdict & { fix: PageReading | null } {
    const { metrics, assessment } = this.judge(reading);
    if (!assessment.drift && !suspect) {
      // A page read without records never joins the profile (which describes pages with records).
      if (reading.records.length > 0) this.accept(metrics);
      else this.streak = 0;
      return { metrics, assessment, action: "ok", streak: 0, stop: false, fix: null };
    }
    const fresh = relearn();
    if (fresh && reading.records.length > 0 && sameRecords(reading, fresh)) {
      this.accept(metrics);
      return { metrics, assessment, action: "confirmed", streak: 0, stop: false, fix: null };
    }
    if (fresh && fresh.records.length > 0) {
      const judged = this.judge(fresh);
      if (!judged.assessment.drift) {
        this.accept(judged.metrics);
        return { metrics, assessment, action: "relearned", streak: 0, stop: false, fix: fresh };
      }
    }
    if (!assessment.drift) {
      // Doubted by the caller but within the profile, and no re-learned reading to put in its place: it stands.
      if (reading.records.length > 0) this.accept(metrics);
      return { metrics, assessment, action: "ok", streak: this.streak, stop: false, fix: null };
    }
    if (onlyTheCount(assessment, this.options.zLimit) && !(fresh && fresh.records.length > reading.records.length)) {
      // Only the count is off and no wrapper reads more from the page: a short list (the last page of a query, a
      // rare query), not a break. It stands without joining the profile (a short page would blunt the count).
      this.streak = 0;
      return { metrics, assessment, action: "ok", streak: 0, stop: false, fix: null };
    }
    this.streak++;
    return { metrics, assessment, action: "drift", streak: this.streak, stop: this.streak >= this.options.stopAfter, fix: null };
  }

  /** A page read well joins the profile. */
  accept(metrics: PageMetrics): void {
    this.profile = addPage(this.profile, metrics, this.options);
    this.streak = 0;
  }

  /** A new wrapper (re-learned on a refused page, or as a drift's fix): the profile starts again from its page. */
  restart(metrics: PageMetrics | null): void {
    this.profile = metrics ? addPage(emptyProfile(), metrics, this.options) : emptyProfile();
    this.streak = 0;
  }
}

/** The share of records two readings have in common (by URL) is at least AGREEMENT of each (F ≥ AGREEMENT). */
export const AGREEMENT = 0.8;

export function sameRecords(a: PageReading, b: PageReading): boolean {
  const urls = new Set(a.records.map((r) => r.url));
  const common = b.records.filter((r) => urls.has(r.url)).length;
  const total = a.records.length + b.records.length;
  return total > 0 && (2 * common) / total >= AGREEMENT;
}

/** Whether the record count is the only metric beyond the limit. */
function onlyTheCount(a: DriftAssessment, zLimit: number): boolean {
  return Object.entries(a.scores).every(([m, sc]) => m === "records" || sc.bad <= zLimit);
}
