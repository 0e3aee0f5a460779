import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { readRealBilingualPages, readSerpRecords } from "../classify/index.js";
import { type ClassifierReport, evaluateClassifier, evaluateOnRealData } from "../classify/index.js";
import { DEFAULT_GRID, defaultModelPath, loadClassifier, readAnnotations, readModelFile } from "../classify/index.js";
import { type BySourceReport, evaluateBySource } from "../classify/index.js";
import { inputError, NotEnoughData, UserError } from "../errors.js";
import { isHeldOut, readHeldOutList } from "../eval/index.js";
import { formatTable, printJson, printLine } from "./output.js";
import { crossValidationOptions } from "./shared-options.js";
import { createProgress } from "./progress.js";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function formatClassifierReport(r: ClassifierReport): string {
  const f = r.full;
  const lines = [
    `${r.size} annotated records (${r.positives} bilingual, ${r.negatives} monolingual), ${r.folds}-fold stratified CV (seed ${r.seed})`,
    "",
    `All features, C=${f.C} gamma=${f.gamma}, bilingual when P ≥ ${f.threshold}: precision ${pct(f.precision)}, recall ${pct(f.recall)}, F1 ${pct(f.f1)}, accuracy ${pct(f.accuracy)}`,
    "",
    formatTable([
      ["", "predicted bilingual", "predicted monolingual"],
      ["bilingual", f.tp, f.fn],
      ["monolingual", f.fp, f.tn],
    ]),
    "",
    "Ablation (feng2010 Table 3; each subset with its best C, gamma on the same folds; SVM sign):",
    formatTable([
      ["features", "C", "gamma", "precision", "recall", "F1", "accuracy"],
      ...r.ablation.map((a) => [a.features, a.C, a.gamma, pct(a.precision), pct(a.recall), pct(a.f1), pct(a.accuracy)]),
    ]),
    "",
    "Errors by kind of example (all features):",
    formatTable([["label", "kind", "n", "errors"], ...r.byKind.map((k) => [k.label, k.kind, k.n, k.errors])]),
  ];
  if (r.model) {
    const m = r.model;
    lines.push(
      "",
      `Model ${m.modelId} on these records (P ≥ ${m.threshold}): precision ${pct(m.precision)}, recall ${pct(m.recall)}, F1 ${pct(m.f1)}, accuracy ${pct(m.accuracy)} (tp ${m.tp}, fp ${m.fp}, fn ${m.fn}, tn ${m.tn})`,
    );
  }
  return lines.join("\n");
}

interface EvalClassifierFlags {
  annotations?: string;
  model?: string;
  pages?: string;
  serps?: string;
  exclude?: string;
  bySource?: boolean;
  pool?: string[];
  folds: number;
  seed: number;
  c?: number[];
  gamma?: number[];
  json?: boolean;
}

/** Recall per source on real bilingual pages' snippets, false positives per set of real result pages. */
function realData(flags: EvalClassifierFlags): void {
  const exclude = flags.exclude ? readHeldOutList(flags.exclude) : [];
  const skipped = (source: string) => isHeldOut(source.split("#")[0]!.replace(/\.expected\.json$/, ".html"), exclude);
  const pages = flags.pages ? readRealBilingualPages(flags.pages, exclude) : [];
  const serpSets = (flags.serps ? flags.serps.split(",") : []).map((dir) => ({
    name: basename(resolve(dir)),
    records: readSerpRecords(dir).filter((r) => !skipped(r.source)),
  }));
  const classifier = loadClassifier(flags.model ? resolve(flags.model) : defaultModelPath());
  const rows = evaluateOnRealData(classifier, pages, serpSets);
  if (flags.json) {
    printJson({ model: classifier.modelId, rows });
    return;
  }
  printLine(`Model ${classifier.modelId} (P ≥ ${classifier.threshold})`);
  printLine(
    formatTable([
      ["source", "kind", "records", "labelled bilingual", "recall / FP rate"],
      ...rows.map((r) => [r.source, r.kind, r.n, r.bilingual, r.rate.toFixed(3)]),
    ]),
  );
}

/** `--pool literary=a,b`: a named group of page sources whose recall and mismatched FPR are pooled. */
function parsePool(value: string, previous: string[] = []): string[] {
  if (!/^[^=\s]+=[^=\s]+$/.test(value)) throw new UserError(`--pool: "${value}": expected NAME=SOURCE,SOURCE…`);
  return [...previous, value];
}

export function formatBySourceReport(r: BySourceReport): string {
  const c = r.calibration;
  return [
    `Leave one source out: C=${r.params.C} gamma=${r.params.gamma}, bilingual when P ≥ ${r.params.threshold}`,
    formatTable([
      ["source", "kind", "held out", "left out of training", "records", "labelled bilingual", "recall / FP rate"],
      ...r.rows.map((x) => [x.source, x.kind, x.heldOut ? "yes" : "", x.leftOut, x.n, x.bilingual, x.rate.toFixed(3)]),
    ]),
    "",
    formatTable([
      ["pool", "sources", "snippets", "recall", "mismatched", "mismatched FP rate"],
      ...r.pools.map((p) => [p.name, p.sources.join(","), p.snippets, p.recall.toFixed(3), p.mismatched, p.mismatchedRate.toFixed(3)]),
    ]),
    "",
    `Calibration of the left-out probabilities (${c.n} records): Brier ${c.brier.toFixed(4)}, ECE ${c.ece.toFixed(4)}`,
    formatTable([
      ["P", "records", "mean P", "share bilingual"],
      ...c.bins
        .filter((b) => b.n)
        .map((b) => [`${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`, b.n, b.meanP.toFixed(3), (b.positives / b.n).toFixed(3)]),
    ]),
  ].join("\n");
}

/** Leave one source out: train without each source of --pages / --serps, test on it; held-out pages apart. */
function bySource(flags: EvalClassifierFlags): void {
  if (!flags.annotations || !flags.pages) throw new UserError("eval classifier --by-source: give --annotations FILE and --pages DIR");
  const exclude = flags.exclude ? readHeldOutList(flags.exclude) : [];
  const skipped = (source: string) => isHeldOut(source.split("#")[0]!.replace(/\.expected\.json$/, ".html"), exclude);
  const all = readRealBilingualPages(flags.pages);
  const pages = readRealBilingualPages(flags.pages, exclude);
  const heldOutPages = all.filter((p) => !pages.some((d) => d.source === p.source));
  const serpSets = (flags.serps ? flags.serps.split(",") : []).map((dir) => ({
    name: basename(resolve(dir)),
    records: readSerpRecords(dir).filter((r) => !skipped(r.source)),
  }));
  const { annotations } = readAnnotations(flags.annotations);
  const modelFile = flags.model ? resolve(flags.model) : defaultModelPath();
  const model = readModelFile(modelFile);
  const params = { C: flags.c?.[0] ?? model.svm.C, gamma: flags.gamma?.[0] ?? model.svm.gamma };
  const folders = [...new Set(pages.map((p) => p.source.split("/")[0]!))].sort();
  const pools = [
    { name: "all pages", sources: folders },
    ...(flags.pool ?? []).map((p) => {
      const [name, list] = p.split("=") as [string, string];
      return { name, sources: list.split(",") };
    }),
  ];
  const progress = createProgress({ label: "eval classifier --by-source", total: folders.length + serpSets.length + 1, quiet: flags.json });
  let report: BySourceReport;
  try {
    report = evaluateBySource(
      annotations,
      { pages, heldOutPages, serpSets },
      { params, threshold: model.threshold, pools, onStep: () => progress.tick() },
    );
  } finally {
    progress.done();
  }
  if (flags.json) printJson(report);
  else printLine(formatBySourceReport(report));
}

export function registerEvalClassifier(evalCommand: Command): void {
  crossValidationOptions(
    evalCommand
      .command("classifier")
      .description("cross-validated precision/recall/F1, confusion matrix and W / W+L / W+L+F ablation of the classifier")
      .option("--annotations <file>", "annotated records (JSONL): cross-validation and ablation")
      .option(
        "--model <file>",
        "also apply this model to the records, as a held-out test set (with --pages/--serps: the model to test; default the shipped one)",
      )
      .option(
        "--pages <dir>",
        "real bilingual pages (<source>/<page>.html + .pairs.tsv): recall per source on engine-like snippets of them",
      )
      .option(
        "--serps <dirs>",
        "folders of real result pages (*.expected.json), comma-separated: false-positive rate per folder on their records",
      )
      .option("--exclude <file>", "a list of held-out pages (e.g. test/holdout.md): pages named in it are left out")
      .option(
        "--by-source",
        "with --annotations and --pages: leave one source out (train without each page source / result-page set, test on it; C, gamma from --model unless given)",
      )
      .option("--pool <name=sources>", "with --by-source: pool the recall of these page sources (repeatable)", parsePool),
    { c: "as bitext train", gamma: "as bitext train" },
  )
    .option("--json", "print the report as JSON")
    .action((flags: EvalClassifierFlags) => {
      if (flags.bySource) {
        bySource(flags);
        return;
      }
      if (flags.pages || flags.serps) {
        realData(flags);
        return;
      }
      if (!flags.annotations) throw new UserError("eval classifier: give --annotations FILE, or --pages DIR / --serps DIRS");
      const { annotations } = readAnnotations(flags.annotations);
      const model = flags.model ? { path: resolve(flags.model), file: readModelFile(resolve(flags.model)) } : undefined;
      const grid = { C: flags.c ?? DEFAULT_GRID.C, gamma: flags.gamma ?? DEFAULT_GRID.gamma };
      const progress = createProgress({ label: "eval classifier", total: 3 * grid.C.length * grid.gamma.length, quiet: flags.json });
      let report: ClassifierReport;
      try {
        report = evaluateClassifier(annotations, { folds: flags.folds, seed: flags.seed, grid, model, onStep: () => progress.tick() });
      } catch (err) {
        if (err instanceof NotEnoughData) throw inputError({ file: flags.annotations }, err.message);
        throw err;
      } finally {
        progress.done();
      }
      if (flags.json) printJson(report);
      else printLine(formatClassifierReport(report));
    });
}
