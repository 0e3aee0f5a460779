import { basename, dirname, resolve } from "node:path";
import type { Command } from "commander";
import { assertWritable, userDataPath } from "../config/index.js";
import { UserError } from "../errors.js";
import { isHeldOut, readHeldOutList } from "../eval/index.js";
import { readTextFile } from "../io/index.js";
import {
  type EvaluationRow,
  type QualityModelFile,
  qualityModelName,
  type TrainingSource,
  trainQualityModel,
  writeQualityModel,
} from "../quality/index.js";
import { type LanguagePair, parseParallelTsv } from "../text/index.js";
import { formatTable, printJson, printLine } from "./output.js";
import { createProgress } from "./progress.js";
import { pairOption, resolvePair } from "./shared-options.js";

/** Files with more pairs than this are measured on every tenth line and trained on the rest. */
const LARGE_FILE = 2000;

/**
 * The training sources of `bitext quality train` / `bitext eval quality`: one source per folder (a site or a
 * corpus: `bilingual-pages/real/<source>/*.pairs.tsv`, `parallel/*.tsv`); files named in the exclude list (as
 * their `.html` page or themselves) form a held-out source of their folder. A large file's fold is measured on
 * its lines 10, 20, 30, … (the lines the shipped lexicon was not learned from) and trained on the others.
 */
export function readTrainingSources(files: readonly string[], exclude: readonly string[]): TrainingSource[] {
  const byName = new Map<string, TrainingSource>();
  for (const file of files) {
    const path = resolve(file);
    const page = path.replace(/\.pairs(?:\.alt)?\.tsv$/, ".html");
    const heldOut = isHeldOut(page, exclude) || isHeldOut(path, exclude);
    const name = `${basename(dirname(path))}${heldOut ? " (held-out)" : ""}`;
    const text = readTextFile(file, "parallel TSV file");
    const all = parseParallelTsv(file, text);
    if (all.length === 0) throw new UserError(`${file}: no sentence pairs`);
    let source = byName.get(name);
    if (!source) {
      source = { name, pairs: [], ...(heldOut ? { heldOut } : {}) };
      byName.set(name, source);
    }
    if (all.length > LARGE_FILE && !heldOut) {
      source.pairs.push(...parseParallelTsv(file, text, (line) => line % 10 !== 0));
      source.evalPairs = [...(source.evalPairs ?? []), ...parseParallelTsv(file, text, (line) => line % 10 === 0)];
    } else source.pairs.push(...all.map(({ a, b }) => ({ a, b })));
  }
  return [...byName.values()];
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The mean over the fold rows (each source weighing 1) of a figure of the row. */
function meanOverFolds(rows: readonly EvaluationRow[], f: (r: EvaluationRow) => number): number {
  const folds = rows.filter((r) => r.kind === "fold");
  return folds.reduce((sum, r) => sum + f(r), 0) / Math.max(1, folds.length);
}

/** The evaluation table: one row per source (folds, then held-out), pooled over the folds at the end. */
export function evaluationTable(rows: readonly EvaluationRow[], threshold: number): string {
  const kinds = [...new Set(rows.flatMap((r) => Object.keys(r.rejected)))];
  const line = (r: EvaluationRow) => [
    r.source,
    r.kind,
    r.positives,
    r.negatives,
    pct(r.keepRate),
    pct(r.precision),
    ...kinds.map((k) => (r.rejected[k] === undefined ? "" : pct(r.rejected[k]))),
  ];
  const mean = (f: (r: EvaluationRow) => number) => meanOverFolds(rows, f);
  const averaged = [
    "mean of folds",
    "",
    "",
    "",
    pct(mean((r) => r.keepRate)),
    pct(mean((r) => r.precision)),
    ...kinds.map((k) => pct(mean((r) => r.rejected[k] ?? 0))),
  ];
  return `${formatTable([["source", "kind", "true", "negatives", "kept", "precision", ...kinds.map((k) => `rej.${k}`)], ...rows.map(line), averaged])}\n\nthreshold ${threshold}`;
}

interface QualityTrainFlags {
  out?: string;
  exclude?: string;
  pair?: LanguagePair;
  seed: number;
  json?: boolean;
}

/** The training sources of FILES (held-out pages marked), refused when the folds would have nothing to leave out. */
function sourcesOf(files: readonly string[], flags: QualityTrainFlags): TrainingSource[] {
  const sources = readTrainingSources(files, flags.exclude ? readHeldOutList(flags.exclude) : []);
  if (sources.filter((s) => !s.heldOut).length < 2)
    throw new UserError("give pairs of at least two sources (folders): the folds leave one source out");
  return sources;
}

function trainWithProgress(sources: readonly TrainingSource[], pair: LanguagePair, seed: number, label: string, quiet?: boolean) {
  const progress = createProgress({ label, quiet });
  try {
    return trainQualityModel(sources, { pair, seed, onProgress: (phase) => progress.update(0, { phase }) });
  } finally {
    progress.done();
  }
}

/** Train (and measure) a model from the files; `write` false only measures. */
export function trainFromFiles(files: readonly string[], flags: QualityTrainFlags, write: boolean): QualityModelFile {
  const pair = resolvePair(flags.pair);
  const out = resolve(flags.out ?? userDataPath("models", qualityModelName(pair)));
  if (write) assertWritable(out);
  const model = trainWithProgress(sourcesOf(files, flags), pair, flags.seed, "quality", flags.json);
  if (write) writeQualityModel(out, model);
  if (flags.json)
    printJson({ ...(write ? { out } : {}), threshold: model.threshold, evaluation: model.evaluation, training: model.training });
  else {
    printLine(evaluationTable(model.evaluation, model.threshold));
    if (write) printLine(`${out}: ${model.features.names.length} features, threshold ${model.threshold}`);
  }
  return model;
}

function trainOptions(command: Command): Command {
  return command
    .argument("<pairs.tsv...>", "real sentence pairs, A<TAB>B per line; each folder is one source")
    .option("--exclude <file>", "held-out pages (e.g. test/holdout.md): their pairs are not trained on, and reported apart")
    .option(...pairOption())
    .option("--seed <n>", "seed of the sampling and the negatives", (v) => Number.parseInt(v, 10), 1)
    .option("--json", "print the evaluation as JSON");
}

export function registerQualityCommands(program: Command): void {
  const quality = program.command("quality").description("the pair scorer's model");
  trainOptions(
    quality
      .command("train")
      .description("train the pair scorer on real pairs and negatives made from them, measured with folds by source")
      .option("--out <file>", "model file to write (default: models/quality-<a>-<b>.json in your home, which score and export then use)"),
  )
    .addHelpText(
      "after",
      "\nExample:\n  bitext quality train ../shared/data/parallel/*.tsv ../shared/data/bilingual-pages/real/*/*.pairs.tsv --exclude test/holdout.md",
    )
    .action((files: string[], flags: QualityTrainFlags) => {
      trainFromFiles(files, flags, true);
    });
}

/** `--seeds 1-4` or `--seeds 1,2,5`: the seeds, in order. */
function parseSeeds(value: string): number[] {
  const range = /^(\d+)-(\d+)$/u.exec(value.trim());
  const seeds = range
    ? Array.from({ length: Math.max(0, Number(range[2]) - Number(range[1]) + 1) }, (_, i) => Number(range[1]) + i)
    : value.split(",").map((v) => (/^\s*\d+\s*$/u.test(v) ? Number(v) : Number.NaN));
  if (seeds.length === 0 || seeds.some((n) => !Number.isSafeInteger(n)))
    throw new UserError(`--seeds: expected a range (1-4) or a list (1,2,5) of whole numbers, got "${value}"`);
  return seeds;
}

/**
 * One line per seed (other samples of training pairs and other negatives): each fold's keep-rate, the pooled
 * keep-rate and precision, the mean of the folds; then their mean. A change is worth more than the seeds' spread.
 */
function seedsTable(runs: ReadonlyArray<{ seed: number; model: QualityModelFile }>): string {
  const folds = runs[0]!.model.evaluation.filter((r) => r.kind === "fold").map((r) => r.source);
  const figures = runs.map(({ model }) => {
    const rows = model.evaluation;
    const keep = (source: string) => rows.find((r) => r.kind === "fold" && r.source === source)?.keepRate ?? 0;
    const pooled = rows.find((r) => r.kind === "pooled")!;
    return [...folds.map(keep), pooled.keepRate, pooled.precision, meanOverFolds(rows, (r) => r.keepRate)];
  });
  const average = figures[0]!.map((_, i) => figures.reduce((sum, f) => sum + f[i]!, 0) / figures.length);
  const header = ["seed", "threshold", ...folds, "pooled kept", "pooled precision", "mean of folds"];
  const lines = runs.map(({ seed, model }, i) => [String(seed), String(model.threshold), ...figures[i]!.map(pct)]);
  const meanThreshold = runs.reduce((sum, r) => sum + r.model.threshold, 0) / runs.length;
  return formatTable([header, ...lines, ["mean", meanThreshold.toFixed(3), ...average.map(pct)]]);
}

interface EvalQualityFlags extends QualityTrainFlags {
  seeds?: number[];
}

/** `bitext eval quality`: the same folds as `quality train`, the table only (with `--seeds`, a line per seed). */
export function registerEvalQuality(evalCommand: Command): void {
  trainOptions(
    evalCommand
      .command("quality")
      .description("measure the pair scorer with folds by source (keep-rate of true pairs, precision against negatives)")
      .option("--seeds <list>", "measure once per seed (a range 1-4 or a list 1,2,5): one line per seed and their mean", parseSeeds),
  ).action((files: string[], flags: EvalQualityFlags) => {
    if (!flags.seeds) {
      trainFromFiles(files, flags, false);
      return;
    }
    const pair = resolvePair(flags.pair);
    const sources = sourcesOf(files, flags);
    const runs = flags.seeds.map((seed) => ({ seed, model: trainWithProgress(sources, pair, seed, `quality, seed ${seed}`, flags.json) }));
    if (flags.json) printJson(runs.map(({ seed, model }) => ({ seed, threshold: model.threshold, evaluation: model.evaluation })));
    else printLine(seedsTable(runs));
  });
}
