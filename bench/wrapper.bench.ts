/**
 * Wrapper learning and record extraction on the 40 real result pages of ../shared/data/serps/aql,
 * next to the cost of merely tokenizing the same page with htmlparser2 (the floor) and of parsing it.
 * Each step runs several times per page; the table gives the median (and 90th percentile) over pages
 * of the per-page medians, and the ratio to the tokenize floor.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Parser } from "htmlparser2";
import { parse } from "parse5";
import { formatTable } from "../src/cli/output.js";
import { readSavedPage } from "../src/html/load.js";
import { parseDocument } from "../src/html/dom.js";
import { tagPathsFromHtml } from "../src/html/parse.js";
import { collectTagPaths, type MinimalNode } from "../src/html/tagpaths.js";
import { extractRecords } from "../src/wrapper/extract.js";
import { learnWrapper } from "../src/wrapper/learn.js";
import { median, ms, quantile, timeRepeated } from "./stats.js";

const AQL = join(import.meta.dirname, "..", "..", "shared", "data", "serps", "aql");
const REPEATS = Number(process.env.BENCH_REPEATS ?? 7);

function pages(): string[] {
  const out: string[] = [];
  for (const engine of readdirSync(AQL)) {
    const dir = join(AQL, engine);
    if (!statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir)) if (f.endsWith(".html")) out.push(join(dir, f));
  }
  return out.sort();
}

export async function run(): Promise<void> {
  const files = pages();
  const steps: Record<string, number[]> = {
    "htmlparser2 tokenize (floor)": [],
    "parse5 tree": [],
    "tag paths: parse5 + collect": [],
    "learn wrapper (from tag paths)": [],
    "extract records (from tag paths)": [],
    "page → records (parse5, collect, extract)": [],
    "jsdom DOM (for comparison)": [],
  };
  let kb = 0;
  for (const file of files) {
    const html = readSavedPage(file).text;
    kb += html.length / 1024;
    const seq = tagPathsFromHtml(html);
    const wrapper = learnWrapper(seq, { engine: "bench" });
    const add = (name: string, fn: () => unknown, repeats = REPEATS) => steps[name]!.push(median(timeRepeated(fn, repeats)));
    add("htmlparser2 tokenize (floor)", () => {
      const p = new Parser({});
      p.write(html);
      p.end();
    });
    add("parse5 tree", () => parse(html));
    add("tag paths: parse5 + collect", () => collectTagPaths(parse(html) as unknown as MinimalNode));
    add("learn wrapper (from tag paths)", () => learnWrapper(seq, { engine: "bench" }));
    add("extract records (from tag paths)", () => extractRecords(wrapper, seq));
    add("page → records (parse5, collect, extract)", () => extractRecords(wrapper, tagPathsFromHtml(html)));
    add("jsdom DOM (for comparison)", () => parseDocument(html), 3);
  }
  const floor = median(steps["htmlparser2 tokenize (floor)"]!);
  const rows: Array<Array<string | number>> = [["step", "median ms/page", "p90 ms/page", "× floor"]];
  for (const [name, xs] of Object.entries(steps)) rows.push([name, ms(median(xs)), ms(quantile(xs, 0.9)), (median(xs) / floor).toFixed(1)]);
  console.log(`${files.length} real result pages (${(kb / files.length).toFixed(0)} KB of text on average), ${REPEATS} runs per page and step\n`);
  console.log(formatTable(rows));
  console.log("\nThe seed reports 10–30 s to build a wrapper (Pentium M 1.7 GHz).");
}
