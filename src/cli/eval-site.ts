import type { Command } from "commander";
import { type Counts, fmt, type Scores, scores } from "../eval/index.js";
import { matchPairs, readGoldPairs } from "../site/index.js";
import type { PairingMethod } from "../site/index.js";
import { formatTable, printJson, printLine } from "./output.js";
import { addPairOptions, loadWithProgress, type PairFlags, parseMethod, runPairing } from "./site.js";

interface EvalSiteFlags extends PairFlags {
  gold: string;
}

export interface SiteEvaluation {
  method: PairingMethod;
  pairs: number;
  scores: Scores;
  ms: number;
}

export function registerEvalSite(evalCommand: Command): void {
  addPairOptions(
    evalCommand
      .command("site")
      .description("precision/recall/F1 of page pairs (urls, links, both) against gold pairs")
      .argument("<dir>", "a crawl folder or a mirror folder")
      .requiredOption("--gold <file>", 'gold pairs: a JSON array (or JSON lines) of {"en": page, "zh": page}'),
  )
    .option("--json", "print the evaluation as JSON")
    .action((dir: string, flags: EvalSiteFlags) => {
      const site = loadWithProgress(dir, flags);
      const gold = readGoldPairs(flags.gold, site.pair);
      const methods: PairingMethod[] = flags.method ? [parseMethod(flags.method)] : ["urls", "links", "both"];
      const results: SiteEvaluation[] = methods.map((method) => {
        const t = performance.now();
        const result = runPairing(site, method, flags);
        const predicted = result.pairs.map((p) => ({ a: site.pages[p.a]!.key, b: site.pages[p.b]!.key }));
        const counts: Counts = matchPairs(predicted, gold.pairs);
        return { method, pairs: result.pairs.length, scores: scores(counts), ms: Math.round(performance.now() - t) };
      });
      if (flags.json) {
        printJson({ dir, gold: flags.gold, goldPairs: gold.pairs.length, goldSkipped: gold.skipped, results });
        return;
      }
      const rows: Array<Array<string | number>> = [["method", "pairs", "P", "R", "F1", "tp", "fp", "fn", "seconds"]];
      for (const r of results) {
        const s = r.scores;
        rows.push([r.method, r.pairs, fmt(s.precision), fmt(s.recall), fmt(s.f1), s.tp, s.fp, s.fn, (r.ms / 1000).toFixed(1)]);
      }
      printLine(`${gold.pairs.length} gold pairs${gold.skipped ? ` (${gold.skipped} entries without both pages skipped)` : ""}`);
      printLine(formatTable(rows));
    });
}
