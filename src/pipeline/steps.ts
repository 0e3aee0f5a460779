import { exportCorpus } from "../export/index.js";
import { fetchBilingualPages } from "../extract/index.js";
import { writeReport } from "../report/index.js";
import { type HarvestRunResult, runHarvest } from "../serp/index.js";
import { countRecords, listRecords, type StoredRecord, withStore } from "../store/index.js";
import type { PipelineStep } from "./context.js";
import { corpusSamples } from "./samples.js";

/**
 * The pipeline's steps, from queries to a corpus file and the run's report. Each says what it did through
 * the context's hooks and leaves its result under its id in `ctx.results`.
 */

const harvestQueries: PipelineStep = {
  id: "harvest",
  title: "Harvest the queries from every engine",
  async run(ctx) {
    const r: HarvestRunResult = await runHarvest({
      ...ctx.harvest,
      queryFiles: ctx.queryFiles,
      engines: ctx.engines,
      db: ctx.db,
      wrappersDir: ctx.wrappersDir,
      pair: ctx.pair,
      ...(ctx.driver ? { driver: ctx.driver } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.hooks.onHarvestEvent ? { onEvent: ctx.hooks.onHarvestEvent } : {}),
      ...(ctx.hooks.onHarvestProgress ? { onProgress: ctx.hooks.onHarvestProgress } : {}),
    });
    ctx.results[this.id] = r;
    const say = ctx.hooks.say;
    say(
      `  ${r.fetched} result pages fetched: ${r.ok} with records, ${r.empty} empty, ${r.blocked} blocked, ${r.errors} errors; ` +
        `${r.relearned} wrapper(s) re-learned; ${r.newRecords} records stored in ${ctx.db}`,
    );
    for (const [engine, e] of Object.entries(r.engines)) {
      say(`  ${engine}: ${e.newRecords} records from ${e.ok} pages (blocked ${e.blocked}, errors ${e.errors}, re-learned ${e.relearned})`);
    }
    say(
      r.model
        ? `  records classified as they were stored, with ${r.model}`
        : "  no classifier model yet (models/default.json): records stored unclassified",
    );
  },
};

const showCandidates: PipelineStep = {
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
      ctx.hooks.say("  (skipped: records are unclassified — train or install a model (models/default.json), then run again)");
      ctx.results[this.id] = { counts, top: [] };
      return;
    }
    const links = distinctLinks(bilingual);
    const top = [...links.values()]
      .sort((a, b) => (b.record.probability ?? 0) - (a.record.probability ?? 0) || b.sightings - a.sightings)
      .slice(0, 10);
    ctx.hooks.say(
      `  ${counts.bilingual} records labelled bilingual (${links.size} distinct links), ${counts.monolingual} monolingual, ${counts.unclassified} unclassified`,
    );
    for (const { record: r, sightings } of top) {
      ctx.hooks.say(`  ${(r.probability ?? 0).toFixed(2)}  ×${sightings}  ${r.title.slice(0, 50)}  ${r.url}`);
    }
    ctx.results[this.id] = {
      counts,
      top: top.map(({ record: r, sightings }) => ({ url: r.url, title: r.title, probability: r.probability, sightings })),
    };
  },
};

/** One entry per linked page (the same page is found by several engines and queries): its likeliest record and sightings. */
function distinctLinks(records: readonly StoredRecord[]): Map<string, { record: StoredRecord; sightings: number }> {
  const byUrl = new Map<string, { record: StoredRecord; sightings: number }>();
  for (const r of records) {
    const seen = byUrl.get(r.url);
    if (!seen) byUrl.set(r.url, { record: r, sightings: 1 });
    else {
      seen.sightings++;
      if ((r.probability ?? 0) > (seen.record.probability ?? 0)) seen.record = r;
    }
  }
  return byUrl;
}

const fetchPages: PipelineStep = {
  id: "pages",
  title: "Fetch the bilingual candidates' pages and extract their sentence pairs (feng2011)",
  async run(ctx) {
    const { onPagesTotal, onPageDone } = ctx.hooks;
    const r = await withStore(ctx.db, (store) =>
      fetchBilingualPages(store, {
        extract: { pair: ctx.pair },
        ...ctx.candidates,
        ...(ctx.fetcher ? { fetcherOptions: ctx.fetcher } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(onPagesTotal ? { onTotal: (n: number) => onPagesTotal(n) } : {}),
        ...(onPageDone ? { onPage: () => onPageDone() } : {}),
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
    ctx.hooks.say(`  ${r.urls} linked pages of ${r.records} bilingual records: ${pageCounts(r)}; ${r.pairs} sentence pairs extracted`);
    // Each page once, under its own URL (a result link is often the engine's redirect to it).
    const best = new Map<string, number>();
    for (const page of r.pages) {
      const url = page.finalUrl ?? page.url;
      best.set(url, Math.max(best.get(url) ?? 0, page.pairs));
    }
    for (const [url, pairs] of [...best].sort((a, b) => b[1] - a[1]).slice(0, 3)) ctx.hooks.say(`  ${pairs} pairs  ${url}`);
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

const exportTheCorpus: PipelineStep = {
  id: "corpus",
  title: "Export the corpus (every pair scored; deduplicated, every source URL kept)",
  async run(ctx) {
    const { format, out, rejected, scorer, minQuality } = ctx.corpus;
    const r = await withStore(ctx.db, (store) =>
      exportCorpus(store, { format, out, rejected, scorer, pair: ctx.pair, ...(minQuality === undefined ? {} : { minQuality }) }),
    );
    const file = r.files[0]?.path ?? `${out}.${format}`;
    ctx.results[this.id] = { pairs: r.pairs, multiSource: r.multiSource, file, rejected: r.rejected, rejectedByReason: r.rejectedByReason };
    ctx.hooks.say(`  ${r.pairs} distinct sentence pairs kept (${r.multiSource} found on several pages) → ${file}`);
    const reasons = Object.entries(r.rejectedByReason)
      .sort((a, b) => b[1] - a[1])
      .map(([reason, n]) => `${reason} ${n}`);
    ctx.hooks.say(`  ${r.rejected} rejected by the pair scorer${reasons.length ? ` (${reasons.join(", ")})` : ""} → ${rejected}`);
    for (const s of corpusSamples(r.files[0]?.content ?? "", format, ctx.pair, 3)) ctx.hooks.say(`  ${s.a}  ⇄  ${s.b}   (${s.source})`);
  },
};

const writeTheReport: PipelineStep = {
  id: "report",
  title: "Write the run report (one HTML page: charts and tables of the run)",
  async run(ctx) {
    const { out, screenshotDirs, storeLabel } = ctx.report;
    const r = await withStore(ctx.db, (store) =>
      writeReport(store, out, { screenshotDirs: [...screenshotDirs], ...(storeLabel ? { storeLabel } : {}) }),
    );
    ctx.results[this.id] = { file: r.out, charts: r.charts, drifts: r.data.drifts.length };
    ctx.hooks.say(
      `  ${r.charts.length} charts, ${r.data.screenshots.length} screenshots, ${r.data.drifts.length} drift event(s) → ${r.out}`,
    );
  },
};

/** The pipeline, in order: harvest → bilingual candidates → linked pages and their pairs → corpus → report. */
export const PIPELINE_STEPS: readonly PipelineStep[] = [harvestQueries, showCandidates, fetchPages, exportTheCorpus, writeTheReport];
