/**
 * One size of the site-pairing scaling benchmark, run in its own process so its peak RSS is its own:
 * `tsx bench/site-scale.ts N [method]` generates a scaled site of N pages per language, writes it to a temp
 * folder, loads it, pairs it, and prints one JSON line (times, peak RSS, candidates, F against the gold).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scores } from "../src/eval/metrics.js";
import { loadSite, matchPairs, type PairingMethod, pairPages } from "../src/site/index.js";
import { EN_ZH, loadLexicon } from "../src/text/index.js";
import { generateSite, readSentencePairs, SCHEMES, writeSite } from "../test/site/site-generator.js";

const HERE = import.meta.dirname;
const SHARED = join(HERE, "..", "..", "shared", "data");

/**
 * The scaled site of n pages per language, from the real Tatoeba sentence pairs: 8 sections; 90 % of the
 * translated pairs named by the en:tc scheme, 10 % with the Chinese page under an opaque id; 5 % one-language
 * pages on each side; a template with navigation, breadcrumbs, related links and section indexes.
 */
export function scaledSite(n: number, sentences: ReturnType<typeof readSentencePairs>) {
  return generateSite({
    seed: n,
    scheme: SCHEMES["en:tc"]!,
    pairs: Math.round(n * 0.95),
    unpatterned: Math.round(n * 0.095),
    onlyEn: Math.round(n * 0.05),
    onlyZh: Math.round(n * 0.05),
    sections: 8,
    sentences,
  });
}

const rssMB = () => process.resourceUsage().maxRSS / 1024;

/** `gen N DIR`: write the scaled site of N pages per language into DIR (its own process: the generator's memory is not the pairing's). */
function generate(n: number, dir: string): void {
  const sentences = readSentencePairs(join(SHARED, "parallel", "tatoeba-cmn-eng.dev.tsv")).filter((s) => s.en.length >= 20);
  writeSite(scaledSite(n, sentences), dir);
}

/** `run DIR METHOD`: load and pair the site in DIR, print one JSON line. */
function measure(dir: string, method: PairingMethod): void {
  const rss0 = rssMB();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const lexicon = loadLexicon(EN_ZH);
  const lexMs = performance.now() - t0;
  const t1 = performance.now();
  const site = loadSite(dir);
  const loadMs = performance.now() - t1;
  const cpu1 = process.cpuUsage();
  const rssLoaded = rssMB();
  const heapLoaded = process.memoryUsage().heapUsed / 1e6;
  const t2 = performance.now();
  const candidates = process.env.BITEXT_BENCH_CANDIDATES ? JSON.parse(process.env.BITEXT_BENCH_CANDIDATES) : undefined;
  const result = pairPages(site, { method, lexicon, candidates });
  const pairMs = performance.now() - t2;
  const cpu2 = process.cpuUsage();
  const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => Math.round((b.user - a.user + b.system - a.system) / 1000);
  const gold = (JSON.parse(readFileSync(join(dir, "gold.json"), "utf8")) as Array<{ en: string; zh: string }>).map((g) => ({
    a: g.en,
    b: g.zh,
  }));
  const sc = scores(
    matchPairs(
      result.pairs.map((p) => ({ a: site.pages[p.a]!.key, b: site.pages[p.b]!.key })),
      gold,
    ),
  );
  console.log(
    JSON.stringify({
      method,
      pages: site.pages.length,
      lexMs: Math.round(lexMs),
      loadMs: Math.round(loadMs),
      pairMs: Math.round(pairMs),
      // CPU time (user + system) of the phases: on a shared machine wall time also counts other processes' turns.
      loadCpuMs: cpuMs(cpu0, cpu1),
      pairCpuMs: cpuMs(cpu1, cpu2),
      phases: result.stats.ms,
      candidates: result.stats.candidates,
      allPairs: result.stats.allPairs,
      rssStartMB: Math.round(rss0),
      rssAfterLoadMB: Math.round(rssLoaded),
      heapAfterLoadMB: Math.round(heapLoaded),
      peakRssMB: Math.round(rssMB()),
      f1: sc.f1,
    }),
  );
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [mode, a, b] = process.argv.slice(2);
  if (mode === "gen") generate(Number(a), b!);
  else if (mode === "run") measure(a!, (b ?? "links") as PairingMethod);
  else {
    const n = Number(a ?? 2000);
    const dir = mkdtempSync(join(tmpdir(), `bitext-bench-site-${n}-`));
    try {
      generate(n, dir);
      measure(dir, "links");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
