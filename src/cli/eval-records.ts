import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { UserError } from "../errors.js";
import { fmt, isHeldOut, readHeldOutList, type Scores } from "../eval/index.js";
import {
  type CrossFigures,
  DEFAULT_PERIOD_DAYS,
  evaluateRecords,
  type Figures,
  findGoldFiles,
  loadGoldPages,
  type RecordsReport,
} from "../wrapper/index.js";
import { formatTable, printJson, printLine } from "./output.js";
import { createProgress } from "./progress.js";

/** Precision of nothing predicted is shown as "-", not as the conventional 1. */
const precision = (s: Scores) => (s.tp + s.fp === 0 ? "-" : fmt(s.precision));

export function formatRecordsReport(report: RecordsReport, options: { exact?: boolean; pages?: boolean } = {}): string {
  const head = ["engine", "pages", "self P", "self R", "cross pairs", "cross P", "cross R", "refused"];
  if (options.exact) head.push("self P=", "self R=", "cross P=", "cross R=");
  const rows: Array<Array<string | number>> = [head];
  const row = (name: string, r: { pages: number; self: Figures; cross: CrossFigures }) => {
    const cells: Array<string | number> = [
      name,
      r.pages,
      precision(r.self.match),
      fmt(r.self.match.recall),
      r.cross.pairs,
      r.cross.pairs ? precision(r.cross.match) : "-",
      r.cross.pairs ? fmt(r.cross.match.recall) : "-",
      r.cross.pairs ? r.cross.refused : "-",
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
    `self: a wrapper learned on each page, applied to it · cross: learned on one page, applied to every other page of the same engine captured within ${report.periodDays} days (pages dated only by year: the same year); refused: cross pairs reported as a layout mismatch (\`--pages\` lists them) · titles match when one holds the other and covers ≥ 60 % of it${options.exact ? " (P=, R=: only equal titles)" : ""}`,
  ];
  if (options.pages) {
    lines.push("");
    for (const p of report.pages) {
      if (p.self.fp === 0 && p.self.fn === 0) continue;
      lines.push(`${p.engine}\t${p.status}\ttp ${p.self.tp} fp ${p.self.fp} fn ${p.self.fn}\t${p.file}`);
    }
    const imperfect = report.pairs.filter((p) => p.counts.fp > 0 || p.counts.fn > 0);
    if (imperfect.length > 0) lines.push("", "cross-page pairs not all right (learned on → applied to):");
    for (const p of imperfect) {
      const c = p.counts;
      lines.push(
        `${p.engine}\t${p.status}\ttp ${c.tp} fp ${c.fp} fn ${c.fn}\t${basename(p.learnedOn)} → ${basename(p.appliedTo)}${p.status === "mismatch" ? `\t${p.detail}` : ""}`,
      );
    }
  }
  if (report.engines.some((e) => e.foreign)) {
    const folds: Array<Array<string | number>> = [
      ["held-out engine", "foreign wrappers × pages", "mismatch", "empty", "records taken", "of them right"],
    ];
    for (const e of report.engines) {
      const f = e.foreign;
      if (!f) continue;
      folds.push([e.engine, f.pairs, f.pairs ? fmt(f.mismatch / f.pairs) : "-", f.empty, f.records, f.matched]);
    }
    lines.push(
      "",
      formatTable(folds),
      "",
      "folds by engine: each engine's pages read with the wrappers learned on every other engine's pages (self and cross above are the engine's own); a foreign page should be a mismatch",
    );
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
    .option("--pages", "list the pages whose self-learned records, and the cross-page pairs whose records, are not all right")
    .option("--folds <by>", "leave-one-out folds: \"engine\" also reads each engine's pages with every other engine's wrappers")
    .option("--json", "print the report as JSON")
    .action(
      (dir: string, flags: { periodDays: string; exclude?: string; exact?: boolean; pages?: boolean; folds?: string; json?: boolean }) => {
        if (flags.folds !== undefined && flags.folds !== "engine")
          throw new UserError(`--folds: "${flags.folds}" is not a fold kind (engine)`);
        const periodDays = Number(flags.periodDays);
        if (!Number.isFinite(periodDays) || periodDays < 0)
          throw new UserError(`--period-days: "${flags.periodDays}" is not a number of days`);
        const exclude = flags.exclude ? readHeldOutList(flags.exclude) : [];
        const total = findGoldFiles(dir).filter((f) => !isHeldOut(resolve(f.html), exclude)).length;
        const progress = createProgress({ label: "eval records", total: total * 2, quiet: flags.json });
        const pages = loadGoldPages(dir, () => progress.tick(), exclude);
        const report = evaluateRecords(pages, {
          periodDays,
          onPage: () => progress.tick(),
          ...(flags.folds ? { folds: "engine" as const } : {}),
        });
        progress.done();
        if (flags.json) printJson(report);
        else printLine(formatRecordsReport(report, { exact: flags.exact, pages: flags.pages }));
      },
    );
}
