/**
 * `bitext quality train` and `bitext eval quality` end to end on real pairs (fixtures with provenance in
 * test/fixtures/README.md): two sources laid out as folders, one page held out by a list, the model written into
 * the user's home and then used by `bitext score` in place of the shipped one.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, runCommand } from "../helpers/cli.js";

interface Row {
  source: string;
  kind: "fold" | "pooled" | "held-out";
  positives: number;
  negatives: number;
  keepRate: number;
  precision: number;
}

const lineCount = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim()).length;

describe("bitext quality train / eval quality", () => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-quality-train-"));
  const tatoeba = join(dir, "tatoeba", "pairs.tsv");
  const glossary = join(dir, "glossary", "terms.pairs.tsv");
  const heldOut = join(dir, "glossary", "held.pairs.tsv");
  const list = join(dir, "holdout.md");
  const home = join(dir, "home");
  const files = [tatoeba, glossary, heldOut];

  beforeAll(() => {
    for (const f of files) mkdirSync(join(f, ".."), { recursive: true });
    copyFileSync(join(FIXTURES, "quality", "tatoeba-heldout.tsv"), tatoeba);
    const terms = readFileSync(join(FIXTURES, "quality", "rust-glossary.pairs.tsv"), "utf8")
      .trimEnd()
      .split("\n");
    writeFileSync(glossary, `${terms.slice(0, 80).join("\n")}\n`);
    writeFileSync(heldOut, `${terms.slice(80).join("\n")}\n`);
    writeFileSync(list, "# Held out\n- glossary/held.html\n");
  });

  it("trains with folds by source, reports each source, and writes the model into the home", async () => {
    const r = await runCommand(["quality", "train", ...files, "--exclude", list, "--home", home, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { out: string; threshold: number; evaluation: Row[] };
    expect(out.out).toBe(join(home, "models", "quality-en-zh.json"));
    expect(out.threshold).toBeGreaterThan(0);
    expect(out.threshold).toBeLessThan(1);
    const row = (source: string) => out.evaluation.find((x) => x.source === source)!;
    expect(out.evaluation.map((x) => [x.source, x.kind])).toEqual([
      ["tatoeba", "fold"],
      ["glossary", "fold"],
      ["all folds", "pooled"],
      ["glossary (held-out)", "held-out"],
    ]);
    // Every true pair of a source is measured, the held-out page's apart from its folder's fold.
    expect(row("tatoeba").positives).toBe(lineCount(tatoeba));
    expect(row("glossary").positives).toBe(80);
    expect(row("glossary (held-out)").positives).toBe(lineCount(heldOut));
    expect(row("all folds").positives).toBe(lineCount(tatoeba) + 80);
    for (const x of out.evaluation) expect(x.negatives).toBeGreaterThan(0);
    // The threshold is the one keeping the most at 0.98 precision over the folds' pairs together (reachable here).
    expect(row("all folds").precision).toBeGreaterThanOrEqual(0.98);

    const model = JSON.parse(readFileSync(out.out, "utf8")) as {
      formatVersion: number;
      threshold: number;
      lexicon: string[];
      trees: { share: number; trees: unknown[] };
      training: { sources: Array<{ name: string; positives: number }> };
    };
    expect(model.threshold).toBe(out.threshold);
    // Format 2: boosted trees beside the logistic regression, half the score.
    expect(model.formatVersion).toBe(2);
    expect(model.trees.share).toBe(0.5);
    expect(model.trees.trees.length).toBe(50);
    expect(model.lexicon).toContain("cc-cedict");
    // The held-out page is never trained on.
    expect(model.training.sources.map((s) => s.name)).toEqual(["tatoeba", "glossary"]);
  });

  it("bitext score then reads the home's model instead of the shipped one", async () => {
    const input = "They won.\t他们赢了。\nabstract syntax tree\t抽象语法树\nTom is quite drunk now.\t汤姆不在酒店。\n";
    const scores = async (h: string) => {
      const r = await runCommand(["score", "-", "--home", h], { input });
      expect(r.code).toBe(0);
      return r.stdout
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as { score: number }).score);
    };
    const own = await scores(home);
    const shipped = await scores(join(dir, "empty-home"));
    expect(own).toHaveLength(3);
    expect(own).not.toEqual(shipped);
  });

  it("eval quality measures the same way and writes nothing", async () => {
    const other = join(dir, "eval-home");
    const r = await runCommand(["eval", "quality", ...files, "--exclude", list, "--home", other]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^source\s+kind\s+true\s+negatives\s+kept\s+precision/m);
    expect(r.stdout).toMatch(/^glossary \(held-out\)\s+held-out\s+22\s/m);
    expect(r.stdout).toMatch(/^threshold 0\.\d+$/m);
    expect(existsSync(join(other, "models"))).toBe(false);
  });

  it("refuses one source: the folds leave one out", async () => {
    const r = await runCommand(["eval", "quality", tatoeba, "--home", join(dir, "one")]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe("bitext: give pairs of at least two sources (folders): the folds leave one source out");
  });
});

describe("bitext eval quality --seeds", () => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-quality-seeds-"));
  const files = [join(dir, "tatoeba", "pairs.tsv"), join(dir, "glossary", "terms.pairs.tsv")];

  beforeAll(() => {
    for (const f of files) mkdirSync(join(f, ".."), { recursive: true });
    copyFileSync(join(FIXTURES, "quality", "tatoeba-heldout.tsv"), files[0]!);
    copyFileSync(join(FIXTURES, "quality", "rust-glossary.pairs.tsv"), files[1]!);
  });

  it("measures once per seed, each as --seed would, and prints their mean", async () => {
    const home = join(dir, "home");
    const r = await runCommand(["eval", "quality", ...files, "--seeds", "1-2", "--home", home, "--json"]);
    expect(r.code).toBe(0);
    const runs = JSON.parse(r.stdout) as Array<{ seed: number; threshold: number; evaluation: Row[] }>;
    expect(runs.map((x) => x.seed)).toEqual([1, 2]);
    const single = JSON.parse((await runCommand(["eval", "quality", ...files, "--seed", "2", "--home", home, "--json"])).stdout) as {
      threshold: number;
      evaluation: Row[];
    };
    expect(runs[1]!.threshold).toBe(single.threshold);
    expect(runs[1]!.evaluation).toEqual(single.evaluation);

    const table = (await runCommand(["eval", "quality", ...files, "--seeds", "1,2", "--home", home])).stdout.trimEnd().split("\n");
    expect(table[0]).toMatch(/^seed\s+threshold\s+tatoeba\s+glossary\s+pooled kept\s+pooled precision\s+mean of folds$/);
    expect(table.map((l) => l.split(/\s+/)[0])).toEqual(["seed", "1", "2", "mean"]);
    const pooled = runs.map((x) => x.evaluation.find((e) => e.kind === "pooled")!.keepRate);
    const meanPooled = Number.parseFloat(table[3]!.split(/\s+/)[4]!);
    expect(meanPooled).toBeCloseTo((100 * (pooled[0]! + pooled[1]!)) / 2, 1);
  });

  it("names a list it cannot read", async () => {
    const r = await runCommand(["eval", "quality", ...files, "--seeds", "one,two"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('bitext: --seeds: expected a range (1-4) or a list (1,2,5) of whole numbers, got "one,two"');
  });
});
