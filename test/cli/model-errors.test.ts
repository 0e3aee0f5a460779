import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { loadScorer } from "../../src/quality/index.js";
import { EN_ZH } from "../../src/text/index.js";
import { ROOT, runCommand } from "../helpers/cli.js";

/*
 * A model file made for other features: the library says what is wrong with the file and gives the error a kind;
 * only the CLI names the command that makes a new one (issue 29: no command named in library messages).
 */
const dir = mkdtempSync(join(tmpdir(), "bitext-model-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shipped model, its feature set renamed: a model an older bitext trained. */
function staleCopy(shipped: string, name: string): string {
  const model = JSON.parse(readFileSync(join(ROOT, "models", shipped), "utf8")) as { features: { version: string } };
  model.features.version = "an-older-feature-set";
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(model));
  return path;
}

describe("a model made for other features", () => {
  it("pair scorer: the library's error has a kind and names no command; the CLI adds how to retrain", async () => {
    const path = staleCopy("quality-en-zh.json", "quality.json");
    let caught: unknown;
    try {
      loadScorer(EN_ZH, { modelPath: path });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).kind).toBe("quality-model-unusable");
    expect((caught as UserError).message).not.toMatch(/retrain|bitext (quality|train)\b/);

    const pairs = join(dir, "pairs.tsv");
    writeFileSync(pairs, "Good morning.\t早上好。\n");
    const r = await runCommand(["score", pairs, "--model", path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/features: made for an-older-feature-set.*; retrain with bitext quality train/);
  });

  it("classifier: the CLI adds how to retrain", async () => {
    const path = staleCopy("default.json", "classifier.json");
    const r = await runCommand(["classify", "--model", path], {
      input: `${JSON.stringify({ query: { en: "Good morning", zh: "早上好" }, title: "t", url: "https://example.org/", snippet: "Good morning 早上好" })}\n`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/trained on feature set an-older-feature-set.*; retrain with bitext train/);
  });
});
