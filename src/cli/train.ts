import { relative, resolve } from "node:path";
import type { Command } from "commander";
import { readAnnotations, trainClassifier, writeModelFile } from "../classify/index.js";
import type { ModelFile } from "../classify/index.js";
import { assertWritable, userDataPath } from "../config/index.js";
import { inputError, NotEnoughData } from "../errors.js";
import { formatTable, printJson, printLine } from "./output.js";
import { crossValidationOptions } from "./shared-options.js";
import { probability } from "./flags.js";
import { createProgress } from "./progress.js";

interface TrainFlags {
  annotations: string;
  out?: string;
  folds: number;
  seed: number;
  c?: number[];
  gamma?: number[];
  threshold: number;
  json?: boolean;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The CV table `bitext train` prints: one row per (C, γ), the chosen one marked. */
export function cvTable(model: ModelFile): string {
  const chosen = model.cv.chosen;
  const rows = model.cv.grid.map((r) => [
    r.C === chosen.C && r.gamma === chosen.gamma ? "*" : "",
    r.C,
    r.gamma,
    pct(r.precision),
    pct(r.recall),
    pct(r.f1),
    pct(r.accuracy),
  ]);
  return formatTable([["", "C", "gamma", "precision", "recall", "F1", "accuracy"], ...rows]);
}

function train(flags: TrainFlags): void {
  const out = resolve(flags.out ?? userDataPath("models", "default.json"));
  assertWritable(out); // before minutes of training, not after
  const { annotations, sha256 } = readAnnotations(flags.annotations);
  const progress = createProgress({ label: "train", quiet: flags.json });
  let model: ModelFile;
  try {
    model = trainClassifier(
      annotations,
      { file: relative(process.cwd(), resolve(flags.annotations)) || flags.annotations, sha256 },
      {
        folds: flags.folds,
        seed: flags.seed,
        threshold: flags.threshold,
        grid: flags.c || flags.gamma ? { C: flags.c ?? [1, 8, 64], gamma: flags.gamma ?? [0.5, 2, 8] } : undefined,
        // Two phases (features of every annotation, then the grid's cells), each with its own bar.
        onProgress: (phase, done, total) => {
          progress.setTotal(total);
          progress.update(done, { phase: phase === "features" ? "features" : "C × gamma grid" });
        },
      },
    );
  } catch (err) {
    progress.done();
    if (err instanceof NotEnoughData) throw inputError({ file: flags.annotations }, err.message);
    throw err;
  }
  progress.done();
  writeModelFile(out, model);
  const p = model.cv.withProbability;
  if (flags.json) {
    printJson({ out, C: model.svm.C, gamma: model.svm.gamma, cv: model.cv, training: model.training });
    return;
  }
  printLine(cvTable(model));
  printLine();
  printLine(
    `${out}: C=${model.svm.C} gamma=${model.svm.gamma}, ${model.cv.folds}-fold CV at P≥${model.threshold}: ` +
      `precision ${pct(p.precision)}, recall ${pct(p.recall)}, F1 ${pct(p.f1)} ` +
      `(${model.training.size} annotations: ${model.training.positives} bilingual, ${model.training.negatives} monolingual)`,
  );
}

export function registerTrainCommand(program: Command): void {
  crossValidationOptions(
    program
      .command("train")
      .requiredOption("--annotations <file>", "annotated records, JSONL (bitext annotate writes data/annotations.jsonl)")
      .option("--out <file>", "model file to write (default: models/default.json in your home, which classify and harvest then use)"),
    { c: "0.5,2,8,32,128,512", gamma: "0.125,0.5,2,8,32" },
  )
    .option("--threshold <p>", "P(bilingual) at or above which a record is bilingual", probability, 0.5)
    .option("--json", "print the CV results as JSON")
    .action((flags: TrainFlags) => train(flags));
}
