import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EN_ZH, learnLexiconFromSentences, parseParallelTsv, readLexiconFile } from "../../src/text/index.js";
import { runCommand } from "../helpers/cli.js";

const fixture = new URL("../fixtures/text/tatoeba-sample.tsv", import.meta.url).pathname;

describe("learning translation equivalents from a parallel corpus", () => {
  it("finds word translations in real Tatoeba sentence pairs", () => {
    const sentences = parseParallelTsv(fixture, readFileSync(fixture, "utf8"));
    expect(sentences).toHaveLength(200);
    expect(sentences[0]!.attribution).toMatch(/^CC-BY 2\.0 \(France\) Attribution: tatoeba\.org/);
    const learned = learnLexiconFromSentences(sentences, EN_ZH, { minCount: 2 });
    const tom = learned.find((p) => p.a === "tom");
    expect(tom?.b).toBe("汤姆");
    expect(tom!.weight).toBeGreaterThan(0.8);
    // Stop words and numbers align but are never output.
    expect(learned.some((p) => p.a === "the" || p.b === "的" || /^\d+$/.test(p.a))).toBe(false);
    for (const p of learned) expect(p.weight).toBeGreaterThanOrEqual(0.1);
  });

  it("bitext lexicon learn writes a lexicon file with its source and licence", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-lexicon-"));
    const out = join(dir, "lexicon-sample.tsv");
    const { code, stdout, stderr } = await runCommand(["lexicon", "learn", fixture, "--out", out, "--json"]);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as { entries: number; sentences: number; licence: string };
    expect(summary.sentences).toBe(200);
    expect(summary.licence).toBe("CC-BY 2.0 (France)"); // read from the attribution column
    const file = readLexiconFile(out);
    expect(file.languages).toEqual(["zh", "en"]);
    expect(file.header.licence).toBe("CC-BY 2.0 (France)");
    expect(file.header.source).toContain("tatoeba-sample.tsv: 200 sentence pairs");
    expect(file.entries).toHaveLength(summary.entries);
    expect(file.entries.find((e) => e.a === "汤姆")?.b).toBe("tom");
  });

  it("rejects a malformed corpus line with the file and line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-lexicon-"));
    const bad = join(dir, "bad.tsv");
    writeFileSync(bad, "Hi.\t你好。\nno tab here\n");
    const err = await runCommand(["lexicon", "learn", bad, "--out", join(dir, "x.tsv")]);
    expect(err.code).toBe(1);
    expect(err.stderr.trim()).toBe(`bitext: ${bad}:2: expected A<TAB>B[<TAB>attribution]`);
  });

  it("ships a lexicon learned from Tatoeba that keeps its attribution", () => {
    const file = readLexiconFile(new URL("../../models/lexicon-tatoeba.tsv", import.meta.url).pathname);
    expect(file.header.licence).toMatch(/CC-BY 2\.0 FR/);
    expect(file.header.source).toMatch(/Tatoeba/);
    expect(file.entries.length).toBeGreaterThan(3000);
  });
});
