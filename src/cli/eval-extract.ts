import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { fmt, readHeldOutList } from "../eval/index.js";
import {
  EXTRACT_SYSTEMS,
  evaluateExtraction,
  evaluateRealPages,
  type ExtractSystem,
  findRealPages,
  leaveOneSourceOut,
  type RealPage,
  type SourceResult,
} from "../extract/index.js";
import { UserError } from "../errors.js";
import { formatTable, printJson, printLine } from "./output.js";
import { createProgress } from "./progress.js";

interface EvalExtractFlags {
  system?: string[];
  pages?: boolean;
  json?: boolean;
  exclude?: string;
  page?: string[];
  loso?: boolean;
}

export function registerEvalExtract(evalCommand: Command): void {
  evalCommand
    .command("extract")
    .description(
      "precision/recall/F1 of extracted pairs against gold X.pairs.tsv files: per system on a folder of pages (feng2011 Table IV), or per source on a folder of source folders (real pages)",
    )
    .argument("<dir>", "folder of pages X.html with gold X.pairs.tsv, or folder of source folders holding such pages")
    .option("--system <name...>", `systems to compare on a flat folder (default: ${EXTRACT_SYSTEMS.join(" ")})`)
    .option("--pages", "also print the counts of every page (flat folder)")
    .option("--exclude <file>", "leave out the pages listed in FILE (one path per line, e.g. a held-out list)")
    .option("--page <page=gold...>", "also score PAGE against GOLD, as a source of its own (source folders)")
    .option("--loso", "leave one source out: each source scored with the parameters chosen on the others")
    .option("--json", "print the evaluation as JSON")
    .action((dir: string, flags: EvalExtractFlags) => {
      if (hasSourceFolders(dir)) return evalSources(dir, flags);
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

/** A folder of sources: it has sub-folders, and no gold page of its own. */
function hasSourceFolders(dir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new UserError(`${dir}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return !names.some((n) => n.endsWith(".pairs.tsv")) && names.some((n) => statSync(join(dir, n)).isDirectory());
}

function evalSources(dir: string, flags: EvalExtractFlags): void {
  const exclude = flags.exclude ? readHeldOutList(flags.exclude) : [];
  const pages: RealPage[] = findRealPages(dir, exclude);
  for (const spec of flags.page ?? []) {
    const [html, gold] = spec.split("=");
    if (!html || !gold) throw new UserError(`--page: expected PAGE=GOLD, got "${spec}"`);
    for (const f of [html, gold]) if (!existsSync(f)) throw new UserError(`--page: ${f}: no such file`);
    pages.push({ source: html.replace(/^.*\//u, ""), html, gold, alt: null });
  }
  const progress = createProgress({ label: "eval extract", quiet: flags.json === true });
  const results = evaluateRealPages(pages, {}, () => progress.tick());
  const loso = flags.loso ? leaveOneSourceOut(pages, () => progress.tick()) : null;
  progress.done();
  if (flags.json) {
    printJson({ sources: results, leaveOneSourceOut: loso });
    return;
  }
  const header = ["source", "pages", "predicted", "gold", "tp", "P", "R", "F"];
  if (loso) header.push("F (LOSO)", "setting chosen without it");
  const rows: Array<Array<string | number>> = [header];
  for (const r of results) {
    const row: Array<string | number> = [r.source, r.pages, r.predicted, r.gold, r.tp, fmt(r.precision), fmt(r.recall), fmt(r.f1)];
    const l = loso?.find((x) => x.source === r.source);
    if (l)
      row.push(
        fmt(l.result.f1),
        Object.entries(l.chosen)
          .map(([k, v]) => `${k}=${v}`)
          .join(" "),
      );
    rows.push(row);
  }
  const mean = (xs: readonly SourceResult[]) => xs.reduce((s, r) => s + r.f1, 0) / (xs.length || 1);
  const worst = (xs: readonly SourceResult[]) => Math.min(...xs.map((r) => r.f1));
  const summary: Array<string | number> = [
    "mean / worst F over sources",
    "",
    "",
    "",
    "",
    "",
    "",
    `${fmt(mean(results))} / ${fmt(worst(results))}`,
  ];
  if (loso) summary.push(`${fmt(mean(loso.map((l) => l.result)))} / ${fmt(worst(loso.map((l) => l.result)))}`, "");
  rows.push(summary);
  printLine(formatTable(rows));
}
