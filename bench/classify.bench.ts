/**
 * Classification speed on one core.
 *
 * 1. Warm throughput of the shipped classifier (features + SVM) over the bootstrap annotations (real result
 *    records and composed bilingual snippets), features and SVM also apart; medians of repeated runs. The
 *    first pass over the set is reported too: the per-process caches (jieba words, OpenCC runs, Sim rows)
 *    are then filled by the 400 records before it only, as a harvest's first records would find them.
 * 2. End to end: `bitext classify FILE --json` on a JSONL of 100,000 records, in a fresh process (start-up,
 *    model, dictionaries, reading, writing included). The records are composed by the bootstrap builder
 *    (`src/classify/bootstrap.ts`) from the real data: the result records of `../shared/data/serps` and
 *    the 27,211 Tatoeba dev pairs, written to a temporary folder.
 * 3. Cold loads (CC-CEDICT index, jieba dictionary, the model), in fresh processes.
 */
import { parallelText } from "../src/language-pair.js";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBootstrapSet, type PairSource } from "../src/classify/bootstrap.js";
import { readBilingualPage, readSerpRecords } from "../src/classify/bootstrap-sources.js";
import { applyScaling } from "../src/classify/scaling.js";
import { loadSvm } from "../src/classify/svm.js";
import {
  type Classifier,
  annotationQuery,
  type ClassifierInput,
  defaultModelPath,
  loadClassifier,
  parseAnnotations,
  FEATURE_VERSION,
  readModelFile,
  recordFeatures,
} from "../src/classify/index.js";
import { loadLexicon, parseParallelTsv } from "../src/text/index.js";
import { median, ms, timeRepeated } from "./stats.js";

const ROOT = join(import.meta.dirname, "..");
const SHARED = join(ROOT, "..", "shared", "data");
const E2E_RECORDS = 100_000;

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
    a = t(); c.classify([{ query: { source: { lang: "en", text: "" }, target: { lang: "zh", text: "" } }, title: "", url: "", snippet: "I see. 我明白了。" }]); const first = t() - a;
    console.log(JSON.stringify({ model, jieba, cedict, reverse, first }));`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
}

/** Held-out pages (`/work/HOLDOUT.md` style list beside the project), never read by the benchmark. */
function holdout(): string {
  try {
    return readFileSync(join(ROOT, "..", "HOLDOUT.md"), "utf8");
  } catch {
    return "";
  }
}

/** 100,000 result records composed from real data, one JSON object a line. */
function composeRecords(file: string): number {
  const skip = holdout();
  const serp = ["aql", "aql-more", "modern"]
    .flatMap((d) => readSerpRecords(join(SHARED, "serps", d)))
    .filter((r) => !skip.includes(r.source.split("#")[0]!.replace(/\.expected\.json$/, ".html")));
  const tsv = join(SHARED, "parallel", "tatoeba-cmn-eng.dev.tsv");
  const parallel: PairSource[] = parseParallelTsv(tsv, readFileSync(tsv, "utf8")).map((p, i) => ({ en: p.a, zh: p.b, source: `${i}` }));
  const page = readBilingualPage(join(SHARED, "bilingual-pages", "animal_farm_bilingual__index_split_002.html"));
  const lines: string[] = [];
  for (let seed = 1; lines.length < E2E_RECORDS; seed++) {
    const set = buildBootstrapSet(
      { serp, parallel, page: page.pairs, pageTitle: page.title },
      { seed, perKind: 2000, when: "2026-01-01T00:00:00Z" },
    );
    for (const a of set) {
      if (lines.length >= E2E_RECORDS) break;
      lines.push(JSON.stringify({ query: annotationQuery(a.query), title: a.title, url: a.url, snippet: a.snippet }));
    }
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
  return lines.length;
}

const TIME = "/usr/bin/time";

/**
 * Wall time of `bitext classify FILE --json` in a fresh process, stdout to a file, and its CPU time (user +
 * system, through /usr/bin/time when there is one): on a shared machine the CPU time is the steadier figure.
 */
function endToEnd(file: string, out: string): { ms: number; cpuMs: number; lines: number } {
  const fd = openSync(out, "w");
  const args = [join(ROOT, "dist", "cli", "main.js"), "classify", file, "--json"];
  const timed = existsSync(TIME);
  const t = performance.now();
  const r = timed
    ? spawnSync(TIME, ["-f", "cpu %U %S", process.execPath, ...args], { cwd: ROOT, stdio: ["ignore", fd, "pipe"], encoding: "utf8" })
    : spawnSync(process.execPath, args, { cwd: ROOT, stdio: ["ignore", fd, "pipe"], encoding: "utf8" });
  const elapsed = performance.now() - t;
  closeSync(fd);
  if (r.status !== 0) throw new Error(`bitext classify: ${r.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr ?? "");
  const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN;
  const text = readFileSync(out, "utf8");
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return { ms: elapsed, cpuMs, lines };
}

/** The commit before the speed rewrite: its classifier is the same-process reference of the speed-up. */
const REFERENCE_COMMIT = "e59e0df";

/**
 * The pre-rewrite classifier, from git (extracted beside the sources so it resolves the same node_modules),
 * or undefined when the checkout has no history. Run with the feng2010-6 model both versions read.
 */
async function referenceClassifier(dir: string): Promise<Classifier | undefined> {
  const archive = spawnSync("sh", ["-c", `git archive ${REFERENCE_COMMIT} src | tar -x -C "${dir}"`], { cwd: ROOT, encoding: "utf8" });
  if (archive.status !== 0) return undefined;
  const old = (await import(join(dir, "src", "classify", "index.ts"))) as { loadClassifier: (path: string) => Classifier };
  return old.loadClassifier(join(ROOT, "test", "fixtures", "classify", "model-feng2010-6.json"));
}

/** The commit before the sentence-aligned features (round 2: feature set bitext-15/1 and its model). */
const PREVIOUS_ROUND = "f8f8d36";

/**
 * This round against the last: the classifier and shipped model of PREVIOUS_ROUND (extracted from git beside the
 * sources) and today's, on the same records, interleaved, median of `runs`. Undefined without the history.
 */
export async function againstPreviousRound(
  records: readonly ClassifierInput[],
  runs = 9,
): Promise<{ before: number; after: number } | undefined> {
  const dir = mkdtempSync(join(ROOT, ".bench-previous-"));
  try {
    const archive = spawnSync("sh", ["-c", `git archive ${PREVIOUS_ROUND} src models | tar -x -C "${dir}"`], {
      cwd: ROOT,
      encoding: "utf8",
    });
    if (archive.status !== 0) return undefined;
    const old = (await import(join(dir, "src", "classify", "index.ts"))) as { loadClassifier: (path: string) => Classifier };
    const before = old.loadClassifier(join(dir, "models", "default.json"));
    const after = loadClassifier();
    before.classify(records);
    after.classify(records);
    const tb: number[] = [];
    const ta: number[] = [];
    for (let i = 0; i < runs; i++) {
      tb.push(...timeRepeated(() => before.classify(records), 1, 0));
      ta.push(...timeRepeated(() => after.classify(records), 1, 0));
    }
    return { before: median(tb), after: median(ta) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Median ms of classifying `records` with each classifier, runs interleaved so both see the same machine load.
 * `a` is the reference, older than ParallelText: it gets the same records with the query as `{en, zh}`.
 */
function interleaved(a: Classifier, b: Classifier, records: readonly ClassifierInput[], runs: number): [number, number] {
  const old = records.map((r) => ({ ...r, query: annotationQuery(r.query) })) as unknown as ClassifierInput[];
  a.classify(old);
  b.classify(records);
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    ta.push(...timeRepeated(() => a.classify(old), 1, 0));
    tb.push(...timeRepeated(() => b.classify(records), 1, 0));
  }
  return [median(ta), median(tb)];
}

export async function run(): Promise<void> {
  const file = join(ROOT, "data", "annotations.bootstrap.jsonl");
  const records = parseAnnotations(file, readFileSync(file, "utf8"));
  const classifier = loadClassifier();
  const model = readModelFile(defaultModelPath());
  const svm = loadSvm(model.svm.libsvm);
  const lex = loadLexicon();
  const n = records.length;
  // First pass: warm the loads on a disjoint set (real records of other result pages), then one timed pass.
  const warm = readSerpRecords(join(SHARED, "serps", "modern")).slice(0, 400);
  classifier.classify(warm.map((r) => ({ query: parallelText(r.query, ""), title: r.title, url: r.url, snippet: r.snippet })));
  classifier.classify([{ query: parallelText("", ""), title: "", url: "", snippet: "I see. 我明白了。" }]); // jieba, CC-CEDICT
  let t = performance.now();
  classifier.classify(records);
  const firstPass = performance.now() - t;
  const rows = records.map((r) => applyScaling(model.scaling, recordFeatures(r, lex)));
  const full = median(timeRepeated(() => classifier.classify(records), 7, 1));
  const features = median(timeRepeated(() => records.map((r) => recordFeatures(r, lex)), 7, 1));
  const svmOnly = median(timeRepeated(() => svm.probabilities(rows), 7, 1));
  console.log(`Throughput, ${n} records of data/annotations.bootstrap.jsonl, one core:\n`);
  console.log("| stage | ms / all | records/s | µs/record |\n|---|---|---|---|");
  for (const [name, ms_] of [
    ["classify(), first pass (caches from 400 other records only)", firstPass],
    ["classify() = features + scaling + SVM, warm (median of 7)", full],
    ["features (clean, segment, tokenise, Sim), warm", features],
    ["SVM with probability estimates", svmOnly],
  ] as const) {
    console.log(`| ${name} | ${ms(ms_)} | ${((n * 1000) / ms_).toFixed(0)} | ${((ms_ * 1000) / n).toFixed(1)} |`);
  }

  const round = await againstPreviousRound(records);
  if (round) {
    console.log(
      `\nSame process, interleaved, median of 9, shipped models: ${PREVIOUS_ROUND} (bitext-15/1) ${((n * 1000) / round.before).toFixed(0)} records/s, ` +
        `now (${FEATURE_VERSION}) ${((n * 1000) / round.after).toFixed(0)} records/s; time per record now / before × ${(round.after / round.before).toFixed(2)}`,
    );
  }
  const refDir = mkdtempSync(join(ROOT, ".bench-reference-"));
  try {
    const reference = await referenceClassifier(refDir);
    if (reference) {
      const now = loadClassifier(join(ROOT, "test", "fixtures", "classify", "model-feng2010-6.json"));
      const [before, after] = interleaved(reference, now, records, 9);
      console.log(
        `\nSame process, interleaved, median of 9 (feng2010-6 model): before the rewrite (${REFERENCE_COMMIT}) ${((n * 1000) / before).toFixed(0)} records/s, ` +
          `now ${((n * 1000) / after).toFixed(0)} records/s: × ${(before / after).toFixed(2)}`,
      );
    }
  } finally {
    rmSync(refDir, { recursive: true, force: true });
  }

  const dir = mkdtempSync(join(tmpdir(), "bitext-bench-classify-"));
  try {
    const jsonl = join(dir, "records.jsonl");
    t = performance.now();
    const count = composeRecords(jsonl);
    const composeMs = performance.now() - t;
    const build = spawnSync("npm", ["run", "--silent", "build"], { cwd: ROOT, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`npm run build: ${build.stderr}${build.stdout}`);
    const runs = [0, 1, 2].map(() => endToEnd(jsonl, join(dir, "out.jsonl")));
    const e2e = median(runs.map((r) => r.ms));
    console.log(
      `\nEnd to end: \`bitext classify FILE --json\` (dist build, fresh process, stdout to a file) on ${count.toLocaleString("en")} composed records ` +
        `(${(statSync(jsonl).size / 1e6).toFixed(1)} MB, composed in ${(composeMs / 1000).toFixed(1)} s), median of 3:\n`,
    );
    const cpu = median(runs.map((r) => r.cpuMs));
    console.log("| records | wall s | records/s (wall) | CPU s | records/s (CPU) | lines out |\n|---|---|---|---|---|---|");
    console.log(
      `| ${count} | ${(e2e / 1000).toFixed(2)} | ${((count * 1000) / e2e).toFixed(0)} | ${(cpu / 1000).toFixed(2)} | ${((count * 1000) / cpu).toFixed(0)} | ${runs[0]!.lines} |`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const colds = [coldLoads(), coldLoads(), coldLoads()];
  const cold = (k: string) => ms(median(colds.map((c) => c[k]!)));
  console.log("\nCold loads (fresh process, median of 3):\n");
  console.log("| step | ms |\n|---|---|");
  console.log(`| load the model (models/default.json) | ${cold("model")} |`);
  console.log(`| jieba dictionary (first Chinese tokenisation) | ${cold("jieba")} |`);
  console.log(`| CC-CEDICT compact index (first lookup) | ${cold("cedict")} |`);
  console.log(`| CC-CEDICT reverse index (first English → Chinese lookup; Sim does not need it) | ${cold("reverse")} |`);
  console.log(`| first classify() call of one record, after those loads | ${cold("first")} |`);
  svm.free();
}
