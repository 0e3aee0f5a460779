/**
 * Pair scoring speed on one core (issue 24: at least 20,000 pairs a second).
 *
 * Real pairs: the 27,212 Tatoeba dev pairs (`../shared/data/parallel`) and the gold pairs of the real bilingual
 * pages, in six groups (every sixth pair), each with as many negatives made from its own pairs (`makeNegatives`),
 * scored by the shipped model.
 * - Unseen (what a run scoring new pages pays): the first group scored once, untimed but for its rate (it loads
 *   the lexicon and the segmenter), then each other group once, its text new to the process (its jieba words and
 *   OpenCC runs not cached; the lexicon rows of common words are): the median of the five groups.
 * - Warm repeat: every pair again after one untimed pass (every cache filled), the median of five passes: the
 *   scorer's own work, without segmenting.
 * Reference in the same process: `tokenize` of both sides alone (the floor any lexicon-based scorer pays).
 * A pair a hard rule rejects is scored 0 without its features: the run prints their share of the mix.
 */
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { LOW_SCORE, loadScorer, makeNegatives } from "../src/quality/index.js";
import { seededRandom } from "../src/random.js";
import { EN_ZH, loadLexicon, parseParallelTsv, tokenize } from "../src/text/index.js";
import { median, ms, timeRepeated } from "./stats.js";

const SHARED = join(import.meta.dirname, "..", "..", "shared", "data");

/** Groups of pairs: one to load and warm up, the others each scored once as new text. */
const GROUPS = 6;

function realPairs(): Array<{ a: string; b: string }> {
  const file = join(SHARED, "parallel", "tatoeba-cmn-eng.dev.tsv");
  return [...parseParallelTsv(file, readFileSync(file, "utf8")).map(({ a, b }) => ({ a, b })), ...pagePairs().flat()];
}

/** The gold pairs of each real bilingual page. */
function pagePairs(): Array<Array<{ a: string; b: string }>> {
  const out: Array<Array<{ a: string; b: string }>> = [];
  const pages = join(SHARED, "bilingual-pages", "real");
  for (const source of readdirSync(pages, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const f of readdirSync(join(pages, source.name)).filter((n) => n.endsWith(".pairs.tsv"))) {
      const path = join(pages, source.name, f);
      out.push(parseParallelTsv(path, readFileSync(path, "utf8")).map(({ a, b }) => ({ a, b })));
    }
  }
  return out;
}

export async function run(): Promise<void> {
  const positives = realPairs();
  const random = seededRandom(5);
  const groups = Array.from({ length: GROUPS }, (_, g) => {
    const real = positives.filter((_, i) => i % GROUPS === g);
    return [...real, ...makeNegatives(real, EN_ZH, loadLexicon(EN_ZH), random)];
  });
  const pairs = groups.flat();
  const negatives = pairs.length - positives.length;
  const scorer = loadScorer(EN_ZH);
  const scoreEach = (list: ReadonlyArray<{ a: string; b: string }>) => {
    let kept = 0;
    for (const p of list) if (scorer.score(p.a, p.b).keep) kept++;
    return kept;
  };
  const scoreAll = () => scoreEach(pairs);
  const cpuRate = (list: ReadonlyArray<{ a: string; b: string }>) => {
    const c = process.cpuUsage();
    scoreEach(list);
    const d = process.cpuUsage(c);
    return list.length / ((d.user + d.system) / 1e6);
  };
  const first = cpuRate(groups[0]!);
  const unseen = median(groups.slice(1).map(cpuRate));
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
  const perSecond = (x: number) => Math.round(x).toLocaleString("en");
  console.log(
    "| pairs | first group, pairs per CPU second (loads) | **unseen text**, pairs per CPU second (median of 5 groups) | warm repeat, wall (median of 5) | pairs/s warm | warm CPU time (median of 5) | warm pairs per CPU second | tokenize only (median) | warm scoring / tokenize |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${pairs.length} (${positives.length} real + ${negatives} negatives) | ${perSecond(first)} | **${perSecond(unseen)}** | ${ms(warm)} ms | ${rate(warm)} | ` +
      `${ms(cpu)} ms | ${rate(cpu)} | ${ms(tok)} ms | ${(warm / tok).toFixed(2)}× |`,
  );
  // A page's pairs are scored as one document (`scoreDocument`: a first pass, the page's terms learned from the pairs
  // it keeps, a second pass): each real page's gold pairs with as many negatives, warm, against the same pairs alone.
  const pageDocs = pagePairs().map((page) => [...page, ...makeNegatives(page, EN_ZH, loadLexicon(EN_ZH), random)]);
  const cpuOf = (f: () => void) => {
    const c = process.cpuUsage();
    f();
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1e6;
  };
  for (const doc of pageDocs) scoreEach(doc);
  const docPairs = pageDocs.reduce((n, d) => n + d.length, 0);
  const alone = median(
    Array.from({ length: 3 }, () =>
      cpuOf(() => {
        for (const d of pageDocs) scoreEach(d);
      }),
    ),
  );
  const together = median(
    Array.from({ length: 3 }, () =>
      cpuOf(() => {
        for (const d of pageDocs) scorer.scoreDocument(d);
      }),
    ),
  );
  console.log(
    `\nthe ${pageDocs.length} real pages' pairs (${docPairs.toLocaleString("en")} with their negatives) scored as documents, warm (median of 3): ` +
      `${perSecond(docPairs / together)} pairs per CPU second, ${(alone / together).toFixed(2)}× the same pairs scored alone (${perSecond(docPairs / alone)})`,
  );
  // Pairs a hard rule rejects score 0 without a feature pass: their share of the mix says how much of the rate they make.
  const ruled = pairs.filter((p) => scorer.score(p.a, p.b).reasons.some((r) => r !== LOW_SCORE)).length;
  console.log(
    `\npairs a hard rule rejects (scored without features): ${ruled} of ${pairs.length} (${((100 * ruled) / pairs.length).toFixed(1)} %)`,
  );
  console.log(
    `load average during the run: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} (${availableParallelism()} cores)`,
  );
}
