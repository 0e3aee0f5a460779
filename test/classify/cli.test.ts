import { parallelText } from "../../src/language-pair.js";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateClassifier } from "../../src/classify/index.js";
import { classifyStoredRecords, loadClassifier, readAnnotations, readModelFile } from "../../src/classify/index.js";
import { formatClassifierReport } from "../../src/cli/eval-classifier.js";
import { getRecord, listRecords, openStore, recordFetch } from "../../src/store/index.js";
import { BITEXT_SHELL, ROOT, runCommand } from "../helpers/cli.js";

const fixture = new URL("../fixtures/classify/annotations-sample.jsonl", import.meta.url).pathname;
const lines = readFileSync(fixture, "utf8").trim().split("\n");
const dir = mkdtempSync(join(tmpdir(), "bitext-classify-cli-"));
const records = lines.slice(0, 12).map((l) => {
  const { query, title, url, snippet, source } = JSON.parse(l) as Record<string, unknown>;
  return { query, title, url, snippet, source };
});

describe("bitext classify", () => {
  it("labels JSONL records from stdin and writes each back with label and probability", async () => {
    const r = await runCommand(["classify", "--json"], { input: records.map((x) => JSON.stringify(x)).join("\n") });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(records.length);
    out.forEach((o, i) => {
      expect(o.snippet).toBe(records[i]!.snippet);
      expect(o.source).toBe(records[i]!.source); // other fields pass through
      expect(["bilingual", "monolingual"]).toContain(o.label);
      expect(o.label).toBe((o.probability as number) >= 0.5 ? "bilingual" : "monolingual");
      expect(o.model).toMatch(/^default@/);
    });
  });

  it("reads a pipe whose writer is slower than the reader (no EAGAIN on a non-blocking stdin)", async () => {
    const file = join(dir, "slow.jsonl");
    writeFileSync(file, records.map((x) => JSON.stringify(x)).join("\n"));
    // A real process behind a real pipe: what is tested is how standard input is read.
    const cli = `${BITEXT_SHELL} classify --json`;
    const r = spawnSync("bash", ["-c", `(sleep 1; cat ${JSON.stringify(file)}) | ${cli} | wc -l`], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe(String(records.length));
  });

  it("rejects a bad input line with its line number, writing nothing", async () => {
    const r = await runCommand(["classify", "--json"], {
      input: `${JSON.stringify(records[0])}\n{"query":{"en":"x","zh":"y"},"title":"t"}\n`,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe("bitext: stdin:2: snippet: missing");
  });

  it("labels the records of the harvest store with --db, once per model unless --all", async () => {
    const db = join(dir, "store.db");
    const store = await openStore(db);
    const query = parallelText("I quit!", "我不干了!");
    await recordFetch(
      store,
      {
        runId: null,
        engine: "bing",
        query,
        page: 1,
        url: "https://bing.test/?q=1",
        status: "ok",
        startedAt: new Date().toISOString(),
        durationMs: 5,
      },
      [
        // (The seed's "I see. 我明白了。" holds no dictionary evidence of translation; "I understand" does.)
        { url: "https://a.test/", title: "I quit! 我不干了!", snippet: "I understand. 我明白了。 I quit! 我不干了!", rank: 1 },
        {
          url: "https://b.test/",
          title: "气枪",
          snippet: "记者从旺苍县公安局获悉，旺苍县公安局通过一起网购高压气枪案件，成功破获了一桩案件。",
          rank: 2,
        },
      ],
    );
    // In-process: a rerun only labels what this model has not labelled; --all relabels everything.
    const classifier = loadClassifier();
    expect(await classifyStoredRecords(store, classifier)).toEqual({ classified: 2, bilingual: 1, monolingual: 1 });
    expect((await classifyStoredRecords(store, classifier)).classified).toBe(0);
    expect((await classifyStoredRecords(store, classifier, { all: true })).classified).toBe(2);
    const [a, b] = (await listRecords(store)).sort((x, y) => x.rank - y.rank);
    expect((await getRecord(store, a!.id))?.label).toBe("bilingual");
    expect(b!.label).toBe("monolingual");
    expect(a!.model).toBe(classifier.modelId);
    expect(a!.probability).toBeGreaterThan(0.5);
    await store.close();
    // The command: the same through --db.
    const r = await runCommand(["classify", "--db", db, "--all", "--json"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ classified: 2, bilingual: 1, monolingual: 1, model: classifier.modelId });
  });

  it("refuses --db on a store that does not exist", async () => {
    const r = await runCommand(["classify", "--db", join(dir, "none.db")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/none\.db: no harvest store here/);
  });
});

describe("bitext train and bitext eval classifier", () => {
  it("trains a model file and prints the CV table", async () => {
    const out = join(dir, "trained.json");
    const r = await runCommand(["train", "--annotations", fixture, "--out", out, "--c", "2,32", "--gamma", "0.5,8", "--folds", "3"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/C\s+gamma\s+precision\s+recall\s+F1\s+accuracy/);
    expect(r.stdout.match(/^\*?\s+(2|32)\s+(0\.5|8)\s/gm)).toHaveLength(4);
    const model = readModelFile(out);
    expect(model.training.size).toBe(lines.length);
    expect(model.training.file).toMatch(/annotations-sample\.jsonl$/);
  });

  it("reports precision, recall, F1, the confusion matrix and the W / W+L / W+L+F / W+L+F+X / W+L+F+X+T ablation", async () => {
    // In-process (the command only formats this report): a CLI run would reload jieba and CC-CEDICT.
    const { annotations } = readAnnotations(fixture);
    const report = evaluateClassifier(annotations, { grid: { C: [2, 32], gamma: [0.5, 8] }, folds: 3 });
    expect(report.size).toBe(lines.length);
    expect(report.ablation.map((a) => a.features)).toEqual(["W", "W+L", "W+L+F", "W+L+F+X", "W+L+F+X+T"]);
    const f = report.full;
    expect(f.tp + f.fp + f.tn + f.fn).toBe(lines.length);
    expect(f.precision).toBeCloseTo(f.tp / (f.tp + f.fp));
    expect(f.recall).toBeCloseTo(f.tp / (f.tp + f.fn));
    expect(report.byKind.reduce((n, k) => n + k.n, 0)).toBe(lines.length);
    expect(report.byKind.reduce((n, k) => n + k.errors, 0)).toBe(f.fp + f.fn);
    const text = formatClassifierReport(report);
    expect(text).toMatch(/^W\s+\d+\s+[\d.]+\s+[\d.]+%/m);
    expect(text).toMatch(/^W\+L\+F\s/m);
    expect(text).toMatch(new RegExp(`^bilingual\\s+${f.tp}\\s+${f.fn}$`, "m"));
  });

  it("eval classifier --by-source needs annotations and pages, and pools given as NAME=SOURCES", async () => {
    const r = await runCommand(["eval", "classifier", "--by-source", "--annotations", fixture]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--by-source: give --annotations FILE and --pages DIR/);
    const pages = new URL("../fixtures/classify/pages", import.meta.url).pathname;
    const p = await runCommand(["eval", "classifier", "--by-source", "--annotations", fixture, "--pages", pages, "--pool", "literary"]);
    expect(p.code).toBe(1);
    expect(p.stderr).toMatch(/--pool: "literary": expected NAME=SOURCE/);
    expect(p.stdout).toBe("");
  });

  it("rejects an annotations file with a bad line", async () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${lines[0]}\n${lines[1]!.replace('"label":', '"lable":')}\n`);
    const r = await runCommand(["train", "--annotations", bad, "--out", join(dir, "x.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`bitext: ${bad}:2: label: expected "bilingual" or "monolingual"`);
  });
});
