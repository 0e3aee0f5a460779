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
  const folds = rows.filter((r) => r.kind === "fold");
  const mean = (f: (r: EvaluationRow) => number) => folds.reduce((s, r) => s + f(r), 0) / Math.max(1, folds.length);
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

/** Train (and measure) a model from the files; `write` false only measures. */
export function trainFromFiles(files: readonly string[], flags: QualityTrainFlags, write: boolean): QualityModelFile {
  const pair = resolvePair(flags.pair);
  const out = resolve(flags.out ?? userDataPath("models", qualityModelName(pair)));
  if (write) assertWritable(out);
  const sources = readTrainingSources(files, flags.exclude ? readHeldOutList(flags.exclude) : []);
  if (sources.filter((s) => !s.heldOut).length < 2)
    throw new UserError("give pairs of at least two sources (folders): the folds leave one source out");
  const progress = createProgress({ label: "quality", quiet: flags.json });
  let model: QualityModelFile;
  try {
    model = trainQualityModel(sources, { pair, seed: flags.seed, onProgress: (phase) => progress.update(0, { phase }) });
  } finally {
    progress.done();
  }
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

/** `bitext eval quality`: the same folds as `quality train`, the table only. */
export function registerEvalQuality(evalCommand: Command): void {
  trainOptions(
    evalCommand
      .command("quality")
      .description("measure the pair scorer with folds by source (keep-rate of true pairs, precision against negatives)"),
  ).action((files: string[], flags: QualityTrainFlags) => {
    trainFromFiles(files, flags, false);
  });
}
