/**
 * Do two versions of the learner find the same records? `npx tsx bench/wrapper-equivalence.ts save FILE`
 * writes, for every real result page (see serp-pages.ts; BENCH_EXCLUDE drops the held-out pages), the
 * records of a wrapper learned on the page itself; `… compare FILE` recomputes them with the current code
 * and lists every page whose records (title and URL, in order) or wrapper rule differ. Used to show that a
 * speed-up of the learner (sparse σ, sparse AP, pruning) changes no result.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { matchMultiset } from "../src/eval/metrics.js";
import { normaliseTitle } from "../src/wrapper/evaluate.js";
import { readSavedPage } from "../src/html/load.js";
import { tagPathsFromHtml } from "../src/html/parse.js";
import { extractRecords } from "../src/wrapper/apply.js";
import { learnWrapper } from "../src/wrapper/learn.js";
import { serpPages } from "./serp-pages.js";

/** Matched / extracted / expected titles of a page against its `X.expected.json`, when it has one. */
function score(path: string, records: string[]): string {
  const expected = path.replace(/\.html$/, ".expected.json");
  if (!existsSync(expected)) return "no expected records";
  const gold = (JSON.parse(readFileSync(expected, "utf8")) as { results: Array<{ title: string }> }).results;
  const titles = records.map((r) => normaliseTitle(r.slice(0, r.lastIndexOf(" <"))));
  const c = matchMultiset(
    titles,
    gold.map((g) => normaliseTitle(g.title)),
  );
  return `${c.tp} of ${records.length} extracted match ${gold.length} expected`;
}

interface PageOutcome {
  rule: string;
  records: string[];
}

function outcomes(): Record<string, PageOutcome> {
  const out: Record<string, PageOutcome> = {};
  for (const page of serpPages()) {
    const seq = tagPathsFromHtml(readSavedPage(page.path).text);
    try {
      const wrapper = learnWrapper(seq, { engine: page.engine });
      const rule = wrapper.clusters
        .filter((c) => c.role === "results")
        .map((c) => `${c.ancestorPath} → ${c.titlePath}`)
        .join(" | ");
      const records = extractRecords(wrapper, seq).records.map((r) => `${r.title} <${r.url}>`);
      out[page.id] = { rule: `${wrapper.pathMode}: ${rule}`, records };
    } catch (err) {
      out[page.id] = { rule: `error: ${(err as Error).message}`, records: [] };
    }
  }
  return out;
}

const [mode, file] = process.argv.slice(2);
if (!file || (mode !== "save" && mode !== "compare")) {
  console.error("usage: tsx bench/wrapper-equivalence.ts save|compare FILE");
  process.exit(2);
}
const now = outcomes();
if (mode === "save") {
  writeFileSync(file, `${JSON.stringify(now, null, 1)}\n`);
  console.log(`${Object.keys(now).length} pages saved to ${file}`);
} else {
  const before = JSON.parse(readFileSync(file, "utf8")) as Record<string, PageOutcome>;
  const paths = new Map(serpPages().map((p) => [p.id, p.path]));
  let sameRecords = 0;
  let sameRule = 0;
  const differ: string[] = [];
  for (const [id, o] of Object.entries(now)) {
    const b = before[id];
    const recordsSame = b !== undefined && JSON.stringify(b.records) === JSON.stringify(o.records);
    if (recordsSame) sameRecords++;
    if (b?.rule === o.rule) sameRule++;
    if (!recordsSame || b?.rule !== o.rule) differ.push(id);
  }
  const total = Object.keys(now).length;
  console.log(`${sameRecords} of ${total} pages: same records; ${sameRule} of ${total}: same wrapper rule`);
  for (const id of differ) {
    const b = before[id];
    const o = now[id]!;
    const same = b !== undefined && JSON.stringify(b.records) === JSON.stringify(o.records) ? "same records" : "RECORDS DIFFER";
    console.log(`\n${id}: ${same}`);
    console.log(`  before: ${b?.rule} (${b ? score(paths.get(id)!, b.records) : "-"})`);
    console.log(`  now:    ${o.rule} (${score(paths.get(id)!, o.records)})`);
  }
  process.exit(sameRecords === total ? 0 : 1);
}
