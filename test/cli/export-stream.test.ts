import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { BITEXT_SHELL, ROOT, runCommand } from "../helpers/cli.js";
import { buildRecordStore } from "../helpers/record-store.js";

/**
 * `bitext export records` in a shell pipeline, as users run it: a reader that stops early (`head`)
 * ends the export quietly with status 0; a reader that takes everything (`wc -l`) gets every record.
 */

const RECORDS = 20_000;
const BITEXT = BITEXT_SHELL;
let db: string;
let dir: string;

/** A real process in a shell pipeline: what is tested is the pipe (a reader that stops early, or takes all). */
function shell(script: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("bash", ["-c", script], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "bitext-export-"));
  db = join(dir, "bitext.db");
  await buildRecordStore(db, RECORDS);
});

describe("bitext export records in a pipeline", { timeout: 180_000 }, () => {
  it("| head -3 ends with status 0 and no error output", () => {
    for (const format of ["jsonl", "csv"]) {
      const r = shell(`${BITEXT} export records --db ${db} --format ${format} 2>err.txt | head -3; echo "status=\${PIPESTATUS[0]}"`);
      const lines = r.stdout.trim().split("\n");
      expect(lines.at(-1)).toBe("status=0");
      expect(lines).toHaveLength(4);
      expect(readFileSync(join(dir, "err.txt"), "utf8")).toBe("");
    }
  });

  it("| wc -l counts every record", () => {
    const r = shell(`${BITEXT} export records --db ${db} | wc -l; echo "status=\${PIPESTATUS[0]}"`);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim().split("\n")).toEqual([String(RECORDS), "status=0"]);
  });

  it("--out writes the file whole, the same rows as standard output", async () => {
    const out = join(dir, "records.csv");
    const r = await runCommand(["export", "records", "--db", db, "--format", "csv", "--out", out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`bitext: wrote ${RECORDS} records to ${out}\n`);
    const csv = readFileSync(out, "utf8");
    expect(csv.split("\n")[0]).toMatch(/^id,engine,query_en,/);
    // Every record's snippet holds a quote and a comma: one line per record, quoted (RFC 4180).
    expect(csv.trimEnd().split("\n")).toHaveLength(RECORDS + 1);
    expect(csv).toContain(
      '"I see, 19999. 我明白了。 He was accused of murder, ""a test"" with a comma, and a quote. 他被指控谋杀。 19999"',
    );
  });
});
