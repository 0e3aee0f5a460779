/**
 * Extraction speed: pages per second of `extractFromHtml` (parse + analyse + seeds + wrappers + RWR) on the
 * fixture pages, per system; medians of repeated runs. The first call loads CC-CEDICT and jieba (reported apart).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXTRACT_SYSTEMS, extractFromHtml } from "../src/extract/index.js";
import { readSavedPage } from "../src/html/load.js";
import { EN_JA, EN_ZH } from "../src/text/index.js";
import { median, ms, timeRepeated } from "./stats.js";

const DIR = join(import.meta.dirname, "..", "test", "fixtures", "extract");
/** Real pages of the size the fetcher brings back (100–300 KB): result pages of Chinese engines, mixed en/zh text. */
const LARGE = join(import.meta.dirname, "..", "..", "shared", "data", "serps", "aql");

export async function run(): Promise<void> {
  const pages = readdirSync(DIR)
    .filter((f) => f.endsWith(".html"))
    .sort()
    .map((f) => ({ name: f, html: readFileSync(join(DIR, f), "utf8"), pair: f.startsWith("japanese") ? EN_JA : EN_ZH }));
  const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p.html), 0);

  const t0 = performance.now();
  extractFromHtml(pages[0]!.html, pages[0]!.name);
  console.log(`first call (loads CC-CEDICT, jieba): ${ms(performance.now() - t0)} ms\n`);

  console.log("| system | pages | KB | median ms / all pages | pages/s | ms/page (median page) |");
  console.log("|---|---|---|---|---|---|");
  for (const system of EXTRACT_SYSTEMS) {
    const all = timeRepeated(() => {
      for (const p of pages) extractFromHtml(p.html, p.name, { system, pair: p.pair });
    }, 7, 1);
    const perPage = pages.map((p) => median(timeRepeated(() => extractFromHtml(p.html, p.name, { system, pair: p.pair }), 5, 1)));
    const m = median(all);
    console.log(
      `| ${system} | ${pages.length} | ${(bytes / 1024).toFixed(0)} | ${ms(m)} | ${((pages.length * 1000) / m).toFixed(1)} | ${ms(median(perPage))} |`,
    );
  }

  const large: Array<{ name: string; html: string }> = [];
  for (const engine of ["baidu", "sogou", "360"]) {
    for (const f of readdirSync(join(LARGE, engine)).filter((n) => n.endsWith(".html")).sort().slice(0, 3)) {
      large.push({ name: f, html: readSavedPage(join(LARGE, engine, f)).text });
    }
  }
  const largeBytes = large.reduce((n, p) => n + Buffer.byteLength(p.html), 0);
  const times = timeRepeated(() => {
    for (const p of large) extractFromHtml(p.html, p.name);
  }, 3, 1);
  const m = median(times);
  console.log(
    `| full, real result pages (baidu, sogou, so.com) | ${large.length} | ${(largeBytes / 1024).toFixed(0)} | ${ms(m)} | ${((large.length * 1000) / m).toFixed(1)} | ${ms(m / large.length)} (mean) |`,
  );
}
