/**
 * Leave-one-source-out evaluation on small real data: the bootstrap set built from the fixture result pages,
 * Tatoeba sample and real bilingual pages; each page source is tested by a model trained without it.
 */
import { describe, expect, it } from "vitest";
import { buildBootstrapSet } from "../../src/classify/index.js";
import { readHeldOutPairs, readRealBilingualPages, readSerpRecords } from "../../src/classify/index.js";
import { calibration, evaluateBySource, mismatchedSnippets, pageSnippets } from "../../src/classify/index.js";

const serps = new URL("../fixtures/classify/serps", import.meta.url).pathname;
const tatoeba = new URL("../fixtures/text/tatoeba-sample.tsv", import.meta.url).pathname;
const pagesDir = new URL("../fixtures/classify/pages", import.meta.url).pathname;

describe("leave one source out", () => {
  const all = readRealBilingualPages(pagesDir);
  const heldOutPages = all.filter((p) => p.source === "xlhhai_translations/rivers");
  const pages = all.filter((p) => p.source !== "xlhhai_translations/rivers");
  const serp = readSerpRecords(serps);
  const annotations = buildBootstrapSet(
    { serp, parallel: readHeldOutPairs(tatoeba, 1), page: [], realPages: pages },
    { seed: 3, when: "2024-01-01T00:00:00Z", perKind: 30, perSource: 15 },
  );
  const report = evaluateBySource(
    annotations,
    { pages, heldOutPages, serpSets: [{ name: "serps", records: serp }] },
    { params: { C: 8, gamma: 0.5 }, pools: [{ name: "literary", sources: ["xlhhai_translations", "kanblog_yykan"] }] },
  );
  const row = (source: string, kind: string, heldOut = false) =>
    report.rows.find((r) => r.source === source && r.kind === kind && r.heldOut === heldOut)!;

  it("tests every page source on its own snippets, its annotations left out of training", () => {
    for (const folder of ["kanblog_yykan", "pep_cn_terms", "xlhhai_translations"]) {
      const mine = pages.filter((p) => p.source.startsWith(`${folder}/`));
      // Its snippets, and the crossed ones that put another source's unit beside one of its units.
      const fromIt = annotations.filter((a) => a.source!.includes(`: ${folder}/`) || a.source!.includes(` crossed with ${folder}/`)).length;
      expect(fromIt).toBeGreaterThan(0);
      expect(row(folder, "bilingual pages").leftOut).toBe(fromIt);
      expect(row(folder, "bilingual pages").n).toBe(mine.flatMap((p) => pageSnippets(p)).length);
      expect(row(folder, "mismatched snippets").n).toBe(mine.flatMap((p) => mismatchedSnippets(p)).length);
    }
    // Result records: their own annotations (serp, serp-highlight, hard-zh-terms made from them) are left out.
    const serpRow = row("serps", "monolingual results");
    expect(serpRow.n).toBe(serp.length);
    expect(serpRow.leftOut).toBe(annotations.filter((a) => a.source!.includes("serp serps/")).length);
    expect(serpRow.leftOut).toBeGreaterThan(serp.length);
  });

  it("reports held-out pages apart, tested by the model trained on everything", () => {
    const held = row("xlhhai_translations", "bilingual pages", true);
    expect(held.leftOut).toBe(0);
    expect(held.n).toBe(pageSnippets(heldOutPages[0]!).length);
  });

  it("pools recall and mismatched rates over development sources only, and calibrates the left-out probabilities", () => {
    const lit = report.pools[0]!;
    const rows = ["xlhhai_translations", "kanblog_yykan"].map((s) => row(s, "bilingual pages"));
    expect(lit.snippets).toBe(rows[0]!.n + rows[1]!.n);
    expect(lit.recall).toBeCloseTo((rows[0]!.bilingual + rows[1]!.bilingual) / lit.snippets, 12);
    const dev = report.rows.filter((r) => !r.heldOut);
    expect(report.calibration.n).toBe(dev.reduce((a, r) => a + r.n, 0));
    expect(report.calibration.brier).toBeGreaterThanOrEqual(0);
    expect(report.calibration.brier).toBeLessThan(0.25); // better than always answering 0.5
  });
});

describe("calibration", () => {
  it("computes the Brier score and the expected calibration error over bins", () => {
    const c = calibration([0.9, 0.9, 0.1, 0.1], [true, false, false, false], 2);
    expect(c.brier).toBeCloseTo((0.01 + 0.81 + 0.01 + 0.01) / 4, 12);
    // Bin [0.5, 1): mean P 0.9, half positive; bin [0, 0.5): mean P 0.1, none positive.
    expect(c.ece).toBeCloseTo(0.5 * 0.4 + 0.5 * 0.1, 12);
    expect(c.bins.map((b) => b.n)).toEqual([2, 2]);
  });
});
