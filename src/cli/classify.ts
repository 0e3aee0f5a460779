import { readFileSync } from "node:fs";
import { readStdin } from "../io/index.js";
import type { Command } from "commander";
import {
  analyseRecord,
  annotationQuery,
  type Classifier,
  type ClassifierInput,
  loadClassifier,
  parseClassifierInput,
} from "../classify/index.js";
import type { Prediction } from "../classify/index.js";
import { modelPath, storePath } from "../config/index.js";
import { inputError, UserError } from "../errors.js";
import { classifyStoredRecords } from "../classify/index.js";
import { openStore, storeExists } from "../store/index.js";
import { loadLexicon } from "../text/index.js";
import { displayWidth, formatTable, printJsonLine, printLine } from "./output.js";
import { probability } from "./flags.js";
import { createProgress } from "./progress.js";
import { writeLinesTo } from "./stream.js";

const BATCH = 256;

interface ClassifyFlags {
  model?: string;
  threshold?: number;
  db?: string | true;
  all?: boolean;
  explain?: boolean;
  json?: boolean;
}

async function readInput(file: string | undefined): Promise<{ name: string; records: Array<ClassifierInput & Record<string, unknown>> }> {
  const name = file ?? "stdin";
  let text: string;
  try {
    text = file === undefined ? (await readStdin()).toString("utf8") : readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`${name}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const records: Array<ClassifierInput & Record<string, unknown>> = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      throw inputError({ file: name, line: i + 1 }, "not valid JSON");
    }
    records.push(parseClassifierInput({ file: name, line: i + 1 }, o));
  }
  return { name, records };
}

function truncate(s: string, width: number): string {
  let out = "";
  for (const ch of s) {
    if (displayWidth(out + ch) > width - 1) return `${out}…`;
    out += ch;
  }
  return out;
}

/** JSONL records in, the same records out with "label" and "probability" (and "features" with --explain). */
async function classifyJsonl(file: string | undefined, classifier: Classifier, flags: ClassifyFlags): Promise<void> {
  const { records } = await readInput(file);
  const lex = flags.explain ? loadLexicon() : undefined;
  /** Batches of records with their predictions, classified as the output is taken. */
  function* decided(): Generator<[ClassifierInput & Record<string, unknown>, Prediction]> {
    for (let i = 0; i < records.length; i += BATCH) {
      const batch = records.slice(i, i + BATCH);
      const predictions = classifier.classify(batch);
      for (const [k, r] of batch.entries()) yield [r, predictions[k]!];
    }
  }
  if (flags.json) {
    await writeLinesTo(
      undefined,
      (function* () {
        for (const [r, p] of decided()) {
          const out: Record<string, unknown> = {
            ...r,
            query: annotationQuery(r.query),
            label: p.label,
            probability: p.probability,
            model: classifier.modelId,
          };
          if (lex) {
            const a = analyseRecord(r, lex);
            out.features = a.features;
            out.languageString = a.languageString;
          }
          yield `${JSON.stringify(out)}\n`;
        }
      })(),
    );
    return;
  }
  const table: Array<Array<string | number>> = [["label", "P", "title"]];
  for (const [r, p] of decided()) table.push([p.label, p.probability.toFixed(3), truncate(r.title || r.url || r.snippet, 70)]);
  printLine(formatTable(table));
  const n = table.length - 1;
  const bilingual = table.filter((r) => r[0] === "bilingual").length;
  printLine(
    `${n} records: ${bilingual} bilingual, ${n - bilingual} monolingual (model ${classifier.modelId}, P ≥ ${classifier.threshold})`,
  );
}

/** Label the records of the harvest store; by default only those this model has not labelled yet. */
async function classifyStore(path: string, classifier: Classifier, flags: ClassifyFlags): Promise<void> {
  const store = await openStore(path);
  try {
    const progress = createProgress({ label: "classify", quiet: flags.json });
    const result = await classifyStoredRecords(store, classifier, {
      all: flags.all,
      onTotal: (n) => progress.setTotal(n),
      onBatch: (n) => progress.tick(n),
    });
    progress.done();
    const summary = { db: path, model: classifier.modelId, threshold: classifier.threshold, ...result };
    if (flags.json) printJsonLine(summary);
    else
      printLine(
        `${path}: classified ${result.classified} records with ${classifier.modelId} (P ≥ ${classifier.threshold}): ${result.bilingual} bilingual, ${result.monolingual} monolingual`,
      );
  } finally {
    await store.close();
  }
}

export function registerClassifyCommand(program: Command): void {
  program
    .command("classify")
    .argument("[file]", "JSONL records {query:{en,zh},title,url,snippet} (default: stdin)")
    .option("--model <file>", "model file (default: the config file's model, else models/default.json, yours if you trained one)")
    .option("--threshold <p>", "P(bilingual) at or above which a record is bilingual (default: the model's)", probability)
    .option("--db [file]", "label the records of the harvest store (default: the store in your home)")
    .option("--all", "with --db: relabel every record, also those this model already labelled")
    .option("--explain", "with --json: add each record's features and language string")
    .option("--json", "write JSONL records (with --db: a JSON summary)")
    .action((file: string | undefined, flags: ClassifyFlags) => {
      const dbPath = flags.db === undefined ? undefined : flags.db === true ? storePath() : storePath(flags.db);
      if (dbPath !== undefined) {
        if (file) throw new UserError("classify: give either a JSONL file or --db, not both");
        if (!storeExists(dbPath)) throw new UserError(`${dbPath}: no harvest store here (run bitext harvest, or pass --db FILE)`);
      }
      const model = modelPath(flags.model);
      if (model === null) throw new UserError("classify: the config file sets model: null; pass --model FILE");
      const classifier = loadClassifier(model, { threshold: flags.threshold });
      if (dbPath !== undefined) return classifyStore(dbPath, classifier, flags);
      else return classifyJsonl(file, classifier, flags);
    });
}
