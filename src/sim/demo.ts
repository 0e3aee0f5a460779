import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { exportCorpus } from "../export/index.js";
import { defaultScorer, fetchBilingualPages } from "../extract/index.js";
import { EN_ZH } from "../language-pair.js";
import { resourcePath } from "../paths.js";
import { SerpDriver } from "../serp/index.js";
import { loadEngine, wrapperFilePath, writeDefinition } from "../serp/index.js";
import type { HarvestEvent, HarvestStats } from "../serp/index.js";
import { learnWrapperLive } from "../serp/index.js";
import { queryText, readQueryFile } from "../serp/index.js";
import { type HarvestRunResult, runHarvest } from "../serp/index.js";
import { writeReport } from "../report/index.js";
import { countRecords, listRecords, type StoredRecord, withStore } from "../store/index.js";
import { UserError } from "../errors.js";
import { relocated, stageDemoFolder } from "./demo-folder.js";
import { type FaultRule, parseFaults } from "./faults.js";
import { type Simulator, startSimulator } from "./server.js";

/**
 * `bitext demo`: the main job, offline, against the local engine simulator — as a list of steps,
 * each printing what it did, so later stages (fetching the linked pages, extracting sentence pairs,
 * exporting the corpus) join as further steps.
 */

/** Faults the demo injects by default, so a run shows how blocks, resets and a redesign are handled. */
export const DEMO_FAULTS = "sim-div:429@3:2000,sim-list:reset@4,sim-table:layout-switch@8";

export interface DemoOptions {
  /** Folder for the demo's store, wrapper files and corpus (replaced as a whole when a demo succeeds). */
  dir: string;
  queries: string;
  pages: number;
  concurrency: number;
  faults: readonly FaultRule[];
  port?: number;
  chromium?: string;
}

export interface DemoContext {
  options: DemoOptions;
  /** Where the demo's folder will be once it succeeds (`options.dir` is the staging folder it is built in). */
  finalDir: string;
  sim: Simulator;
  driver: SerpDriver;
  db: string;
  wrappersDir: string;
  engines: string[];
  /** Print a line of the demo's report. */
  say(line: string): void;
  onHarvestEvent?: (e: HarvestEvent) => void;
  onHarvestProgress?: (s: HarvestStats) => void;
  /** The number of linked pages the fetch step will fetch, then one call per page done. */
  onPagesTotal?: (n: number) => void;
  onPageDone?: () => void;
  /** What each step produced, by step id (the JSON report). */
  results: Record<string, unknown>;
}

export interface DemoStep {
  id: string;
  title: string;
  run(ctx: DemoContext): Promise<void>;
}

export function defaultDemoOptions(): DemoOptions {
  return {
    dir: join("data", "demo"),
    queries: resourcePath("queries", "demo.tsv"),
    pages: 2,
    concurrency: 3,
    faults: parseFaults(DEMO_FAULTS),
  };
}

const learnWrappers: DemoStep = {
  id: "wrappers",
  title: "Learn a record wrapper per engine from one sample result page",
  async run(ctx) {
    const sample = readQueryFile(ctx.options.queries)[0];
    const query = sample ? queryText(sample) : undefined;
    const out: Array<{ engine: string; records: number; file: string }> = [];
    for (const engine of ctx.engines) {
      const setup = loadEngine(ctx.wrappersDir, engine);
      // The preview (records outlined on the sample page) is the report's screenshot.
      const preview = join(ctx.wrappersDir, `${engine}.preview.png`);
      const r = await learnWrapperLive({
        definition: setup.definition,
        file: setup.file,
        driver: ctx.driver,
        preview,
        ...(query ? { query } : {}),
      });
      ctx.say(`  ${engine}: ${r.records.length} records on the sample page → ${r.file} (sample ${r.sampleFile})`);
      out.push({ engine, records: r.records.length, file: r.file });
    }
    ctx.results[this.id] = out;
  },
};

const harvestQueries: DemoStep = {
  id: "harvest",
  title: "Harvest the demo queries from every engine",
  async run(ctx) {
    const r: HarvestRunResult = await runHarvest({
      queryFiles: [ctx.options.queries],
      engines: ctx.engines,
      db: ctx.db,
      wrappersDir: ctx.wrappersDir,
      pages: ctx.options.pages,
      concurrency: ctx.options.concurrency,
      maxAgeMs: 0,
      driver: ctx.driver,
      backoff: { baseMs: 300, maxMs: 3000 },
      breaker: { threshold: 3, cooldownMs: 2000, maxTrips: 2 },
      runOptions: { demo: true },
      ...(ctx.onHarvestEvent ? { onEvent: ctx.onHarvestEvent } : {}),
      ...(ctx.onHarvestProgress ? { onProgress: ctx.onHarvestProgress } : {}),
    });
    ctx.results[this.id] = r;
    ctx.say(
      `  ${r.fetched} result pages fetched: ${r.ok} with records, ${r.empty} empty, ${r.blocked} blocked, ${r.errors} errors; ` +
        `${r.relearned} wrapper(s) re-learned; ${r.newRecords} records stored in ${ctx.db}`,
    );
    for (const [engine, e] of Object.entries(r.engines)) {
      ctx.say(
        `  ${engine}: ${e.newRecords} records from ${e.ok} pages (blocked ${e.blocked}, errors ${e.errors}, re-learned ${e.relearned})`,
      );
    }
    ctx.say(
      r.model
        ? `  records classified as they were stored, with ${r.model}`
        : "  no classifier model yet (models/default.json): records stored unclassified",
    );
  },
};

const showCandidates: DemoStep = {
  id: "candidates",
  title: "Bilingual candidates (records the classifier thinks link to bilingual pages)",
  async run(ctx) {
    const { bilingual, counts } = await withStore(ctx.db, async (store) => {
      const bilingual = await listRecords(store, { label: "bilingual" });
      const counts = {
        bilingual: bilingual.length,
        monolingual: await countRecords(store, { label: "monolingual" }),
        unclassified: await countRecords(store, { label: "unclassified" }),
      };
      return { bilingual, counts };
    });
    if (counts.bilingual + counts.monolingual === 0) {
      ctx.say("  (skipped: records are unclassified — train or install a model (models/default.json), then run the demo again)");
      ctx.results[this.id] = { counts, top: [] };
      return;
    }
    // One line per linked page: the same page is found by several engines and queries.
    const byUrl = new Map<string, { record: StoredRecord; sightings: number }>();
    for (const r of bilingual) {
      const seen = byUrl.get(r.url);
      if (!seen) byUrl.set(r.url, { record: r, sightings: 1 });
      else {
        seen.sightings++;
        if ((r.probability ?? 0) > (seen.record.probability ?? 0)) seen.record = r;
      }
    }
    const top = [...byUrl.values()]
      .sort((a, b) => (b.record.probability ?? 0) - (a.record.probability ?? 0) || b.sightings - a.sightings)
      .slice(0, 10);
    ctx.say(
      `  ${counts.bilingual} records labelled bilingual (${byUrl.size} distinct links), ${counts.monolingual} monolingual, ${counts.unclassified} unclassified`,
    );
    for (const { record: r, sightings } of top) {
      ctx.say(`  ${(r.probability ?? 0).toFixed(2)}  ×${sightings}  ${r.title.slice(0, 50)}  ${r.url}`);
    }
    ctx.results[this.id] = {
      counts,
      top: top.map(({ record: r, sightings }) => ({ url: r.url, title: r.title, probability: r.probability, sightings })),
    };
  },
};

const fetchPages: DemoStep = {
  id: "pages",
  title: "Fetch the bilingual candidates' pages and extract their sentence pairs (feng2011)",
  async run(ctx) {
    // Every linked page is on the local simulator: a short per-host delay keeps the demo quick.
    const r = await withStore(ctx.db, (store) =>
      fetchBilingualPages(store, {
        fetcherOptions: { delayMs: 20 },
        ...(ctx.onPagesTotal ? { onTotal: ctx.onPagesTotal } : {}),
        ...(ctx.onPageDone ? { onPage: () => ctx.onPageDone?.() } : {}),
      }),
    );
    ctx.results[this.id] = {
      urls: r.urls,
      fetched: r.fetched,
      alreadyStored: r.alreadyStored,
      skipped: r.skipped,
      failed: r.failed,
      pairs: r.pairs,
    };
    ctx.say(`  ${r.urls} linked pages of ${r.records} bilingual records: ${pageCounts(r)}; ${r.pairs} sentence pairs extracted`);
    // Each page once, under its own URL (a result link is often the engine's redirect to it).
    const best = new Map<string, number>();
    for (const page of r.pages) {
      const url = page.finalUrl ?? page.url;
      best.set(url, Math.max(best.get(url) ?? 0, page.pairs));
    }
    for (const [url, pairs] of [...best].sort((a, b) => b[1] - a[1]).slice(0, 3)) ctx.say(`  ${pairs} pairs  ${url}`);
  },
};

/** "83 fetched, 80 already stored (…), 0 skipped, 0 failed": every linked page accounted for. */
function pageCounts(r: { fetched: number; alreadyStored: number; skipped: number; failed: number }): string {
  const parts = [`${r.fetched} fetched`];
  if (r.alreadyStored > 0) parts.push(`${r.alreadyStored} already stored (another link led to the same page)`);
  if (r.skipped > 0) parts.push(`${r.skipped} skipped (cannot be processed)`);
  parts.push(`${r.failed} failed`);
  return parts.join(", ");
}

const exportTheCorpus: DemoStep = {
  id: "corpus",
  title: "Export the corpus (every pair scored; deduplicated, every source URL kept)",
  async run(ctx) {
    const prefix = join(ctx.options.dir, "corpus");
    const rejected = `${prefix}.rejected.jsonl`;
    const r = await withStore(ctx.db, (store) =>
      exportCorpus(store, { format: "tsv", out: prefix, rejected, scorer: defaultScorer(EN_ZH) }),
    );
    const file = r.files[0]?.path ?? `${prefix}.tsv`;
    ctx.results[this.id] = { pairs: r.pairs, multiSource: r.multiSource, file, rejected: r.rejected, rejectedByReason: r.rejectedByReason };
    ctx.say(`  ${r.pairs} distinct sentence pairs kept (${r.multiSource} found on several pages) → ${file}`);
    const reasons = Object.entries(r.rejectedByReason)
      .sort((a, b) => b[1] - a[1])
      .map(([reason, n]) => `${reason} ${n}`);
    ctx.say(`  ${r.rejected} rejected by the pair scorer${reasons.length ? ` (${reasons.join(", ")})` : ""} → ${rejected}`);
    const lines = (r.files[0]?.content ?? "").split("\n").slice(1, 4).filter(Boolean);
    for (const line of lines) {
      const [source, en, zh] = line.split("\t");
      ctx.say(`  ${en}  ⇄  ${zh}   (${source?.split(" ")[0]})`);
    }
  },
};

const writeTheReport: DemoStep = {
  id: "report",
  title: "Write the run report (one HTML page: charts and tables of the run)",
  async run(ctx) {
    const out = join(ctx.options.dir, "report.html");
    // The store is named where it will be once the demo is swapped in, not in the staging folder it is built in.
    const storeLabel = join(ctx.finalDir, "bitext.db");
    const r = await withStore(ctx.db, (store) => writeReport(store, out, { screenshotDirs: [ctx.wrappersDir], storeLabel }));
    ctx.results[this.id] = { file: r.out, charts: r.charts, drifts: r.data.drifts.length };
    ctx.say(`  ${r.charts.length} charts, ${r.data.screenshots.length} screenshots, ${r.data.drifts.length} drift event(s) → ${r.out}`);
  },
};

/** The demo's steps, in order: the whole pipeline, from wrappers to a corpus file and the run's report. */
export const DEMO_STEPS: DemoStep[] = [learnWrappers, harvestQueries, showCandidates, fetchPages, exportTheCorpus, writeTheReport];

export interface DemoReport {
  origin: string;
  db: string;
  wrappersDir: string;
  results: Record<string, unknown>;
}

/**
 * Run the demo: start the simulator (loopback only), write the simulated engines' definitions into a
 * fresh demo folder, run every step, stop the simulator. `keepServing` hands the simulator back open.
 */
export async function runDemo(
  options: DemoOptions,
  hooks: { say: (line: string) => void; step?: (index: number, total: number, step: DemoStep) => void } & Pick<
    DemoContext,
    "onHarvestEvent" | "onHarvestProgress" | "onPagesTotal" | "onPageDone"
  >,
): Promise<DemoReport> {
  // The query list is read before anything starts: a bad one stops the demo with the previous one intact.
  if (readQueryFile(options.queries).length === 0) throw new UserError(`${options.queries}: no queries (only comments or blank lines)`);
  // A fresh demo each time (the simulator's port is part of every URL), built beside the last one and swapped in at the end.
  const folder = stageDemoFolder(options.dir);
  const wrappersDir = join(folder.staging, "wrappers");
  const db = join(folder.staging, "bitext.db");
  mkdirSync(wrappersDir, { recursive: true });
  const shown = (line: string) => hooks.say(relocated(line, folder.staging, folder.dir));

  const sim = await startSimulator({ faults: options.faults, ...(options.port !== undefined ? { port: options.port } : {}) }).catch(
    (err: unknown) => {
      folder.discard();
      throw err;
    },
  );
  let driver: SerpDriver | null = null;
  let done = false;
  try {
    // The demo harvests the three plain engines; the hard ones (consent, script, strict agent, proxy-only) are for `bitext sim`.
    const plain = sim.engines.filter((e) => e.spec.trait === "plain");
    for (const e of plain) writeDefinition(wrapperFilePath(wrappersDir, e.spec.name), e.spec.name, e.definition);
    driver = await SerpDriver.start({ ...(options.chromium ? { executablePath: options.chromium } : {}), timeoutMs: 10_000 });
    const ctx: DemoContext = {
      options: { ...options, dir: folder.staging },
      finalDir: folder.dir,
      sim,
      driver,
      db,
      wrappersDir,
      engines: plain.map((e) => e.spec.name),
      say: shown,
      ...(hooks.onHarvestEvent ? { onHarvestEvent: (e) => hooks.onHarvestEvent?.(relocated(e, folder.staging, folder.dir)) } : {}),
      ...(hooks.onHarvestProgress ? { onHarvestProgress: hooks.onHarvestProgress } : {}),
      ...(hooks.onPagesTotal ? { onPagesTotal: hooks.onPagesTotal } : {}),
      ...(hooks.onPageDone ? { onPageDone: hooks.onPageDone } : {}),
      results: {},
    };
    shown(
      `Local engine simulator on ${sim.origin}: ${plain.map((e) => e.spec.name).join(", ")} · ${sim.collection.pages.length} pages (Tatoeba sentences, CC-BY 2.0 FR)`,
    );
    for (const [i, step] of DEMO_STEPS.entries()) {
      hooks.step?.(i + 1, DEMO_STEPS.length, step);
      await step.run(ctx);
    }
    folder.commit();
    done = true;
    return relocated({ origin: sim.origin, db, wrappersDir, results: ctx.results }, folder.staging, folder.dir);
  } finally {
    await driver?.close();
    await sim.close();
    if (!done) folder.discard();
  }
}
