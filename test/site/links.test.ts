import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildContentIndex,
  type Candidates,
  candidatePairs,
  enhancedSimilarity,
  internalSimilarity,
  loadSite,
  matchPairs,
  type PairResult,
  pageWeights,
  pairPages,
  type Site,
  type SitePage,
  selectPairs,
} from "../../src/site/index.js";
import { EN_ZH, loadLexicon, translatedShare } from "../../src/text/index.js";
import { generateSite, readSentencePairs, SCHEMES, writeSite } from "./site-generator.js";

const sentences = readSentencePairs(new URL("../fixtures/sites/tatoeba-sample.tsv", import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), "bitext-links-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const lexicon = loadLexicon(EN_ZH);

function prf(site: Site, result: PairResult, gold: Array<{ en: string; zh: string }>) {
  const predicted = result.pairs.map((p) => ({ a: site.pages[p.a]!.key, b: site.pages[p.b]!.key }));
  const c = matchPairs(
    predicted,
    gold.map((g) => ({ a: g.en, b: g.zh })),
  );
  const precision = c.tp / (c.tp + c.fp);
  const recall = c.tp / (c.tp + c.fn);
  return { ...c, precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

describe("pairing pages of a site without URL patterns by links (liu2014)", () => {
  let site: Site;
  let gold: Array<{ en: string; zh: string }>;
  beforeAll(() => {
    const generated = generateSite({ seed: 11, scheme: SCHEMES.none!, pairs: 40, onlyEn: 5, onlyZh: 4, sentences });
    writeSite(generated, join(tmp, "none"));
    site = loadSite(join(tmp, "none"));
    gold = generated.gold;
  });

  it("finds nothing by URL keys and the translated pairs by ETS", () => {
    expect(pairPages(site, { method: "urls" }).pairs).toHaveLength(0);
    const links = pairPages(site, { method: "links", lexicon });
    const s = prf(site, links, gold);
    expect(s.recall).toBe(1);
    // MAX_P = pages of the smaller language: some one-language pages get a partner too (liu2014 notes the
    // precision cost); only those are wrong.
    expect(s.fp).toBeLessThanOrEqual(4);
    expect(s.precision).toBeGreaterThan(0.9);
  });

  it("computes S_cb exactly as the shared translatedShare", () => {
    const content = buildContentIndex(site, lexicon);
    const tokens = (p: SitePage) =>
      Array.from(p.termIds).flatMap((id, k) => Array(p.termCounts[k]!).fill(site.vocabulary[id]!) as string[]);
    const en = site.pages.map((p, i) => [p, i] as const).filter(([p]) => p.lang === "en");
    const zh = site.pages.map((p, i) => [p, i] as const).filter(([p]) => p.lang === "zh");
    let compared = 0;
    for (const [pe, ie] of en.slice(10, 14)) {
      for (const [pc, ic] of zh.slice(10, 14)) {
        expect(content.scb(ie, ic)).toBeCloseTo(translatedShare(tokens(pe), "en", tokens(pc), "zh", lexicon), 10);
        compared++;
      }
    }
    expect(compared).toBe(16);
  });

  it("keeps the true pairs among the pruned candidates and pairs like the exhaustive run", () => {
    const content = buildContentIndex(site, lexicon);
    const pruned = candidatePairs(site, content, { topK: 5 });
    const all = candidatePairs(site, content, { topK: 0 });
    expect(pruned.a.length).toBeLessThan(all.a.length / 3);
    const kept = new Set(Array.from(pruned.a, (a, k) => `${site.pages[a]!.key} ${site.pages[pruned.b[k]!]!.key}`));
    expect(gold.filter((g) => kept.has(`${g.en} ${g.zh}`))).toHaveLength(gold.length);
    const goldKeys = new Set(gold.map((g) => `${g.en} ${g.zh}`));
    const truePairs = (cands: Candidates) => {
      const ets = enhancedSimilarity(site, cands, internalSimilarity(site, cands, content).sin);
      return selectPairs(cands, ets, { maxPairs: gold.length })
        .map((p) => `${site.pages[p.a]!.key} ${site.pages[p.b]!.key}`)
        .filter((k) => goldKeys.has(k))
        .sort();
    };
    expect(truePairs(pruned)).toEqual(truePairs(all));
    expect(truePairs(pruned)).toHaveLength(gold.length);
  });

  it("bounds every page's candidates by its own top k plus maxIncoming, and keeps the true pairs", () => {
    const content = buildContentIndex(site, lexicon);
    const loose = candidatePairs(site, content, { topK: 5, maxIncoming: 1000 });
    const capped = candidatePairs(site, content, { topK: 5, maxIncoming: 6, postingsPerPage: 300 });
    const perPage = (c: Candidates) => {
      const n = new Map<number, number>();
      for (const x of [...c.a, ...c.b]) n.set(x, (n.get(x) ?? 0) + 1);
      return Math.max(...n.values());
    };
    // Without the cap some page (an index, a long page) collects pairs from many others' lists.
    expect(perPage(loose)).toBeGreaterThan(5 + 6);
    expect(perPage(capped)).toBeLessThanOrEqual(5 + 6);
    const kept = new Set(Array.from(capped.a, (a, k) => `${site.pages[a]!.key} ${site.pages[capped.b[k]!]!.key}`));
    expect(gold.filter((g) => kept.has(`${g.en} ${g.zh}`)).length).toBeGreaterThanOrEqual(gold.length - 1);
  });
});

describe("the external similarity (Algorithms 1–3)", () => {
  // Two English reports E1, E2 and their translations C1, C2 look alike inside, and each is a little more
  // like the other's translation; only their neighbours (E0–C0 and E3–C3, clear pairs) tell them apart.
  const page = (key: string, lang: string, links: number[]): SitePage => ({
    key,
    url: key,
    title: key,
    lang,
    shares: {},
    contentBytes: 1000,
    tags: new Uint16Array(),
    termIds: new Int32Array(),
    termCounts: new Int32Array(),
    links,
  });
  const site: Site = {
    source: "mirror",
    root: "",
    pair: EN_ZH,
    // 0 E0, 1 E1, 2 E2, 3 E3, 4 C0, 5 C1, 6 C2, 7 C3
    pages: [
      page("E0", "en", [1]),
      page("E1", "en", []),
      page("E2", "en", []),
      page("E3", "en", [2]),
      page("C0", "zh", [5]),
      page("C1", "zh", []),
      page("C2", "zh", []),
      page("C3", "zh", [6]),
    ],
    tagNames: [],
    vocabulary: [],
    dropped: [],
  };
  const sinOf: Record<string, number> = { "0-4": 0.9, "3-7": 0.9, "1-5": 0.5, "2-6": 0.5, "1-6": 0.55, "2-5": 0.55 };
  const a: number[] = [];
  const b: number[] = [];
  const sinList: number[] = [];
  for (const e of [0, 1, 2, 3]) {
    for (const c of [4, 5, 6, 7]) {
      a.push(e);
      b.push(c);
      sinList.push(sinOf[`${e}-${c}`] ?? 0.1);
    }
  }
  const cands: Candidates = { a: Int32Array.from(a), b: Int32Array.from(b), allPairs: 16, sizeOk: 16, lengthConstant: 1 };
  const sin = Float64Array.from(sinList);
  const pairsOf = (scores: Float64Array) =>
    selectPairs(cands, scores, { maxPairs: 4 })
      .map((p) => `${site.pages[p.a]!.key}-${site.pages[p.b]!.key}`)
      .sort();

  it("internal similarity alone swaps the look-alike pages; ETS sets them right through their neighbours", () => {
    expect(pairsOf(sin)).toEqual(["E0-C0", "E1-C2", "E2-C1", "E3-C3"]);
    const ets = enhancedSimilarity(site, cands, sin);
    expect(pairsOf(ets)).toEqual(["E0-C0", "E1-C1", "E2-C2", "E3-C3"]);
    // ETS(E1, C1) = α·S_ext + (1−α)·S_in with S_ext = 2·ETS(E0, C0) / (1 + 1) on the previous round.
    const k11 = a.findIndex((x, i) => x === 1 && b[i] === 5);
    expect(ets[k11]).toBeGreaterThan(ets[a.findIndex((x, i) => x === 1 && b[i] === 6)]!);
    // α = 0 is the baseline.
    expect(pairsOf(enhancedSimilarity(site, cands, sin, { alpha: 0 }))).toEqual(pairsOf(sin));
  });

  it("weighs pages by popularity with Equation 6", () => {
    const w = pageWeights(site, 1);
    // N = 8 pages; E1 and C2 are linked from one page each, E0 from none.
    expect(w[0]).toBeCloseTo(Math.log(9 / 1), 12);
    expect(w[1]).toBeCloseTo(Math.log(9 / 2), 12);
    expect(pairsOf(enhancedSimilarity(site, cands, sin, { weighting: "scale" }))).toEqual(["E0-C0", "E1-C1", "E2-C2", "E3-C3"]);
  });
});

describe("combining URL keys and links (both)", () => {
  it("pairs the pages outside the URL scheme by links, keeping the URL pairs' precision", () => {
    const generated = generateSite({ seed: 5, scheme: SCHEMES["en:tc"]!, pairs: 36, unpatterned: 8, onlyEn: 4, onlyZh: 4, sentences });
    const dir = join(tmp, "mixed");
    writeSite(generated, dir);
    const site = loadSite(dir);
    const urls = prf(site, pairPages(site, { method: "urls" }), generated.gold);
    const both = prf(site, pairPages(site, { method: "both", lexicon }), generated.gold);
    expect(urls.precision).toBe(1);
    expect(urls.fn).toBe(8);
    expect(both.fn).toBe(0);
    expect(both.fp).toBe(0);
  });
});

describe("pages too sparsely linked to judge S_ext (mechanism, generated site)", () => {
  it("falls back to S_in for a page without neighbours, so `both` pairs orphan pages its calibration dropped", () => {
    const generated = generateSite({
      seed: 8,
      scheme: SCHEMES["en:tc"]!,
      pairs: 40,
      unpatterned: 10,
      orphans: 6,
      onlyEn: 4,
      onlyZh: 4,
      sentences,
    });
    const dir = join(tmp, "sparse");
    writeSite(generated, dir);
    const site = loadSite(dir);
    const orphans = site.pages.filter((p) => !site.pages.some((q) => q.links.includes(site.pages.indexOf(p))) && p.links.length === 0);
    expect(orphans).toHaveLength(12);
    const strict = prf(site, pairPages(site, { method: "both", lexicon, ets: { minNeighbours: 0 } }), generated.gold);
    const fallback = prf(site, pairPages(site, { method: "both", lexicon }), generated.gold);
    // Plain ETS holds each orphan pair at (1 − α)·S_in, under the calibrated bar: all 6 are lost.
    expect(strict.fn).toBe(6);
    expect(fallback.tp).toBeGreaterThanOrEqual(strict.tp + 5);
    expect(fallback.fp).toBe(0);
  });
});
