import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { defaultScorer } from "../extract/index.js";
import { EN_ZH } from "../language-pair.js";
import { resourcePath } from "../paths.js";
import { SerpDriver } from "../serp/index.js";
import { loadEngine, wrapperFilePath, writeDefinition } from "../serp/index.js";
import { learnWrapperLive } from "../serp/index.js";
import { queryText, readQueryFile } from "../serp/index.js";
import { PIPELINE_STEPS, type PipelineContext, type PipelineHooks, type PipelineStep, runPipeline } from "../pipeline/index.js";
import { UserError } from "../errors.js";
import { type DemoFolder, relocated, stageDemoFolder } from "./demo-folder.js";
import { type FaultRule, parseFaults } from "./faults.js";
import { type Simulator, startSimulator } from "./server.js";

/**
 * `bitext demo`: the main job, offline, against the local engine simulator. It stages the demo folder,
 * starts the simulator and a browser, and runs the pipeline (`src/pipeline`, the same steps as `bitext
 * pipeline`) after a step of its own that learns each engine's wrapper from a sample page.
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

export function defaultDemoOptions(): DemoOptions {
  return {
    dir: join("data", "demo"),
    queries: resourcePath("queries", "demo.tsv"),
    pages: 2,
    concurrency: 3,
    faults: parseFaults(DEMO_FAULTS),
  };
}

const learnWrappers: PipelineStep = {
  id: "wrappers",
  title: "Learn a record wrapper per engine from one sample result page",
  async run(ctx) {
    // On the simulator every wrapper is learned fresh (the engines' port is part of their URLs).
    const driver = ctx.driver;
    if (!driver) throw new Error("learning wrappers from sample pages needs a started browser");
    const sample = ctx.queryFiles[0] ? readQueryFile(ctx.queryFiles[0])[0] : undefined;
    const query = sample ? queryText(sample) : undefined;
    const out: Array<{ engine: string; records: number; file: string }> = [];
    for (const engine of ctx.engines) {
      const setup = loadEngine(ctx.wrappersDir, engine);
      // The preview (records outlined on the sample page) is the report's screenshot.
      const preview = join(ctx.wrappersDir, `${engine}.preview.png`);
      const r = await learnWrapperLive({ definition: setup.definition, file: setup.file, driver, preview, ...(query ? { query } : {}) });
      ctx.hooks.say(`  ${engine}: ${r.records.length} records on the sample page → ${r.file} (sample ${r.sampleFile})`);
      out.push({ engine, records: r.records.length, file: r.file });
    }
    ctx.results[this.id] = out;
  },
};

/** The demo's steps, in order: its own wrapper learning, then the pipeline, from a harvest to a corpus file and the run's report. */
export const DEMO_STEPS: readonly PipelineStep[] = [learnWrappers, ...PIPELINE_STEPS];

export interface DemoReport {
  origin: string;
  db: string;
  wrappersDir: string;
  results: Record<string, unknown>;
}

/** The caller's hooks: the demo's account (`say`), each step's start and the progress of the long steps. */
export type DemoHooks = Pick<PipelineHooks, "say" | "step" | "onHarvestEvent" | "onHarvestProgress" | "onPagesTotal" | "onPageDone">;

/**
 * Run the demo: start the simulator (loopback only), write the simulated engines' definitions into a
 * fresh demo folder, run the demo's steps, stop the simulator, swap the folder in.
 */
export async function runDemo(options: DemoOptions, hooks: DemoHooks): Promise<DemoReport> {
  // The query list is read before anything starts: a bad one stops the demo with the previous one intact.
  if (readQueryFile(options.queries).length === 0) throw new UserError(`${options.queries}: no queries (only comments or blank lines)`);
  // A fresh demo each time (the simulator's port is part of every URL), built beside the last one and swapped in at the end.
  const folder = stageDemoFolder(options.dir);
  const sim = await startSimulator({ faults: options.faults, ...(options.port !== undefined ? { port: options.port } : {}) }).catch(
    (err: unknown) => {
      folder.discard();
      throw err;
    },
  );
  let driver: SerpDriver | null = null;
  let done = false;
  try {
    driver = await SerpDriver.start({ ...(options.chromium ? { executablePath: options.chromium } : {}), timeoutMs: 10_000 });
    const ctx = demoContext(options, folder, sim, driver, hooks);
    ctx.hooks.say(
      `Local engine simulator on ${sim.origin}: ${ctx.engines.join(", ")} · ${sim.collection.pages.length} pages (Tatoeba sentences, CC-BY 2.0 FR)`,
    );
    await runPipeline(ctx, DEMO_STEPS);
    folder.commit();
    done = true;
    return relocated({ origin: sim.origin, db: ctx.db, wrappersDir: ctx.wrappersDir, results: ctx.results }, folder.staging, folder.dir);
  } finally {
    await driver?.close();
    await sim.close();
    if (!done) folder.discard();
  }
}

/**
 * The pipeline's context on the simulator: the staging folder's store, wrappers (the three plain engines'
 * definitions written there), corpus and report; quick back-off and pacing; every line and event shown
 * with the folder's final path.
 */
function demoContext(options: DemoOptions, folder: DemoFolder, sim: Simulator, driver: SerpDriver, hooks: DemoHooks): PipelineContext {
  const wrappersDir = join(folder.staging, "wrappers");
  mkdirSync(wrappersDir, { recursive: true });
  // The demo harvests the three plain engines; the hard ones (consent, script, strict agent, proxy-only) are for `bitext sim`.
  const plain = sim.engines.filter((e) => e.spec.trait === "plain");
  for (const e of plain) writeDefinition(wrapperFilePath(wrappersDir, e.spec.name), e.spec.name, e.definition);
  const { onHarvestEvent } = hooks;
  return {
    db: join(folder.staging, "bitext.db"),
    wrappersDir,
    engines: plain.map((e) => e.spec.name),
    queryFiles: [options.queries],
    pair: EN_ZH,
    driver,
    harvest: {
      pages: options.pages,
      concurrency: options.concurrency,
      maxAgeMs: 0,
      backoff: { baseMs: 300, maxMs: 3000 },
      breaker: { threshold: 3, cooldownMs: 2000, maxTrips: 2 },
      runOptions: { demo: true },
    },
    // Every linked page is on the local simulator: a short per-host delay keeps the demo quick.
    fetcher: { delayMs: 20 },
    corpus: {
      format: "tsv",
      out: join(folder.staging, "corpus"),
      rejected: join(folder.staging, "corpus.rejected.jsonl"),
      scorer: defaultScorer(EN_ZH),
    },
    // The store is named where it will be once the demo is swapped in, not in the staging folder it is built in.
    report: { out: join(folder.staging, "report.html"), screenshotDirs: [wrappersDir], storeLabel: join(folder.dir, "bitext.db") },
    hooks: {
      ...hooks,
      say: (line) => hooks.say(relocated(line, folder.staging, folder.dir)),
      ...(onHarvestEvent ? { onHarvestEvent: (e) => onHarvestEvent(relocated(e, folder.staging, folder.dir)) } : {}),
    },
    results: {},
  };
}
