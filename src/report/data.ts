import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { median } from "../stats.js";
import {
  countDriftEventsByRun,
  type DriftEvent,
  type LabelCount,
  listDriftEvents,
  listFetches,
  listRuns,
  listWrapperVersions,
  type PairOutcomes,
  pairOutcomes,
  recordLabelCounts,
  type Run,
  type StoredFetch,
  type Store,
  type WrapperVersion,
} from "../store/index.js";

/**
 * Everything `bitext report` shows, read from the store in one pass: what happened per engine over time, the
 * wrappers learned and the drifts, classifier labels, sentence pairs kept and rejected, the slowest and the
 * failing pages, and the screenshots found beside (PNG previews of records outlined on a result page).
 */

export interface TimePoint {
  engine: string;
  /** Start of the time bucket (ISO). */
  at: string;
  pages: number;
  records: number;
  blocks: number;
  errors: number;
}

export interface EngineSummary {
  engine: string;
  pages: number;
  ok: number;
  empty: number;
  blocked: number;
  errors: number;
  records: number;
  wrappersLearned: number;
  drifts: number;
  medianMs: number;
}

export interface TimelineEvent {
  engine: string;
  at: string;
  /** "wrapper learned", "wrapper version", or a drift's action ("drift", "relearned", "stopped"). */
  kind: string;
  detail: string;
}

export interface PageLine {
  engine: string;
  url: string;
  status: string;
  durationMs: number;
  at: string;
  detail: string;
}

export interface FailureGroup {
  engine: string;
  status: string;
  reason: string;
  pages: number;
  lastUrl: string;
  lastAt: string;
}

export interface Screenshot {
  name: string;
  /** `data:image/png;base64,…` */
  dataUri: string;
}

export interface ReportData {
  store: string;
  generatedAt: string;
  runs: Array<Run & { drifts: number }>;
  engines: EngineSummary[];
  /** Bucket width of the timeline, in words ("1 min"). */
  bucket: string;
  timeline: TimePoint[];
  events: TimelineEvent[];
  drifts: DriftEvent[];
  wrapperVersions: WrapperVersion[];
  labels: LabelCount[];
  pairs: PairOutcomes;
  slowest: PageLine[];
  /** Every page's time (load and interpretation), for the distribution per engine. */
  durations: Array<{ engine: string; ms: number }>;
  failing: FailureGroup[];
  screenshots: Screenshot[];
}

export interface GatherOptions {
  /** Folders to take PNG screenshots from (each file at most `MAX_SCREENSHOT_BYTES`). */
  screenshotDirs?: readonly string[];
  /** Slowest pages and failure groups listed (default 10). */
  top?: number;
  /** What the report calls its store (default: the store's path), e.g. where it will be once moved. */
  storeLabel?: string;
}

const MAX_SCREENSHOTS = 6;
const MAX_SCREENSHOT_BYTES = 3 * 1024 * 1024;

export async function gatherReport(store: Store, options: GatherOptions = {}): Promise<ReportData> {
  const top = options.top ?? 10;
  const fetches = await listFetches(store);
  const drifts = await listDriftEvents(store);
  const driftsByRun = await countDriftEventsByRun(store);
  const runs = await listRuns(store, 1000);
  const wrapperVersions = await listWrapperVersions(store);
  const labels = await recordLabelCounts(store);
  const pairs = await pairOutcomes(store);
  const { bucketMs, words } = bucketFor(fetches.map((f) => Date.parse(f.startedAt)));
  return {
    store: options.storeLabel ?? store.path,
    generatedAt: new Date().toISOString(),
    runs: runs.map((r) => ({ ...r, drifts: driftsByRun.get(r.id) ?? 0 })),
    engines: engineSummaries(fetches, drifts),
    bucket: words,
    timeline: timeline(fetches, bucketMs),
    events: [
      ...fetches
        .filter((f) => f.wrapperLearnedAt !== null)
        .map((f) => ({ engine: f.engine, at: f.startedAt, kind: "wrapper learned", detail: f.detail ?? "" })),
      ...drifts.map((d) => ({ engine: d.engine, at: d.detectedAt, kind: d.action, detail: reasonOf(d) })),
    ].sort((a, b) => a.at.localeCompare(b.at)),
    drifts,
    wrapperVersions,
    labels,
    pairs,
    slowest: [...fetches]
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, top)
      .map(pageLine),
    durations: fetches.map((f) => ({ engine: f.engine, ms: f.durationMs })),
    failing: failureGroups(fetches).slice(0, top),
    screenshots: screenshots(options.screenshotDirs ?? []),
  };
}

function reasonOf(d: DriftEvent): string {
  const m = d.metrics as { reason?: unknown } | null;
  return typeof m?.reason === "string" ? m.reason : "";
}

function pageLine(f: StoredFetch): PageLine {
  return { engine: f.engine, url: f.url, status: f.status, durationMs: f.durationMs, at: f.startedAt, detail: f.detail ?? "" };
}

function engineSummaries(fetches: readonly StoredFetch[], drifts: readonly DriftEvent[]): EngineSummary[] {
  const by = new Map<string, StoredFetch[]>();
  for (const f of fetches) {
    const list = by.get(f.engine);
    if (list) list.push(f);
    else by.set(f.engine, [f]);
  }
  return [...by]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([engine, fs]) => ({
      engine,
      pages: fs.length,
      ok: fs.filter((f) => f.status === "ok").length,
      empty: fs.filter((f) => f.status === "empty").length,
      blocked: fs.filter((f) => f.status === "blocked").length,
      errors: fs.filter((f) => f.status === "error").length,
      records: fs.reduce((s, f) => s + f.recordCount, 0),
      wrappersLearned: fs.filter((f) => f.wrapperLearnedAt !== null).length,
      drifts: drifts.filter((d) => d.engine === engine).length,
      medianMs: Math.round(median(fs.map((f) => f.durationMs))),
    }));
}

const BUCKETS: ReadonlyArray<[number, string]> = [
  [1000, "1 s"],
  [5000, "5 s"],
  [15_000, "15 s"],
  [60_000, "1 min"],
  [5 * 60_000, "5 min"],
  [15 * 60_000, "15 min"],
  [3_600_000, "1 h"],
  [6 * 3_600_000, "6 h"],
  [86_400_000, "1 day"],
  [7 * 86_400_000, "1 week"],
  [30 * 86_400_000, "30 days"],
];

/** The narrowest bucket that spreads the fetches over at most 60 buckets. */
export function bucketFor(times: readonly number[]): { bucketMs: number; words: string } {
  const valid = times.filter(Number.isFinite);
  const span = valid.length === 0 ? 0 : Math.max(...valid) - Math.min(...valid);
  const [bucketMs, words] = BUCKETS.find(([ms]) => span / ms <= 60) ?? BUCKETS[BUCKETS.length - 1]!;
  return { bucketMs, words };
}

function timeline(fetches: readonly StoredFetch[], bucketMs: number): TimePoint[] {
  const points = new Map<string, TimePoint>();
  for (const f of fetches) {
    const t = Date.parse(f.startedAt);
    if (!Number.isFinite(t)) continue;
    const at = new Date(Math.floor(t / bucketMs) * bucketMs).toISOString();
    const key = `${f.engine}\u0000${at}`;
    let p = points.get(key);
    if (!p) {
      p = { engine: f.engine, at, pages: 0, records: 0, blocks: 0, errors: 0 };
      points.set(key, p);
    }
    p.pages++;
    p.records += f.recordCount;
    if (f.status === "blocked") p.blocks++;
    if (f.status === "error") p.errors++;
  }
  return [...points.values()].sort((a, b) => a.at.localeCompare(b.at) || a.engine.localeCompare(b.engine));
}

/** Failed pages (blocked, error) grouped by engine and reason, the reason with its URLs and numbers blanked. */
function failureGroups(fetches: readonly StoredFetch[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const f of fetches) {
    if (f.status !== "blocked" && f.status !== "error") continue;
    const reason = (f.detail ?? "")
      .replace(/https?:\/\/\S+/g, "URL")
      .replace(/\d+(\.\d+)?/g, "N")
      .slice(0, 160);
    const key = `${f.engine}\u0000${f.status}\u0000${reason}`;
    const g = groups.get(key);
    if (g) {
      g.pages++;
      g.lastUrl = f.url;
      g.lastAt = f.startedAt;
    } else groups.set(key, { engine: f.engine, status: f.status, reason, pages: 1, lastUrl: f.url, lastAt: f.startedAt });
  }
  return [...groups.values()].sort((a, b) => b.pages - a.pages || a.engine.localeCompare(b.engine));
}

function screenshots(dirs: readonly string[]): Screenshot[] {
  const out: Screenshot[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.toLowerCase().endsWith(".png") || out.length >= MAX_SCREENSHOTS) continue;
      const path = join(dir, name);
      if (statSync(path).size > MAX_SCREENSHOT_BYTES) continue;
      out.push({ name: basename(name), dataUri: `data:image/png;base64,${readFileSync(path).toString("base64")}` });
    }
  }
  return out;
}
