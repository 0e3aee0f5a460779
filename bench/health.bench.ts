/**
 * Issue 30's replay: does the health monitor notice when a wrapper silently stops reading an engine's pages?
 * For each set of ../shared/data/serps (aql, aql-more, modern, sites), each engine's pages are replayed in
 * capture order with the wrapper learned on its first page (never re-learned) and the health profile built as
 * it goes. A "break" is a page where that wrapper's records score below F 0.8 against the expected records
 * (titles matched as score_dev.py does); a run of broken pages in a row is one break, caught when a page of it
 * is refused (a layout mismatch: the harvest re-learns) or flagged as drift, after that many pages. A flag on a
 * page read well (F ≥ 0.8) is a false alarm. Engines whose wrapper reads its own sample below 0.8 give the
 * profile a broken start: they are listed apart, not counted. BENCH_EXCLUDE=test/holdout.md drops the held-out
 * pages; HEALTH_VERBOSE=1 prints every page.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatTable } from "../src/cli/output.js";
import { scores } from "../src/eval/index.js";
import { type GoldPage, loadGoldPages, matchTitles, normaliseTitle } from "../src/wrapper/index.js";
import { DEFAULT_HEALTH, HealthMonitor } from "../src/health/index.js";
import { extractRecords, learnOnPage, learnWrapper, pageQuery, readsWell, type Wrapper } from "../src/wrapper/index.js";

const SERPS = join(import.meta.dirname, "..", "..", "shared", "data", "serps");
const SETS = ["aql", "aql-more", "modern", "sites"];
const BREAK_F = 0.8;
const VERBOSE = process.env.HEALTH_VERBOSE === "1";
const ALL_STARTS = process.env.HEALTH_STARTS === "all";

interface PageOutcome {
  file: string;
  f: number;
  status: string;
  broken: boolean;
  flagged: "refused" | "drift" | null;
  worst: string;
  /** The monitor asked for a re-learned wrapper's reading of the page (the screen's cost). */
  secondLook: boolean;
}

export interface SetFigures {
  set: string;
  engines: number;
  pages: number;
  breaks: number;
  caught: number;
  /** Pages from a break's first page to its first flag (1: flagged on the first broken page), per caught break. */
  delays: number[];
  /** Of the caught breaks, those caught by a drift flag (not by the wrapper refusing the page). */
  byDrift: number;
  falseAlarms: number;
  /** Pages read well after the first (the false-alarm rate's denominator). */
  goodPages: number;
  brokenStart: string[];
  /** Pages the monitor read again with a re-learned wrapper. */
  secondLooks: number;
}

function titleF(records: ReadonlyArray<{ title: string }>, gold: readonly string[]): number {
  const c = matchTitles(
    records.map((r) => normaliseTitle(r.title)),
    gold.map(normaliseTitle),
  );
  return scores(c).f1;
}

function learn(page: GoldPage): Wrapper | null {
  try {
    return learnWrapper(page.seq, { engine: page.engine, ...(page.url ? { pageUrl: page.url } : {}) });
  } catch {
    return null;
  }
}

/** One engine's pages in capture order: the outcome of each page after the first. */
export function replayEngine(pages: readonly GoldPage[]): { sampleF: number; outcomes: PageOutcome[] } | null {
  const [first, ...rest] = pages;
  const wrapper = first ? learn(first) : null;
  if (!first || !wrapper) return null;
  const monitor = new HealthMonitor(undefined, DEFAULT_HEALTH);
  const read = (page: GoldPage) => extractRecords(wrapper, page.seq, page.url ? { pageUrl: page.url } : {});
  const sample = read(first);
  monitor.accept(monitor.judge({ records: sample.records, template: sample.match?.template ?? null, query: pageQuery(first.seq) }).metrics);
  const outcomes = rest.map((page): PageOutcome => {
    const r = read(page);
    const f = titleF(r.records, page.titles);
    let flagged: PageOutcome["flagged"] = null;
    let worst = "";
    let secondLook = false;
    // Refused: a layout mismatch (no records). A reading of too few records (`readsWell`) is not a flag: the harvest
    // re-learns on such a page, but keeps the reading silently when the re-learned wrapper finds no more.
    if (r.status === "mismatch") flagged = "refused";
    else {
      const query = pageQuery(page.seq);
      // The monitor's second look at a page outside the profile: a wrapper learned on the page itself (the replay's
      // own wrapper stays the first page's).
      const relearn = () => {
        secondLook = true;
        const fresh = learnOnPage(page.seq, { engine: page.engine, ...(page.url ? { pageUrl: page.url } : {}) });
        return fresh ? { records: fresh.result.records, template: fresh.result.match?.template ?? null, query } : null;
      };
      const v = monitor.observe({ records: r.records, template: r.match?.template ?? null, query }, relearn, !readsWell(wrapper, r));
      // A drift the re-learned wrapper fixes is flagged too: the replay's wrapper is not replaced.
      if (v.action === "drift" || v.action === "relearned") flagged = "drift";
      const w = v.assessment.worst;
      if (w) worst = `${w.metric} ${w.bad.toFixed(1)}`;
    }
    return { file: page.file, f, status: r.status, broken: f < BREAK_F, flagged, worst, secondLook };
  });
  return { sampleF: titleF(sample.records, first.titles), outcomes };
}

function excluded(): string[] {
  const file = process.env.BENCH_EXCLUDE;
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.replace(/^- /, "").trim())
    .filter((l) => l.endsWith(".html"));
}

export function replaySet(set: string): SetFigures {
  const pages = loadGoldPages(join(SERPS, set), undefined, excluded());
  const byEngine = new Map<string, GoldPage[]>();
  for (const p of pages) byEngine.set(p.engine, [...(byEngine.get(p.engine) ?? []), p]);
  const fig: SetFigures = {
    set,
    engines: 0,
    pages: 0,
    breaks: 0,
    caught: 0,
    delays: [],
    byDrift: 0,
    falseAlarms: 0,
    goodPages: 0,
    brokenStart: [],
    secondLooks: 0,
  };
  for (const [engine, list] of byEngine) {
    // Capture order (stable: pages of one time keep the manifest's order).
    const ordered = list
      .map((p, i) => ({ p, i }))
      .sort((a, b) => (a.p.capturedAt ?? 0) - (b.p.capturedAt ?? 0) || a.i - b.i)
      .map((x) => x.p);
    // HEALTH_STARTS=all: one replay from every page of the engine (the later pages in capture order), for more
    // sequences; by default one from its first page.
    const starts = ALL_STARTS ? ordered.map((_, i) => i).slice(0, -1) : [0];
    for (const start of starts) {
      const r = replayEngine(ordered.slice(start));
      if (!r) continue;
      const name = ALL_STARTS ? `${engine}@${start + 1}` : engine;
      if (r.sampleF < BREAK_F) fig.brokenStart.push(`${name} (F ${r.sampleF.toFixed(2)})`);
      else tally(fig, engine, r.outcomes, set);
    }
  }
  return fig;
}

/** One replayed sequence into the set's figures. */
function tally(fig: SetFigures, engine: string, outcomes: readonly PageOutcome[], set: string): void {
  fig.engines++;
  fig.pages += outcomes.length + 1;
  let run: PageOutcome[] = [];
  const closeRun = () => {
    if (run.length === 0) return;
    fig.breaks++;
    const at = run.findIndex((o) => o.flagged !== null);
    if (at >= 0) {
      fig.caught++;
      fig.delays.push(at + 1);
      if (run[at]!.flagged === "drift") fig.byDrift++;
    } else if (process.env.HEALTH_VERBOSE === "missed") {
      console.log(
        `missed: ${set} ${engine}: ${run.map((o) => `${o.file.split("/").pop()} F=${o.f.toFixed(2)} ${o.status} ${o.worst}`).join("; ")}`,
      );
    }
    run = [];
  };
  fig.secondLooks += outcomes.filter((o) => o.secondLook).length;
  for (const o of outcomes) {
    if (VERBOSE)
      console.log(`${set}\t${engine}\t${o.file.split("/").pop()}\tF=${o.f.toFixed(2)}\t${o.status}\t${o.flagged ?? "-"}\t${o.worst}`);
    if (o.broken) run.push(o);
    else {
      closeRun();
      fig.goodPages++;
      if (o.flagged) fig.falseAlarms++;
    }
  }
  closeRun();
}

export async function run(): Promise<void> {
  const rows: Array<Array<string | number>> = [
    [
      "set",
      ALL_STARTS ? "sequences" : "engines",
      "pages",
      "breaks",
      "caught",
      "≤ 3 pages",
      "pages to catch (each)",
      "by drift",
      "good pages",
      "false alarms",
      "per 100 good pages",
      "second looks",
      "sample read < 0.8",
    ],
  ];
  const all: SetFigures[] = [];
  for (const set of SETS) {
    if (!existsSync(join(SERPS, set))) continue;
    const f = replaySet(set);
    all.push(f);
    rows.push(row(f));
  }
  const pooled: SetFigures = {
    set: "pooled",
    engines: 0,
    pages: 0,
    breaks: 0,
    caught: 0,
    delays: [],
    byDrift: 0,
    falseAlarms: 0,
    goodPages: 0,
    brokenStart: [],
    secondLooks: 0,
  };
  for (const f of all) {
    for (const k of ["engines", "pages", "breaks", "caught", "byDrift", "falseAlarms", "goodPages", "secondLooks"] as const)
      pooled[k] += f[k];
    pooled.delays.push(...f.delays);
    pooled.brokenStart.push(...f.brokenStart.map((e) => `${f.set}/${e}`));
  }
  rows.push(row(pooled));
  console.log(formatTable(rows));
  console.log(`\ndrift: a metric beyond ${DEFAULT_HEALTH.zLimit} σ of the profile; break: F < ${BREAK_F}`);
}

function row(f: SetFigures): Array<string | number> {
  const within = f.delays.filter((d) => d <= 3).length;
  return [
    f.set,
    f.engines,
    f.pages,
    f.breaks,
    f.caught,
    within,
    f.delays.join(" ") || "-",
    f.byDrift,
    f.goodPages,
    f.falseAlarms,
    f.goodPages === 0 ? "-" : ((100 * f.falseAlarms) / f.goodPages).toFixed(1),
    f.secondLooks,
    ALL_STARTS ? f.brokenStart.length : f.brokenStart.join(", ") || "-",
  ];
}
