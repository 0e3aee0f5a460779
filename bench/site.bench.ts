/**
 * Site pairing at scale: time and memory of loading and pairing (urls, links, both) against the number of
 * pages, on scaled sites of 500 / 2,000 / 5,000 pages per language; and F of the pruned vs the exhaustive
 * link-based run on the real nacos site (and on a 200-page scaled site).
 *
 * The scaled sites are made by `test/site/site-generator.ts` from the 27k real Tatoeba sentence pairs in
 * ../shared: N pages per language in 8 sections; 90 % of the translated pairs named by the en:tc scheme,
 * 10 % with the Chinese page under an opaque id (no URL pattern); 5 % one-language pages on each side;
 * 6–18 sentences per page in paragraphs, lists and tables; a template with navigation, breadcrumbs,
 * 3–6 related-page links mirrored across the languages, and section index pages listing their pages.
 * The gold pairs are known, so F is reported too.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scores } from "../src/eval/metrics.js";
import { loadSite, matchPairs, type PairingMethod, pairPages, readGoldPairs, type Site } from "../src/site/index.js";
import { EN_ZH, loadLexicon } from "../src/text/index.js";
import { generateSite, readSentencePairs, SCHEMES, writeSite } from "../test/site/site-generator.js";
import { median } from "./stats.js";

const HERE = import.meta.dirname;
const SHARED = join(HERE, "..", "..", "shared", "data");
const SIZES = (process.env.BITEXT_BENCH_SITE_SIZES ?? "500,2000,5000").split(",").map(Number);
const REPEATS = Number(process.env.BITEXT_BENCH_REPEATS ?? 3);

export async function run(): Promise<void> {
  const lexicon = loadLexicon(EN_ZH);
  const sentences = readSentencePairs(join(SHARED, "parallel", "tatoeba-cmn-eng.dev.tsv")).filter((s) => s.en.length >= 20);

  console.log(
    `Scaled sites (medians of ${REPEATS} runs; load of the 5,000 site timed once; CC-CEDICT/jieba loading excluded; ` +
      "heap includes the lexicon; peak RSS is the process's)\n",
  );
  console.log("| pages/lang | files | load s | urls s | links s | both s | links: scored pairs (of all) | heap after load MB | peak RSS MB | F urls | F links | F both |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  // Warm the lexicon and jieba on a small site so the first size does not pay for them.
  withSite(100, sentences, (site) => pairPages(site, { method: "links", lexicon }));
  const phases: string[] = [];
  for (const n of SIZES) {
    withSite(n, sentences, (site, gold, files, loadMs) => {
      const row: Record<PairingMethod, { ms: number[]; f1: number; phases: Record<string, number> }> = {
        urls: { ms: [], f1: 0, phases: {} },
        links: { ms: [], f1: 0, phases: {} },
        both: { ms: [], f1: 0, phases: {} },
      };
      let scored = "";
      for (const method of ["urls", "links", "both"] as PairingMethod[]) {
        for (let r = 0; r < REPEATS; r++) {
          const t = performance.now();
          const result = pairPages(site, { method, lexicon });
          row[method].ms.push(performance.now() - t);
          row[method].phases = result.stats.ms;
          row[method].f1 = f1(site, result.pairs, gold);
          if (method === "links") scored = `${result.stats.candidates} (${result.stats.allPairs})`;
        }
      }
      const heap = process.memoryUsage().heapUsed / 1e6;
      const rss = process.resourceUsage().maxRSS / 1024;
      console.log(
        `| ${n} | ${files} | ${(median(loadMs) / 1000).toFixed(1)} | ${s(row.urls.ms)} | ${s(row.links.ms)} | ${s(row.both.ms)} | ${scored} | ${heap.toFixed(0)} | ${rss.toFixed(0)} | ${row.urls.f1.toFixed(3)} | ${row.links.f1.toFixed(3)} | ${row.both.f1.toFixed(3)} |`,
      );
      phases.push(`${n}: links ${JSON.stringify(row.links.phases)}`);
    });
  }
  console.log(`\nms per phase of the last links run: ${phases.join("; ")}\n`);

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
  const generated = generateSite({
    seed: n,
    scheme: SCHEMES["en:tc"]!,
    pairs: Math.round(n * 0.95),
    unpatterned: Math.round(n * 0.095),
    onlyEn: Math.round(n * 0.05),
    onlyZh: Math.round(n * 0.05),
    sections: 8,
    sentences,
  });
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

function f1(site: Site, pairs: Array<{ a: number; b: number }>, gold: Array<{ a: string; b: string }>): number {
  return scores(
    matchPairs(
      pairs.map((p) => ({ a: site.pages[p.a]!.key, b: site.pages[p.b]!.key })),
      gold,
    ),
  ).f1;
}

function s(times: number[]): string {
  return (median(times) / 1000).toFixed(median(times) < 1000 ? 2 : 1);
}

