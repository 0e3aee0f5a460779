/**
 * Classification speed on one core: records per second of the shipped classifier (features + SVM) over
 * the bootstrap annotations (real result records and composed bilingual snippets), features and SVM also
 * apart; medians of repeated runs. Cold loads (CC-CEDICT index, jieba dictionary, the model) are measured
 * in fresh processes, since a warm process hides them.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyScaling } from "../src/classify/scaling.js";
import { loadSvm } from "../src/classify/svm.js";
import { defaultModelPath, loadClassifier, parseAnnotations, readModelFile, recordFeatures } from "../src/classify/index.js";
import { loadLexicon } from "../src/text/index.js";
import { median, ms, timeRepeated } from "./stats.js";

const ROOT = join(import.meta.dirname, "..");

/** Milliseconds of each cold step, measured in a fresh Node process. */
function coldLoads(): Record<string, number> {
  const script = `
    const t = () => performance.now();
    const { cedictStats, loadLexicon, tokenize } = await import("./src/text/index.ts");
    const { loadClassifier } = await import("./src/classify/index.ts");
    let a = t(); const c = loadClassifier(); const model = t() - a;
    a = t(); tokenize("南京市长江大桥", "zh"); const jieba = t() - a;
    const cedict = cedictStats().loadMs;
    a = t(); loadLexicon().translations("understand", "en"); const reverse = t() - a;
    a = t(); c.classify([{ query: { en: "", zh: "" }, title: "", url: "", snippet: "I see. 我明白了。" }]); const first = t() - a;
    console.log(JSON.stringify({ model, jieba, cedict, reverse, first }));`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
}

export async function run(): Promise<void> {
  const colds = [coldLoads(), coldLoads(), coldLoads()];
  const cold = (k: string) => ms(median(colds.map((c) => c[k]!)));
  console.log("Cold loads (fresh process, median of 3):\n");
  console.log("| step | ms |\n|---|---|");
  console.log(`| load the model (models/default.json, libsvm asm) | ${cold("model")} |`);
  console.log(`| jieba dictionary (first Chinese tokenisation) | ${cold("jieba")} |`);
  console.log(`| CC-CEDICT compact index (first lookup) | ${cold("cedict")} |`);
  console.log(`| CC-CEDICT reverse index (first English → Chinese lookup; Sim does not need it) | ${cold("reverse")} |`);
  console.log(`| first classify() call of one record, after those loads | ${cold("first")} |`);

  const file = join(ROOT, "data", "annotations.bootstrap.jsonl");
  const records = parseAnnotations(file, readFileSync(file, "utf8"));
  const classifier = loadClassifier();
  const model = readModelFile(defaultModelPath());
  const svm = loadSvm(model.svm.libsvm);
  const lex = loadLexicon();
  classifier.classify(records.slice(0, 50)); // warm up the lexicon caches a little, as a running harvest would be
  const rows = records.map((r) => applyScaling(model.scaling, recordFeatures(r, lex)));

  const full = median(timeRepeated(() => classifier.classify(records), 5, 1));
  const features = median(timeRepeated(() => records.map((r) => recordFeatures(r, lex)), 5, 1));
  const svmOnly = median(timeRepeated(() => svm.probabilities(rows), 5, 1));
  const n = records.length;
  console.log(`\nWarm throughput, ${n} records of data/annotations.bootstrap.jsonl, one core (median of 5):\n`);
  console.log("| stage | ms / all | records/s | µs/record |\n|---|---|---|---|");
  for (const [name, t] of [
    ["classify() = features + scaling + SVM", full],
    ["features (clean, segment, tokenise, Sim)", features],
    ["SVM with probability estimates", svmOnly],
  ] as const) {
    console.log(`| ${name} | ${ms(t)} | ${((n * 1000) / t).toFixed(0)} | ${((t * 1000) / n).toFixed(0)} |`);
  }
  svm.free();
}
