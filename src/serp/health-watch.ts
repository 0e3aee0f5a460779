import {
  DEFAULT_HEALTH,
  type DriftAssessment,
  type HealthOptions,
  HealthMonitor,
  type HealthProfile,
  type PageReading,
  shownValue,
} from "../health/index.js";
import { type DriftAction, loadEngineHealth, recordDriftEvent, saveEngineHealth, type Store } from "../store/index.js";
import { learnOnPage, readsWell, type Wrapper } from "../wrapper/index.js";
import type { LoadedResultPage, Verdict } from "./interpret.js";

/**
 * The harvest's watch over its engines' health (issue 30): each page read with records is judged against its
 * engine's health profile (kept in the store, so a run starts from what the last one saw). A page outside it is
 * read again by a wrapper learned on the page: a reading that agrees widens the profile, one within the profile
 * replaces the wrapper (saved like any re-learned wrapper), anything else is a drift — stored, printed, counted,
 * and after `stopAfter` in a row the engine is stopped. A wrapper re-learned because the old one refused the page
 * starts the engine's profile again from that page.
 */

export interface DriftReport {
  engine: string;
  action: DriftAction;
  /** What put the page outside the profile, in words. */
  reason: string;
  /** Drifted pages in a row. */
  streak: number;
  assessment: DriftAssessment;
}

export class HealthWatch {
  private readonly monitors = new Map<string, HealthMonitor>();

  constructor(
    private readonly store: Store,
    private readonly options: HealthOptions = DEFAULT_HEALTH,
  ) {}

  private async monitor(engine: string): Promise<HealthMonitor> {
    let m = this.monitors.get(engine);
    if (!m) {
      const stored = await loadEngineHealth(this.store, engine);
      // Another page of the engine may have loaded it meanwhile: keep the first.
      m = this.monitors.get(engine);
      if (m) return m;
      m = new HealthMonitor(stored ? (stored.profile as HealthProfile) : undefined, this.options);
      this.monitors.set(engine, m);
    }
    return m;
  }

  /**
   * Judge a page's verdict (interpretation done, nothing stored yet). Returns the verdict to store — the given
   * one, or the re-learned wrapper's reading when it fixed a drift — and the drift to report, if any.
   */
  async check(
    engine: string,
    page: LoadedResultPage,
    v: Verdict,
    query: string,
    wrapper: Wrapper | null,
  ): Promise<{ verdict: Verdict; drift: DriftReport | null }> {
    const seq = page.seq;
    if (v.status !== "ok" || !seq) return { verdict: v, drift: null };
    const monitor = await this.monitor(engine);
    const reading: PageReading = { records: v.records, template: v.match?.template ?? null, query };
    if (v.learned || v.reused || !wrapper) {
      // A new (or earlier) wrapper for a page the old one refused: its layout's figures start the profile again.
      monitor.restart(monitor.judge(reading).metrics);
      await this.save(engine, monitor);
      return { verdict: v, drift: null };
    }
    let learned: Wrapper | null = null;
    const relearn = (): PageReading | null => {
      const fresh = learnOnPage(seq, { engine, pageUrl: page.observation.finalUrl });
      if (fresh?.result.status !== "ok") return null;
      learned = fresh.wrapper;
      return { records: fresh.result.records, template: fresh.result.match?.template ?? null, query };
    };
    const suspect = !readsWell(wrapper, { status: "ok", records: v.records, detail: v.detail });
    const h = monitor.observe(reading, relearn, suspect);
    await this.save(engine, monitor);
    if (h.action === "ok" || h.action === "confirmed") return { verdict: v, drift: null };
    const reason = driftReason(h.assessment, suspect);
    const report = { engine, reason, streak: h.streak, assessment: h.assessment };
    if (h.action === "relearned" && h.fix && learned) {
      const detail = `wrapper re-learned: the page drifted from ${engine}'s health profile (${reason}); the new wrapper reads ${h.fix.records.length} records within it`;
      return { verdict: { ...v, records: [...h.fix.records], detail, learned, match: null }, drift: { ...report, action: "relearned" } };
    }
    return { verdict: v, drift: { ...report, action: h.stop ? "stopped" : "drift" } };
  }

  /** Store the drift, linked to its run and to the page's fetch. */
  async record(runId: number, fetchId: number | null, d: DriftReport): Promise<void> {
    await recordDriftEvent(this.store, {
      runId,
      fetchId,
      engine: d.engine,
      action: d.action,
      metrics: { reason: d.reason, streak: d.streak, worst: d.assessment.worst, scores: d.assessment.scores },
    });
  }

  private async save(engine: string, m: HealthMonitor): Promise<void> {
    await saveEngineHealth(this.store, engine, m.profile, m.profile.pages);
  }
}

/** "snippetLength 4.2 σ below the profile (median 120.0, this page 8.0)": counts and lengths in records and characters. */
export function driftReason(a: DriftAssessment, suspect: boolean): string {
  const w = a.worst;
  const s = w ? a.scores[w.metric] : undefined;
  if (!w || !s) return suspect ? "far fewer records than the wrapper's sample page" : "outside the profile";
  const side = s.z < 0 ? "below" : "above";
  const words = `${w.metric} ${Math.abs(s.z).toFixed(1)} σ ${side} the profile (median ${shown(w.metric, s.center)}, this page ${shown(w.metric, s.value)})`;
  return a.drift ? words : `far fewer records than the wrapper's sample page; ${words}`;
}

function shown(metric: Parameters<typeof shownValue>[0], v: number): string {
  const x = shownValue(metric, v);
  return metric === "records" || metric.endsWith("Length") ? x.toFixed(1) : x.toFixed(2);
}
