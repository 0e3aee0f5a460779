import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { UserError } from "../errors.js";
import { fmt, type Scores } from "../eval/metrics.js";
import { DEFAULT_PERIOD_DAYS, evaluateRecords, type Figures, type RecordsReport } from "../eval/records.js";
import { findGoldFiles, isExcluded, loadGoldPages, readExcludeList } from "../eval/serp-gold.js";
import { formatTable, printJson, printLine } from "./output.js";
import { createProgress } from "./progress.js";

/** Precision of nothing predicted is shown as "-", not as the conventional 1. */
const precision = (s: Scores) => (s.tp + s.fp === 0 ? "-" : fmt(s.precision));

export function formatRecordsReport(report: RecordsReport, options: { exact?: boolean; pages?: boolean } = {}): string {
  const head = ["engine", "pages", "self P", "self R", "cross pairs", "cross P", "cross R"];
  if (options.exact) head.push("self P=", "self R=", "cross P=", "cross R=");
  const rows: Array<Array<string | number>> = [head];
  const row = (name: string, r: { pages: number; self: Figures; cross: Figures & { pairs: number } }) => {
    const cells: Array<string | number> = [
      name,
      r.pages,
      precision(r.self.match),
      fmt(r.self.match.recall),
      r.cross.pairs,
      r.cross.pairs ? precision(r.cross.match) : "-",
      r.cross.pairs ? fmt(r.cross.match.recall) : "-",
    ];
    if (options.exact) {
      cells.push(precision(r.self.exact), fmt(r.self.exact.recall));
      cells.push(r.cross.pairs ? precision(r.cross.exact) : "-", r.cross.pairs ? fmt(r.cross.exact.recall) : "-");
    }
    return cells;
  };
  for (const e of report.engines) rows.push(row(e.engine, e));
  rows.push(row("overall", report.overall));
  const lines = [
    formatTable(rows),
    "",
    `self: a wrapper learned on each page, applied to it · cross: learned on one page, applied to every other page of the same engine captured within ${report.periodDays} days (pages dated only by year: the same year) · titles match when one holds the other and covers ≥ 60 % of it${options.exact ? " (P=, R=: only equal titles)" : ""}`,
  ];
  if (options.pages) {
    lines.push("");
    for (const p of report.pages) {
      if (p.self.fp === 0 && p.self.fn === 0) continue;
      lines.push(`${p.engine}\t${p.status}\ttp ${p.self.tp} fp ${p.self.fp} fn ${p.self.fn}\t${p.file}`);
    }
  }
  for (const f of report.failures) lines.push(`could not learn ${f.file}: ${f.reason}`);
  return lines.join("\n");
}

export function registerEvalRecords(evalCommand: Command): void {
  evalCommand
    .command("records")
    .description("precision/recall of record titles against expected records, self-learned and cross-page, per engine")
    .argument("<dir>", "data-set folder: manifest.json (files in it or in <engine>/), or X.html + X.expected.json pages")
    .option("--period-days <n>", "cross-page: pages at most this many days apart are one period", String(DEFAULT_PERIOD_DAYS))
    .option("--exclude <file>", "leave out the pages listed in this file (one path per line, matched as a suffix)")
    .option("--exact", "also report figures where only equal titles match")
    .option("--pages", "list the pages whose self-learned records are not all right")
    .option("--json", "print the report as JSON")
    .action((dir: string, flags: { periodDays: string; exclude?: string; exact?: boolean; pages?: boolean; json?: boolean }) => {
      const periodDays = Number(flags.periodDays);
      if (!Number.isFinite(periodDays) || periodDays < 0) throw new UserError(`--period-days: "${flags.periodDays}" is not a number of days`);
      let exclude: string[] = [];
      if (flags.exclude) {
        try {
          exclude = readExcludeList(readFileSync(flags.exclude, "utf8"));
        } catch (err) {
          throw new UserError(`${flags.exclude}: cannot read exclude list (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
        }
      }
      const total = findGoldFiles(dir).filter((f) => !isExcluded(f.html, exclude)).length;
      const progress = createProgress({ label: "eval records", total: total * 2, quiet: flags.json });
      const pages = loadGoldPages(dir, () => progress.tick(), exclude);
      const report = evaluateRecords(pages, { periodDays, onPage: () => progress.tick() });
      progress.done();
      if (flags.json) printJson(report);
      else printLine(formatRecordsReport(report, { exact: flags.exact, pages: flags.pages }));
    });
}
