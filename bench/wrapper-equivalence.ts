/**
 * Do two versions of the learner find the same records? `npx tsx bench/wrapper-equivalence.ts save FILE`
 * writes, for every real result page (see serp-pages.ts; BENCH_EXCLUDE drops the held-out pages), the
 * records of a wrapper learned on the page itself; `… compare FILE` recomputes them with the current code
 * and lists every page whose records (title and URL, in order) or wrapper rule differ, or whose wrapper (scores
 * included) or extraction (snippets, status, match scores; also of the engine's previous page's wrapper applied to
 * the page) is not the same to the bit. Used to show that a speed-up of the learner (sparse σ, sparse AP, pruning)
 * changes no result.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { matchMultiset } from "../src/eval/metrics.js";
import { normaliseTitle } from "../src/wrapper/evaluate.js";
import { readSavedPage } from "../src/html/load.js";
import { tagPathsFromHtml } from "../src/html/parse.js";
import { extractRecords } from "../src/wrapper/apply.js";
import { learnWrapper } from "../src/wrapper/learn.js";
import type { Wrapper } from "../src/wrapper/types.js";
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
  /**
   * SHA-256 of everything else that must not move: the whole wrapper but its date (every cluster's score, title
   * path, paths, the layout fingerprint) and the whole extraction result (snippets, status, notices, match scores).
   */
  full?: string;
}

function outcomes(): Record<string, PageOutcome> {
  const out: Record<string, PageOutcome> = {};
  const previous = new Map<string, Wrapper>(); // the last wrapper learned on a page of the engine, applied to the next
  for (const page of serpPages()) {
    const seq = tagPathsFromHtml(readSavedPage(page.path).text);
    const engine = `${page.set}/${page.engine}`;
    const cross = previous.get(engine);
    const crossResult = cross ? JSON.stringify(extractRecords(cross, seq)) : "";
    try {
      const wrapper = learnWrapper(seq, { engine: page.engine });
      const rule = wrapper.clusters
        .filter((c) => c.role === "results")
        .map((c) => `${c.ancestorPath} → ${c.titlePath}`)
        .join(" | ");
      const result = extractRecords(wrapper, seq);
      const records = result.records.map((r) => `${r.title} <${r.url}>`);
      const full = createHash("sha256")
        .update(JSON.stringify({ ...wrapper, learnedAt: null }))
        .update(JSON.stringify(result))
        .update(crossResult)
        .digest("hex");
      previous.set(engine, wrapper);
      out[page.id] = { rule: `${wrapper.pathMode}: ${rule}`, records, full };
    } catch (err) {
      const full = createHash("sha256").update(crossResult).digest("hex");
      out[page.id] = { rule: `error: ${(err as Error).message}`, records: [], full };
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
  let sameFull = 0;
  const differ: string[] = [];
  for (const [id, o] of Object.entries(now)) {
    const b = before[id];
    const recordsSame = b !== undefined && JSON.stringify(b.records) === JSON.stringify(o.records);
    if (recordsSame) sameRecords++;
    if (b?.rule === o.rule) sameRule++;
    const fullSame = b?.full === undefined || b.full === o.full;
    if (fullSame) sameFull++;
    if (!recordsSame || b?.rule !== o.rule || !fullSame) differ.push(id);
  }
  const total = Object.keys(now).length;
  console.log(
    `${sameRecords} of ${total} pages: same records; ${sameRule} of ${total}: same wrapper rule; ${sameFull} of ${total}: same wrapper and extraction to the bit`,
  );
  for (const id of differ) {
    const b = before[id];
    const o = now[id]!;
    const same = b !== undefined && JSON.stringify(b.records) === JSON.stringify(o.records) ? "same records" : "RECORDS DIFFER";
    if (b?.full !== undefined && b.full !== o.full) console.log(`\n${id}: wrapper or extraction differs (scores, snippets, layout)`);
    console.log(`\n${id}: ${same}`);
    console.log(`  before: ${b?.rule} (${b ? score(paths.get(id)!, b.records) : "-"})`);
    console.log(`  now:    ${o.rule} (${score(paths.get(id)!, o.records)})`);
  }
  process.exit(sameRecords === total && sameFull === total ? 0 : 1);
}
