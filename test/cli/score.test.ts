import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, runCommand } from "../helpers/cli.js";

const lines = (s: string) =>
  s
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { score: number; keep: boolean; reasons: string[] });

describe("bitext score", () => {
  it("prints one JSON line per input line, in order, from standard input", async () => {
    const input = "Good morning! How are you today?\t早上好！你今天好吗？\nHome\t首页\nI have 3 cats.\t我有4只猫。\n";
    const r = await runCommand(["score", "-"], { input });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(3);
    expect(out[0]).toMatchObject({ keep: true, reasons: [] });
    expect(out[1]!.reasons).toContain("boilerplate");
    expect(out[2]!.reasons).toContain("number_mismatch");
    for (const o of out) expect(Object.keys(o)).toEqual(["score", "keep", "reasons"]);
  });

  it("reads a file, and --threshold decides keep", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-score-"));
    const file = join(dir, "pairs.tsv");
    writeFileSync(file, "Office small talk\t办公室寒暄\n");
    const strict = lines((await runCommand(["score", file, "--threshold", "0.99"])).stdout)[0]!;
    const lenient = lines((await runCommand(["score", file, "--threshold", "0.05"])).stdout)[0]!;
    expect(strict.score).toBe(lenient.score);
    expect(strict.keep).toBe(strict.score >= 0.99);
    expect(lenient).toMatchObject({ keep: true, reasons: [] });
  });

  it("--document scores the file's pairs as one document: a line per pair, in order, and more of a glossary's terms kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-score-"));
    const file = join(dir, "glossary.tsv");
    // The W3C page's term pairs (the real page of the development data, copied in the fixtures).
    writeFileSync(file, readFileSync(join(FIXTURES, "real/bilingual-pages/real/w3c_clreq/clreq_index.pairs.tsv"), "utf8"));
    const alone = lines((await runCommand(["score", file])).stdout);
    const r = await runCommand(["score", file, "--document"]);
    expect(r.code).toBe(0);
    const together = lines(r.stdout);
    expect(together).toHaveLength(alone.length);
    expect(together.filter((v) => v.keep).length).toBeGreaterThan(alone.filter((v) => v.keep).length);
    // The rules decide the same either way.
    alone.forEach((v, i) => {
      if (v.reasons.some((x) => x !== "low_score")) expect(together[i]!.reasons).toEqual(v.reasons);
    });
  });

  it("names the line of a row without a tab, and exits non-zero", async () => {
    const r = await runCommand(["score", "-"], { input: "Hi.\t你好。\njust one column\n" });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe("bitext: stdin:2: expected en<TAB>zh");
  });

  it("--pair names a pair without a model in one line", async () => {
    const r = await runCommand(["score", "-", "--pair", "en-ja"], { input: "Hi.\tこんにちは。\n" });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/quality-en-ja\.json/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
