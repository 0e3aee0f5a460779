import type { Command } from "commander";
import { fmt } from "../eval/metrics.js";
import { EXTRACT_SYSTEMS, evaluateExtraction, type ExtractSystem } from "../extract/index.js";
import { UserError } from "../errors.js";
import { formatTable, printJson, printLine } from "./output.js";
import { createProgress } from "./progress.js";

interface EvalExtractFlags {
  system?: string[];
  pages?: boolean;
  json?: boolean;
}

export function registerEvalExtract(evalCommand: Command): void {
  evalCommand
    .command("extract")
    .description("precision/recall/F1 of extracted sentence pairs against gold X.pairs.tsv files (feng2011 Table IV)")
    .argument("<dir>", "folder of pages X.html, each with its gold X.pairs.tsv (zh<TAB>en per line)")
    .option("--system <name...>", `systems to compare (default: ${EXTRACT_SYSTEMS.join(" ")})`)
    .option("--pages", "also print the counts of every page")
    .option("--json", "print the evaluation as JSON")
    .action((dir: string, flags: EvalExtractFlags) => {
      const systems = (flags.system ?? [...EXTRACT_SYSTEMS]).map((s) => {
        if (!(EXTRACT_SYSTEMS as readonly string[]).includes(s)) {
          throw new UserError(`--system: unknown system "${s}" (expected ${EXTRACT_SYSTEMS.join(", ")})`);
        }
        return s as ExtractSystem;
      });
      const progress = createProgress({ label: "eval extract", quiet: flags.json === true });
      const result = evaluateExtraction(dir, systems, {}, () => progress.tick());
      progress.done();
      if (flags.json) {
        printJson(result);
        return;
      }
      const rows: Array<Array<string | number>> = [["system", "match", "P", "R", "F1", "tp", "fp", "fn"]];
      for (const s of result.systems) {
        for (const mode of ["exact", "lenient"] as const) {
          const x = s[mode];
          rows.push([s.system, mode, fmt(x.precision), fmt(x.recall), fmt(x.f1), x.tp, x.fp, x.fn]);
        }
      }
      printLine(formatTable(rows));
      if (flags.pages) {
        printLine();
        const pageRows: Array<Array<string | number>> = [["page", "system", "gold", "predicted", "exact tp", "lenient tp"]];
        for (const p of result.pages) pageRows.push([p.page, p.system, p.gold, p.predicted, p.exact.tp, p.lenient.tp]);
        printLine(formatTable(pageRows));
      }
    });
}
