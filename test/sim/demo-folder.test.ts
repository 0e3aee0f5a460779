/** The demo's folder is replaced as a whole, only when a demo succeeds, and never when it holds the user's files. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_MARKER, stageDemoFolder } from "../../src/sim/demo-folder.js";

const base = () => mkdtempSync(join(tmpdir(), "bitext-demo-folder-"));

describe("the demo folder", () => {
  it("swaps a finished demo in, the previous one removed, the wrapper files naming the final folder", () => {
    const dir = join(base(), "demo");
    mkdirSync(dir);
    writeFileSync(join(dir, "bitext.db"), "old");
    const folder = stageDemoFolder(dir);
    mkdirSync(join(folder.staging, "wrappers"));
    writeFileSync(join(folder.staging, "bitext.db"), "new");
    writeFileSync(join(folder.staging, "wrappers", "e.json"), JSON.stringify({ file: join(folder.staging, "wrappers", "e.sample.html") }));
    folder.commit();
    expect(readFileSync(join(dir, "bitext.db"), "utf8")).toBe("new");
    expect(JSON.parse(readFileSync(join(dir, "wrappers", "e.json"), "utf8")).file).toBe(join(dir, "wrappers", "e.sample.html"));
    expect(existsSync(join(dir, DEMO_MARKER))).toBe(true);
    expect(readdirSync(join(dir, ".."))).toEqual(["demo"]); // no staging or old folder left
  });

  it("leaves the previous demo untouched when a run is discarded", () => {
    const dir = join(base(), "demo");
    mkdirSync(dir);
    writeFileSync(join(dir, "corpus.tsv"), "kept");
    const folder = stageDemoFolder(dir);
    writeFileSync(join(folder.staging, "corpus.tsv"), "half");
    folder.discard();
    expect(readFileSync(join(dir, "corpus.tsv"), "utf8")).toBe("kept");
    expect(readdirSync(join(dir, ".."))).toEqual(["demo"]);
  });

  it("refuses a folder holding files that are not a demo's (demo --dir ~ must not delete a home)", () => {
    const dir = base();
    writeFileSync(join(dir, "thesis.tex"), "mine");
    expect(() => stageDemoFolder(dir)).toThrow(/holds files that are not a demo's/);
    expect(readdirSync(dir)).toEqual(["thesis.tex"]);
  });
});
