/**
 * Pair scoring speed on one core (issue 24: at least 20,000 pairs a second).
 *
 * Real pairs: the 27,212 Tatoeba dev pairs (`../shared/data/parallel`) and the gold pairs of the real bilingual
 * pages, with the same number of negatives made from them (`makeNegatives`), scored by the shipped model.
 * Warm: after one untimed pass (the per-process caches of jieba words, OpenCC runs and lexicon rows filled, as
 * they are after the first pages of a run), the median of five passes. Cold: the first pass, which fills them.
 * Reference in the same process: `tokenize` of both sides alone (the floor any lexicon-based scorer pays).
 */
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { loadScorer, makeNegatives } from "../src/quality/index.js";
import { seededRandom } from "../src/random.js";
import { EN_ZH, loadLexicon, parseParallelTsv, tokenize } from "../src/text/index.js";
import { median, ms, timeRepeated } from "./stats.js";

const SHARED = join(import.meta.dirname, "..", "..", "shared", "data");

function realPairs(): Array<{ a: string; b: string }> {
  const file = join(SHARED, "parallel", "tatoeba-cmn-eng.dev.tsv");
  const out = parseParallelTsv(file, readFileSync(file, "utf8")).map(({ a, b }) => ({ a, b }));
  const pages = join(SHARED, "bilingual-pages", "real");
  for (const source of readdirSync(pages, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const f of readdirSync(join(pages, source.name)).filter((n) => n.endsWith(".pairs.tsv"))) {
      const path = join(pages, source.name, f);
      out.push(...parseParallelTsv(path, readFileSync(path, "utf8")).map(({ a, b }) => ({ a, b })));
    }
  }
  return out;
}

export async function run(): Promise<void> {
  const positives = realPairs();
  const negatives = makeNegatives(positives, EN_ZH, loadLexicon(EN_ZH), seededRandom(5));
  const pairs = [...positives, ...negatives];
  const scorer = loadScorer(EN_ZH);
  const scoreAll = () => {
    let kept = 0;
    for (const p of pairs) if (scorer.score(p.a, p.b).keep) kept++;
    return kept;
  };
  const t0 = performance.now();
  scoreAll();
  const cold = performance.now() - t0;
  const warm = median(timeRepeated(scoreAll, 5, 0));
  // CPU time of the warm passes too: on a shared machine (load above the core count) wall time measures the
  // other processes as much as this one.
  const cpu = median(
    Array.from({ length: 5 }, () => {
      const c = process.cpuUsage();
      scoreAll();
      const d = process.cpuUsage(c);
      return (d.user + d.system) / 1000;
    }),
  );
  const tok = median(
    timeRepeated(
      () => {
        for (const p of pairs) {
          tokenize(p.a, "en");
          tokenize(p.b, "zh");
        }
      },
      5,
      1,
    ),
  );
  const rate = (t: number) => Math.round((pairs.length / t) * 1000).toLocaleString("en");
  console.log(
    "| pairs | first pass | warm pass (median of 5) | pairs/s warm | warm CPU time (median of 5) | pairs/s per CPU second | tokenize only (median) | scoring / tokenize |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${pairs.length} (${positives.length} real + ${negatives.length} negatives) | ${ms(cold)} ms (${rate(cold)}/s) | ${ms(warm)} ms | ${rate(warm)} | ` +
      `${ms(cpu)} ms | ${rate(cpu)} | ${ms(tok)} ms | ${(warm / tok).toFixed(2)}× |`,
  );
  console.log(
    `\nload average during the run: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} (${availableParallelism()} cores)`,
  );
}
