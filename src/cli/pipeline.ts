import type { Command } from "commander";
import { assertWritable, loadSettings, type Settings } from "../config/index.js";
import { UserError } from "../errors.js";
import { OUTPUT_FORMATS } from "../export/index.js";
import { defaultScorer } from "../extract/index.js";
import { PIPELINE_STEPS, type PipelineContext, type PipelineHooks, type PipelineOutcome, runPipeline } from "../pipeline/index.js";
import { defaultWrappersDir, type HarvestRunResult } from "../serp/index.js";
import { parseFormat } from "./extract.js";
import { EXIT_INCOMPLETE, type HarvestRunFlags, harvestRunOptions, harvestRunSettings, logEvent, progressReporter } from "./harvest.js";
import { printJson, printLine } from "./output.js";
import { createProgress, type Progress } from "./progress.js";
import { type CandidateFlags, candidateOptions, candidateSelection } from "./shared-options.js";
import { stopOnInterrupt } from "./signals.js";

interface PipelineFlags extends HarvestRunFlags, CandidateFlags {
  out: string;
  format: string;
  json?: boolean;
}

export function registerPipelineCommand(program: Command): void {
  // Defaults: the config file's (bitext.config.json in the home), else DEFAULTS (src/config/schema.ts).
  const settings = loadSettings();
  const command = program.command("pipeline").argument("[queries...]", "query lists (English<TAB>Chinese per line)");
  candidateOptions(harvestRunOptions(command, settings))
    .option(
      "--out <prefix>",
      "write the corpus to PREFIX.<format>, the pairs the scorer left out to PREFIX.rejected.jsonl, the report to PREFIX.report.html",
      "corpus",
    )
    .option("--format <format>", `corpus format: ${OUTPUT_FORMATS.join(", ")}`, "tsv")
    .option("--json", "print what each step produced as JSON")
    .addHelpText(
      "after",
      `
The steps of bitext demo on your engines: harvest (as bitext harvest), the bilingual candidates, fetch their
pages and extract the sentence pairs (as bitext fetch-pages), export the corpus (as bitext export corpus, with
the config file's quality.minScore), write the run report (as bitext report). Rerunning resumes: result pages
fetched within --max-age and pages already stored are not fetched again. Exit status: 0 done, ${EXIT_INCOMPLETE} result
pages left for the next run, 130 interrupted.

Example:
  bitext pipeline queries/demo.tsv --engines bing --out data/corpus --format tmx`,
    )
    .action(async (files: string[], flags: PipelineFlags) => pipelineHere(files, flags, settings));
}

/** The pipeline on the user's engines, in this process; Ctrl-C stops the running step at a safe point and starts no further step. */
async function pipelineHere(files: string[], flags: PipelineFlags, settings: Settings): Promise<void> {
  if (files.length === 0) throw new UserError("pipeline: give at least one query list (QUERIES.tsv)");
  const format = parseFormat(flags.format);
  assertWritable(flags.out); // before the work, not after
  const candidates = candidateSelection(flags);
  const { queryFiles, engines, db, wrappersDir, pair, ...harvest } = harvestRunSettings(files, flags, settings);
  const minQuality = settings.config.quality?.minScore;
  // Step lines for a person at a terminal; piped, only the end (the summary, or JSON with --json).
  const view = pipelineView({ lines: !flags.json && process.stdout.isTTY === true, events: true });
  const interrupt = stopOnInterrupt("interrupted: finishing writes and closing the browser");
  try {
    const ctx: PipelineContext = {
      db,
      wrappersDir: wrappersDir ?? defaultWrappersDir(),
      engines,
      queryFiles,
      pair,
      harvest: { ...harvest, runOptions: { pipeline: true, files, ...flags } },
      candidates,
      corpus: {
        format,
        out: flags.out,
        rejected: `${flags.out}.rejected.jsonl`,
        scorer: defaultScorer(pair),
        ...(minQuality === undefined ? {} : { minQuality }),
      },
      report: { out: `${flags.out}.report.html`, screenshotDirs: [] },
      signal: interrupt.signal,
      hooks: view.hooks,
      results: {},
    };
    const outcome = await runPipeline(ctx);
    view.done();
    const left = (ctx.results["harvest"] as HarvestRunResult | undefined)?.left ?? 0;
    if (flags.json) printJson({ db, steps: PIPELINE_STEPS.map((s) => s.id), ...outcome, results: ctx.results });
    else printLine(pipelineSummary(ctx, outcome, left));
    if (outcome.interrupted) process.exitCode = 130;
    else if (left > 0) process.exitCode = EXIT_INCOMPLETE;
  } finally {
    view.done();
    interrupt.dispose();
  }
}

/** The end of a run for a person: where the corpus, report and store are, and what to do when it stopped short. */
function pipelineSummary(ctx: PipelineContext, outcome: PipelineOutcome, left: number): string {
  if (outcome.interrupted) {
    const done = outcome.completed.length > 0 ? `after ${outcome.completed.join(", ")}` : "before any step ended";
    return `interrupted ${done}: rerun the same command to resume. The store: ${ctx.db}`;
  }
  const corpus = ctx.results["corpus"] as { file: string; pairs: number; rejected: number };
  const report = ctx.results["report"] as { file: string };
  const lines = [
    `Done. Corpus: ${corpus.file} (${corpus.pairs} pairs; ${corpus.rejected} rejected → ${ctx.corpus.rejected}). Report: ${report.file}. The store: ${ctx.db}`,
  ];
  if (left > 0) lines.push(`${left} result page(s) left for the next run: rerun the same command to fetch them.`);
  return lines.join("\n");
}

/** The pipeline's hooks for a terminal, and the call that erases what is still live on it. */
export interface PipelineView {
  hooks: PipelineHooks;
  done(): void;
}

/**
 * How `demo` and `pipeline` show a run: with `lines`, each step's title and account on stdout and a progress
 * line (stderr, a terminal only) for the harvest and the page fetching; with `events`, the harvest's events on
 * stderr. A line of the account goes below a progress line, never onto it: the live line is erased first.
 */
export function pipelineView(options: { lines: boolean; events: boolean }): PipelineView {
  const quiet = !options.lines;
  const progress = createProgress({ label: "harvest", quiet });
  let pagesProgress = null as Progress | null; // made when the fetch step starts, so its ETA counts from there
  const done = () => {
    progress.done();
    pagesProgress?.done();
  };
  const say = quiet
    ? () => {}
    : (line: string) => {
        done();
        printLine(line);
      };
  return {
    hooks: {
      say,
      step: (i, n, step) => say(`\n[${i}/${n}] ${step.title}`),
      onHarvestEvent: options.events ? (e) => logEvent(e, progress) : () => {},
      onHarvestProgress: progressReporter(progress),
      onPagesTotal: (n) => {
        progress.done(); // the harvest is over
        pagesProgress = createProgress({ label: "fetch pages", quiet, total: n });
      },
      onPageDone: () => pagesProgress?.tick(),
    },
    done,
  };
}
