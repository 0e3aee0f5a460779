import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ReadOnlyInstallation } from "../../src/errors.js";
import { isInstallationPath } from "../../src/paths.js";
import { openStore } from "../../src/store/index.js";
import { FIXTURES, ROOT, runCommand } from "../helpers/cli.js";

/**
 * The installation is read-only, by one rule (src/paths.ts): any path at or under the package folder,
 * relative paths resolved against the working directory and symbolic links followed. Each command that
 * writes a file is refused there, with one line and nothing written (issue 23: `export records --out
 * <installation>/package.json` overwrote the package file, after which every command crashed).
 */

const base = mkdtempSync(join(tmpdir(), "bitext-guard-"));
const store = join(base, "bitext.db");
await (await openStore(store)).close();
const packageJson = join(ROOT, "package.json");
const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const packageBefore = sha(packageJson);
const made: string[] = [];
afterAll(() => {
  for (const f of made) rmSync(f, { recursive: true, force: true });
});

async function refused(args: string[], target: string, options: { cwd?: string } = {}) {
  made.push(target);
  const r = await runCommand(args, options);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).not.toBe(0);
  expect(r.stderr).toMatch(/^bitext: .*is a file of the bitext installation, which is read-only; write to your home instead/);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  return r;
}

describe("every command that writes refuses the installation", () => {
  it("export records --out <installation>/package.json leaves the package file as it was", async () => {
    await refused(["export", "records", "--db", store, "--out", packageJson], packageJson + ".never");
    expect(sha(packageJson)).toBe(packageBefore);
  });

  it("export corpus --out <installation>/corpus writes no corpus there", async () => {
    await refused(["export", "corpus", "--db", store, "--out", join(ROOT, "corpus")], join(ROOT, "corpus.tsv"));
    expect(existsSync(join(ROOT, "corpus.tsv"))).toBe(false);
  });

  it("extract --out, given relative to a working directory inside the installation", async () => {
    const page = join(FIXTURES, "extract", "dialogue-br-lines.html");
    await refused(["extract", page, "--out", "pairs"], join(ROOT, "test", "pairs.tsv"), { cwd: join(ROOT, "test") });
    expect(existsSync(join(ROOT, "test", "pairs.tsv"))).toBe(false);
  });

  it("train --out, before reading anything", async () => {
    await refused(["train", "--annotations", join(base, "none.jsonl"), "--out", join(ROOT, "model.json")], join(ROOT, "model.json"));
    expect(existsSync(join(ROOT, "model.json"))).toBe(false);
  });

  it("lexicon import --out, before reading the dictionary", async () => {
    const out = join(ROOT, "models", "dictionary-here.tsv");
    await refused(["lexicon", "import", join(base, "no-such.csv"), "--out", out], out);
    expect(existsSync(out)).toBe(false);
  });

  it("demo --dir, before the simulator or a browser starts", async () => {
    const dir = join(ROOT, "demo-here");
    await refused(["demo", "--dir", dir], dir);
    expect(existsSync(dir)).toBe(false);
  });

  it("site crawl --out, before the crawl folder is made", async () => {
    const out = join(ROOT, "crawl-here");
    await refused(["site", "crawl", "http://127.0.0.1:9/", "--out", out], out);
    expect(existsSync(out)).toBe(false);
  });

  it("annotate --out, before the annotation page is served", async () => {
    const records = join(base, "records.jsonl");
    writeFileSync(records, `${JSON.stringify({ query: { en: "a", zh: "甲" }, title: "t", url: "http://example.org/", snippet: "s" })}\n`);
    const out = join(ROOT, "annotations.jsonl");
    await refused(["annotate", "--records", records, "--out", out], out);
    expect(existsSync(out)).toBe(false);
  });

  it("init DIR inside the installation", async () => {
    const dir = join(ROOT, "test", "my-workspace");
    await refused(["init", dir], dir);
    expect(existsSync(join(dir, "bitext.config.json"))).toBe(false);
  });

  it("a store opened for writing (harvest, classify, fetch-pages, annotate --db)", async () => {
    const db = join(ROOT, "bitext.db");
    made.push(db);
    await expect(openStore(db)).rejects.toThrow(ReadOnlyInstallation);
    expect(existsSync(db)).toBe(false);
  });

  it("follows symbolic links: a link to the installation is the installation", () => {
    const link = join(base, "linked-install");
    symlinkSync(ROOT, link);
    expect(isInstallationPath(join(link, "package.json"))).toBe(true);
    expect(isInstallationPath(join(link, "no-such-dir", "x.tsv"))).toBe(true);
    expect(isInstallationPath(join(base, "x.tsv"))).toBe(false);
    expect(isInstallationPath(join(ROOT, "node_modules", ".cache", "x"))).toBe(false);
    expect(relative(ROOT, base).startsWith("..")).toBe(true);
  });
});
