import type { Command } from "commander";
import { UserError } from "../errors.js";
import { fmt } from "../eval/metrics.js";
import { DEFAULT_PERIOD_DAYS, evaluateRecords, type RecordsReport } from "../eval/records.js";
import { findGoldFiles, loadGoldPages } from "../eval/serp-gold.js";
import { formatTable, printJson, printLine } from "./output.js";
import { createProgress } from "./progress.js";

/** Precision of nothing predicted is shown as "-", not as the conventional 1. */
const precision = (s: { tp: number; fp: number; precision: number }) => (s.tp + s.fp === 0 ? "-" : fmt(s.precision));

export function formatRecordsReport(report: RecordsReport): string {
  const rows: Array<Array<string | number>> = [
    ["engine", "pages", "self P", "self R", "cross pairs", "cross P", "cross R"],
  ];
  const row = (name: string, r: { pages: number; self: RecordsReport["overall"]["self"]; cross: RecordsReport["overall"]["cross"] }) => [
    name,
    r.pages,
    precision(r.self),
    fmt(r.self.recall),
    r.cross.pairs,
    r.cross.pairs ? precision(r.cross) : "-",
    r.cross.pairs ? fmt(r.cross.recall) : "-",
  ];
  for (const e of report.engines) rows.push(row(e.engine, e));
  rows.push(row("overall", report.overall));
  const lines = [
    formatTable(rows),
    "",
    `self: a wrapper learned on each page, applied to it · cross: learned on one page, applied to every other page of the same engine captured within ${report.periodDays} days`,
  ];
  for (const f of report.failures) lines.push(`could not learn ${f.file}: ${f.reason}`);
  return lines.join("\n");
}

export function registerEvalRecords(evalCommand: Command): void {
  evalCommand
    .command("records")
    .description("precision/recall of record titles against X.expected.json, self-learned and cross-page")
    .argument("<dir>", "folder of X.html + X.expected.json pages (e.g. ../shared/data/serps/aql)")
    .option("--period-days <n>", "cross-page: pages at most this many days apart are one period", String(DEFAULT_PERIOD_DAYS))
    .option("--json", "print the report as JSON")
    .action((dir: string, flags: { periodDays: string; json?: boolean }) => {
      const periodDays = Number(flags.periodDays);
      if (!Number.isFinite(periodDays) || periodDays < 0) throw new UserError(`--period-days: "${flags.periodDays}" is not a number of days`);
      const total = findGoldFiles(dir).length;
      const progress = createProgress({ label: "eval records", total: total * 2, quiet: flags.json });
      const pages = loadGoldPages(dir, () => progress.tick());
      const report = evaluateRecords(pages, { periodDays, onPage: () => progress.tick() });
      progress.done();
      if (flags.json) printJson(report);
      else printLine(formatRecordsReport(report));
    });
}
