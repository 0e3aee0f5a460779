import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { runCommand } from "../helpers/cli.js";

/** A copy of the store made by bitext bb80c07 (three pairs, one a navigation label), in a folder of its own. */
async function oldStore(config?: unknown): Promise<{ dir: string; db: string }> {
  const dir = mkdtempSync(join(tmpdir(), "bitext-export-quality-"));
  const db = join(dir, "bitext.db");
  copyFileSync(new URL("../fixtures/store/bb80c07-v5.db", import.meta.url), db);
  await (await openStore(db)).close(); // migrated by a command that writes (export opens the store read-only)
  if (config) writeFileSync(join(dir, "bitext.config.json"), JSON.stringify(config));
  return { dir, db };
}

describe("bitext export corpus, filtered by the pair scorer", () => {
  it("writes the rejected pairs with their reasons, and --min-score sets the bar", async () => {
    const { dir, db } = await oldStore();
    const rejected = join(dir, "rejected.jsonl");
    const r = await runCommand(
      ["export", "corpus", "--db", db, "--format", "jsonl", "--out", join(dir, "c"), "--rejected", rejected, "--json"],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { pairs: number; rejected: number; rejected_by_reason: Record<string, number> };
    expect(summary.rejected_by_reason["boilerplate"]).toBe(1);
    const lines = readFileSync(rejected, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { en: string; reasons: string[] });
    expect(lines).toContainEqual(expect.objectContaining({ en: "Home", reasons: ["boilerplate"] }));
    const lenient = await runCommand(["export", "corpus", "--db", db, "--format", "jsonl", "--min-score", "0.01"], { cwd: dir });
    const kept = lenient.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { en: string });
    expect(kept.map((k) => k.en).sort()).toEqual(["Good morning!", "I see."]); // the label is rejected by its rule whatever the bar
  });

  it("takes the bar from the config file's quality.minScore", async () => {
    const { dir, db } = await oldStore({ quality: { minScore: 0.999999 } });
    // The folder's config file is found from the working folder (no BITEXT_HOME naming another home).
    const r = await runCommand(["export", "corpus", "--db", db, "--format", "jsonl", "--out", join(dir, "c"), "--json"], {
      cwd: dir,
      env: { BITEXT_HOME: undefined },
    });
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { pairs: number; rejected: number; rejected_by_reason: Record<string, number> };
    expect(summary.pairs).toBe(0);
    expect(summary.rejected_by_reason["low_score"]).toBe(2);
  });

  it("refuses --columns with a format other than TSV, and an unknown column", async () => {
    const { dir, db } = await oldStore();
    const a = await runCommand(["export", "corpus", "--db", db, "--format", "jsonl", "--columns", "en,zh"], { cwd: dir });
    expect(a.code).not.toBe(0);
    expect(a.stderr).toMatch(/--columns chooses TSV columns/);
    const b = await runCommand(["export", "corpus", "--db", db, "--columns", "en,colour"], { cwd: dir });
    expect(b.stderr).toMatch(/--columns: no column "colour"/);
  });
});
