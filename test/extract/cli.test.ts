import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "./helpers.js";

const ROOT = join(import.meta.dirname, "..", "..");
const bitext = (...args: string[]) =>
  spawnSync(join(ROOT, "node_modules", ".bin", "tsx"), [join(ROOT, "src", "cli", "main.ts"), ...args], {
    encoding: "utf8",
    cwd: mkdtempSync(join(tmpdir(), "bitext-cli-")),
  });

describe("bitext extract / eval extract on the command line", () => {
  it("prints one {en, zh, score, source_url} object per pair with --json", () => {
    const page = join(FIXTURES, "feng2011-figure3.html");
    const r = bitext("extract", "--json", page);
    expect(r.status).toBe(0);
    const objs = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objs).toHaveLength(7); // the page's seven sentence pairs; its menu terms are navigation
    expect(Object.keys(objs[0]!)).toEqual(["en", "zh", "score", "source_url", "method"]); // the corpus JSONL schema (export corpus)
    expect(objs).toContainEqual(expect.objectContaining({ en: "How about yourself?", zh: "你如何呢？", source_url: page }));
  });

  it("writes Moses files with --out", () => {
    const out = join(mkdtempSync(join(tmpdir(), "bitext-moses-")), "pairs");
    const r = bitext("extract", "--format", "moses", "--out", out, join(FIXTURES, "bilingual-news.html"), join(FIXTURES, "glossary-table.html"));
    expect(r.status).toBe(0);
    const en = readFileSync(`${out}.en`, "utf8").trimEnd().split("\n");
    const zh = readFileSync(`${out}.zh`, "utf8").trimEnd().split("\n");
    expect(en.length).toBe(zh.length);
    expect(en).toContain("machine translation");
  });

  it("fails in one line on a missing page or an unknown format", () => {
    const missing = bitext("extract", "no-such-page.html");
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe("bitext: no-such-page.html: cannot read page (no such file)");
    const format = bitext("extract", "--format", "xml", join(FIXTURES, "feng2011-figure3.html"));
    expect(format.status).toBe(1);
    expect(format.stderr).toMatch(/--format: unknown format "xml"/);
  });

  it("prints the evaluation table", () => {
    const r = bitext("eval", "extract", FIXTURES, "--system", "baseline", "full");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^system\s+match\s+P\s+R\s+F1/);
    expect(r.stdout).toMatch(/full\s+exact\s+0\.9/);
  });
});
