import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { readRealBilingualPages, readSerpRecords } from "../classify/index.js";
import { type ClassifierReport, evaluateClassifier, evaluateOnRealData } from "../classify/index.js";
import { DEFAULT_GRID, defaultModelPath, loadClassifier, readAnnotations, readModelFile } from "../classify/index.js";
import { inputError, NotEnoughData, UserError } from "../errors.js";
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
  folds: number;
  seed: number;
  c?: number[];
  gamma?: number[];
  json?: boolean;
}

/** Recall per source on real bilingual pages' snippets, false positives per set of real result pages. */
function realData(flags: EvalClassifierFlags): void {
  let exclude = "";
  if (flags.exclude) {
    try {
      exclude = readFileSync(flags.exclude, "utf8");
    } catch (err) {
      throw new UserError(`${flags.exclude}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  const skipped = (source: string) => exclude !== "" && exclude.includes(source.split("#")[0]!.replace(/\.expected\.json$/, ".html"));
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
      .option("--exclude <file>", "a list of held-out pages (e.g. test/holdout.md): pages named in it are left out"),
    { c: "as bitext train", gamma: "as bitext train" },
  )
    .option("--json", "print the report as JSON")
    .action((flags: EvalClassifierFlags) => {
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
