/**
 * Extraction speed as a multiple of the parse5 parse of the same page, measured in the same process (CPU time), calls
 * interleaved (parse, extract, parse, extract, …) so that machine noise hits both alike: per page, median and
 * worst page, on the real bilingual pages of ../shared/data/bilingual-pages (the layouts extraction is for)
 * and, apart, on the generated fixture pages (feng2011's own layouts; pages without a regular template go
 * through feng2011's seeds, wrappers and ranker, whose tokeniser and lexicon cost more).
 * The first call loads CC-CEDICT and OpenCC (reported apart). Last, `bitext extract` of a one-line page in a
 * fresh process (the built library, `npm run build` first): CPU after Node's start-up, and peak memory.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse } from "parse5";
import { extractFromHtml } from "../src/extract/index.js";
import { EN_JA, EN_ZH } from "../src/text/index.js";
import { median, ms } from "./stats.js";

const SHARED = join(import.meta.dirname, "..", "..", "shared", "data", "bilingual-pages");
const FIXTURES = join(import.meta.dirname, "..", "test", "fixtures", "extract");

interface Page {
  name: string;
  html: string;
  japanese: boolean;
}

function realPages(): Page[] {
  const out: Page[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith(".html")) out.push({ name: p.slice(SHARED.length + 1), html: readFileSync(p, "utf8"), japanese: false });
    }
  };
  walk(SHARED);
  return out;
}

function fixturePages(): Page[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".html"))
    .sort()
    .map((f) => ({ name: f, html: readFileSync(join(FIXTURES, f), "utf8"), japanese: f.startsWith("japanese") }));
}

/**
 * CPU milliseconds of this process (user + system, garbage collection included), not wall time: on a shared,
 * overloaded machine wall time mostly measures the waiting for a core.
 */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Median parse and extract CPU times of a page (interleaved, at least 15 rounds and ~150 ms of work). */
function timePage(p: Page): { parse: number; extract: number } {
  const options = { pair: p.japanese ? EN_JA : EN_ZH };
  extractFromHtml(p.html, p.name, options);
  const parses: number[] = [];
  const extracts: number[] = [];
  let spent = 0;
  for (let i = 0; i < 15 || (spent < 150 && i < 400); i++) {
    let t = cpuMs();
    parse(p.html);
    parses.push(cpuMs() - t);
    t = cpuMs();
    extractFromHtml(p.html, p.name, options);
    extracts.push(cpuMs() - t);
    spent += parses.at(-1)! + extracts.at(-1)!;
  }
  return { parse: median(parses), extract: median(extracts) };
}

function report(title: string, pages: readonly Page[]): void {
  console.log(`\n${title}\n`);
  console.log("| page | KB | parse5 CPU ms | extract CPU ms | × parse5 |");
  console.log("|---|---|---|---|---|");
  const ratios: number[] = [];
  for (const p of pages) {
    const t = timePage(p);
    const r = t.extract / t.parse;
    ratios.push(r);
    console.log(`| ${p.name} | ${(Buffer.byteLength(p.html) / 1024).toFixed(0)} | ${ms(t.parse)} | ${ms(t.extract)} | ${r.toFixed(1)} |`);
  }
  console.log(`\n**× parse5: median ${median(ratios).toFixed(1)}, worst ${Math.max(...ratios).toFixed(1)}** (${pages.length} pages)`);
}

export async function run(): Promise<void> {
  const real = realPages();
  const t0 = performance.now();
  extractFromHtml(fixturePages().find((p) => p.name.startsWith("inline"))!.html, "warm-up");
  console.log(`first call (loads CC-CEDICT, OpenCC): ${ms(performance.now() - t0)} ms`);
  report("Real bilingual pages (../shared/data/bilingual-pages)", real);
  report("Generated fixture pages (test/fixtures/extract)", fixturePages());
  oneLinePage();
}

const DIST = join(import.meta.dirname, "..", "dist", "extract", "index.js");

/**
 * A one-line page in a fresh process, 5 runs: CPU from the end of Node's start-up to the pairs (loading the
 * extractor, its lexicon and segmentation included), and the process's peak memory.
 */
function oneLinePage(): void {
  if (!existsSync(DIST)) {
    console.log("\none-line page: skipped (run `npm run build` first)");
    return;
  }
  const html = "<html><body><p>The committee approved the budget yesterday. 委员会昨天批准了预算。</p></body></html>";
  const script = `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const t0 = cpu();
const { extractFromHtml } = await import(${JSON.stringify(DIST)});
const { pairs } = extractFromHtml(${JSON.stringify(html)}, "one-line.html");
console.log(JSON.stringify({ cpu: cpu() - t0, rss: process.resourceUsage().maxRSS / 1024, pairs: pairs.length }));`;
  const runs: Array<{ cpu: number; rss: number; pairs: number }> = [];
  for (let i = 0; i < 5; i++) {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    runs.push(JSON.parse(r.stdout.trim()) as { cpu: number; rss: number; pairs: number });
  }
  const cpu = median(runs.map((r) => r.cpu));
  const rss = median(runs.map((r) => r.rss));
  console.log(
    `\n**one-line page, fresh process: median ${ms(cpu)} ms CPU after start-up, ${rss.toFixed(0)} MB peak** (${runs[0]!.pairs} pair, 5 runs)`,
  );
}
