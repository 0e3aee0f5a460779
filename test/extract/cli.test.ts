import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_ELEMENTS } from "../../src/html/index.js";
import { runCommand } from "../helpers/cli.js";
import { FIXTURES } from "./helpers.js";

const bitext = (...args: string[]) => runCommand(args, { cwd: mkdtempSync(join(tmpdir(), "bitext-cli-")) });

describe("bitext extract / eval extract on the command line", () => {
  it("prints one {en, zh, score, source_url} object per pair with --json", async () => {
    const page = join(FIXTURES, "feng2011-figure3.html");
    const r = await bitext("extract", "--json", page);
    expect(r.code).toBe(0);
    const objs = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objs).toHaveLength(7); // the page's seven sentence pairs; its menu terms are navigation
    expect(Object.keys(objs[0]!)).toEqual(["en", "zh", "score", "source_url", "method"]); // the corpus JSONL schema (export corpus)
    expect(objs).toContainEqual(expect.objectContaining({ en: "How about yourself?", zh: "你如何呢？", source_url: page }));
  });

  it("writes Moses files with --out", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "bitext-moses-")), "pairs");
    const r = await bitext(
      "extract",
      "--format",
      "moses",
      "--out",
      out,
      join(FIXTURES, "bilingual-news.html"),
      join(FIXTURES, "glossary-table.html"),
    );
    expect(r.code).toBe(0);
    const en = readFileSync(`${out}.en`, "utf8").trimEnd().split("\n");
    const zh = readFileSync(`${out}.zh`, "utf8").trimEnd().split("\n");
    expect(en.length).toBe(zh.length);
    expect(en).toContain("machine translation");
  });

  it("goes on past a page it cannot read, naming it, and exits 65 once the others' pairs are out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-hostile-"));
    const hostile = join(dir, "hostile.html");
    writeFileSync(hostile, `<html><body>${"<i>x</i>".repeat(MAX_ELEMENTS + 1)}</body></html>`);
    const a = join(FIXTURES, "feng2011-figure3.html");
    const b = join(FIXTURES, "bilingual-news.html");
    const r = await bitext("extract", "--json", a, hostile, join(dir, "missing.html"), b);
    const sources = new Set(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as { source_url: string }).source_url),
    );
    expect([...sources].sort()).toEqual([a, b].sort());
    expect(r.stderr).toMatch(new RegExp(`^bitext: ${hostile}: page skipped \\(too-many-elements\\).* \\(skipped\\)$`, "m"));
    expect(r.stderr).toMatch(new RegExp(`^bitext: ${join(dir, "missing.html")}: cannot read page \\(no such file\\) \\(skipped\\)$`, "m"));
    expect(r.code).toBe(65);
  });

  it("fails in one line on a missing page or an unknown format", async () => {
    const missing = await bitext("extract", "no-such-page.html");
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe("bitext: no-such-page.html: cannot read page (no such file)");
    const format = await bitext("extract", "--format", "xml", join(FIXTURES, "feng2011-figure3.html"));
    expect(format.code).toBe(1);
    expect(format.stderr).toMatch(/--format: unknown format "xml"/);
  });

  it("prints the evaluation table", async () => {
    const r = await bitext("eval", "extract", FIXTURES, "--system", "baseline", "full");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^system\s+match\s+P\s+R\s+F1/);
    expect(r.stdout).toMatch(/full\s+exact\s+0\.9/);
  });
});
