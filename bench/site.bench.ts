/**
 * Site pairing at scale: time and peak RSS of loading and pairing (links, both) against the number of pages,
 * on scaled sites of 5,000 / 20,000 / 50,000 pages per language (`BITEXT_BENCH_SITE_SIZES`,
 * `BITEXT_BENCH_SITE_METHODS`), each size and method in its own process (`site-scale.ts`), with the growth
 * exponent fitted over the sizes; and F of the pruned vs the exhaustive link-based run on the real nacos site
 * (and on a 200-page scaled site).
 *
 * The scaled sites are made by `test/site/site-generator.ts` from the 27k real Tatoeba sentence pairs in
 * ../shared: N pages per language in 8 sections; 90 % of the translated pairs named by the en:tc scheme,
 * 10 % with the Chinese page under an opaque id (no URL pattern); 5 % one-language pages on each side;
 * 6–18 sentences per page in paragraphs, lists and tables; a template with navigation, breadcrumbs,
 * 3–6 related-page links mirrored across the languages, and section index pages listing their pages.
 * The gold pairs are known, so F is reported too.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scores } from "../src/eval/metrics.js";
import { loadSite, matchPairs, type PairingMethod, pairPages, readGoldPairs, type Site } from "../src/site/index.js";
import { EN_ZH, loadLexicon } from "../src/text/index.js";
import { readSentencePairs, writeSite } from "../test/site/site-generator.js";
import { scaledSite } from "./site-scale.js";
import { median } from "./stats.js";

const HERE = import.meta.dirname;
const SHARED = join(HERE, "..", "..", "shared", "data");
const SIZES = (process.env.BITEXT_BENCH_SITE_SIZES ?? "5000,20000,50000").split(",").map(Number);
const METHODS = (process.env.BITEXT_BENCH_SITE_METHODS ?? "links,both").split(",") as PairingMethod[];
const REPEATS = Number(process.env.BITEXT_BENCH_REPEATS ?? 3);

export async function run(): Promise<void> {
  const lexicon = loadLexicon(EN_ZH);
  const sentences = readSentencePairs(join(SHARED, "parallel", "tatoeba-cmn-eng.dev.tsv")).filter((s) => s.en.length >= 20);

  console.log(
    `Scaled sites, each size and method in its own process (so peak RSS is that run's: lexicon + jieba + load + pairing); ` +
      `one run per size (the 50,000 site takes minutes); time = load + pair, F against the generated gold\n`,
  );
  console.log(
    "| pages/lang | method | load s (CPU s) | pair s (CPU s) | candidates s | ets s | scored pairs (of all) | heap after load MB | peak RSS MB | F |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  const rows: ScaleRow[] = [];
  for (const n of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), `bitext-bench-site-${n}-`));
    try {
      child(["gen", String(n), dir]);
      for (const method of METHODS) {
        const r = JSON.parse(child(["run", dir, method]).trim().split("\n").pop()!) as ScaleRow;
        rows.push({ ...r, n });
        const ph = r.phases;
        console.log(
          `| ${n} | ${method} | ${sec(r.loadMs)} (${sec(r.loadCpuMs)}) | ${sec(r.pairMs)} (${sec(r.pairCpuMs)}) | ${sec(ph.candidates ?? 0)} | ${sec(ph.ets ?? 0)} | ${r.candidates} (${r.allPairs}) | ${r.heapAfterLoadMB} | ${r.peakRssMB} | ${r.f1.toFixed(3)} |`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log("\nGrowth exponent b of y ≈ a·pages^b (least squares on log–log over the sizes above)\n");
  console.log("| method | load CPU | pair CPU | pair wall | candidates wall | ets wall | scored pairs | peak RSS |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const method of METHODS) {
    const rs = rows.filter((r) => r.method === method);
    if (rs.length < 2) continue;
    const growth = (f: (r: ScaleRow) => number) =>
      exponent(
        rs.map((r) => r.n),
        rs.map(f),
      ).toFixed(2);
    console.log(
      `| ${method} | ${growth((r) => r.loadCpuMs)} | ${growth((r) => r.pairCpuMs)} | ${growth((r) => r.pairMs)} | ${growth((r) => r.phases.candidates ?? 0)} | ${growth((r) => r.phases.ets ?? 0)} | ${growth((r) => r.candidates)} | ${growth((r) => r.peakRssMB)} |`,
    );
  }
  console.log();
  // Warm the lexicon and jieba so the nacos timings below do not pay for them.
  withSite(100, sentences, (site) => pairPages(site, { method: "links", lexicon }));

  // Pruned (top-k candidates) vs exhaustive (every pair passing the size ratio).
  console.log("Pruned vs exhaustive links run\n");
  console.log("| site | gold | run | scored pairs | median s | P | R | F1 |");
  console.log("|---|---|---|---|---|---|---|---|");
  const nacosDir = join(SHARED, "sites", "nacos-astro", "site");
  const nacos = loadSite(nacosDir);
  const fixtures = join(HERE, "..", "test", "fixtures", "sites", "nacos-astro");
  const golds = {
    declared: readGoldPairs(join(fixtures, "pairs.json"), EN_ZH).pairs,
    translated: readGoldPairs(join(fixtures, "pairs.translated.json"), EN_ZH).pairs,
  };
  for (const [run, topK] of [
    ["pruned (top-10)", 10],
    ["exhaustive", 0],
  ] as const) {
    const times: number[] = [];
    let result = pairPages(nacos, { method: "links", lexicon, candidates: { topK } });
    for (let r = 0; r < REPEATS; r++) {
      const t = performance.now();
      result = pairPages(nacos, { method: "links", lexicon, candidates: { topK } });
      times.push(performance.now() - t);
    }
    const predicted = result.pairs.map((p) => ({ a: nacos.pages[p.a]!.key, b: nacos.pages[p.b]!.key }));
    for (const [name, gold] of Object.entries(golds)) {
      const sc = scores(matchPairs(predicted, gold));
      console.log(
        `| nacos-astro (real, 121 pages) | ${name} (${gold.length}) | ${run} | ${result.stats.candidates} | ${s(times)} | ${sc.precision.toFixed(3)} | ${sc.recall.toFixed(3)} | ${sc.f1.toFixed(3)} |`,
      );
    }
  }
  // The exhaustive run's neighbour matching grows as pages³ (every pair × neighbours × their pairs): 200 pages/lang.
  withSite(200, sentences, (site, gold) => {
    for (const [run, topK] of [
      ["pruned (top-10)", 10],
      ["exhaustive", 0],
    ] as const) {
      const times: number[] = [];
      let result = pairPages(site, { method: "links", lexicon, candidates: { topK } });
      for (let r = 0; r < REPEATS; r++) {
        const t = performance.now();
        result = pairPages(site, { method: "links", lexicon, candidates: { topK } });
        times.push(performance.now() - t);
      }
      const sc = scores(
        matchPairs(
          result.pairs.map((p) => ({ a: site.pages[p.a]!.key, b: site.pages[p.b]!.key })),
          gold,
        ),
      );
      console.log(
        `| scaled, 200 pages/lang | generated (${gold.length}) | ${run} | ${result.stats.candidates} | ${s(times)} | ${sc.precision.toFixed(3)} | ${sc.recall.toFixed(3)} | ${sc.f1.toFixed(3)} |`,
      );
    }
  });
}

function withSite(
  n: number,
  sentences: ReturnType<typeof readSentencePairs>,
  body: (site: Site, gold: Array<{ a: string; b: string }>, files: number, loadMs: number[]) => void,
): void {
  const generated = scaledSite(n, sentences);
  const dir = mkdtempSync(join(tmpdir(), `bitext-bench-site-${n}-`));
  try {
    writeSite(generated, dir);
    const loadMs: number[] = [];
    let site = loadSite(dir);
    for (let r = 0; r < (n >= 5000 ? 1 : REPEATS); r++) {
      const t = performance.now();
      site = loadSite(dir);
      loadMs.push(performance.now() - t);
    }
    const gold = (JSON.parse(readFileSync(join(dir, "gold.json"), "utf8")) as Array<{ en: string; zh: string }>).map((g) => ({
      a: g.en,
      b: g.zh,
    }));
    body(site, gold, generated.files.size, loadMs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ScaleRow {
  n: number;
  method: PairingMethod;
  loadMs: number;
  pairMs: number;
  loadCpuMs: number;
  pairCpuMs: number;
  phases: Record<string, number>;
  candidates: number;
  allPairs: number;
  heapAfterLoadMB: number;
  peakRssMB: number;
  f1: number;
}

/** One step of the scaling benchmark in its own process (`bench/site-scale.ts`); its stdout. */
function child(args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", join(HERE, "site-scale.ts"), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** Least-squares slope of log y on log x: the b of y ≈ a·x^b. */
function exponent(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log);
  const ly = ys.map((y) => Math.log(Math.max(y, 1e-9)));
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i]! - mx) * (ly[i]! - my);
    den += (lx[i]! - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

function sec(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
}

function s(times: number[]): string {
  return (median(times) / 1000).toFixed(median(times) < 1000 ? 2 : 1);
}
