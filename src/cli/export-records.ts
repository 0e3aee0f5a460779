import type { Command } from "commander";
import { UserError } from "../errors.js";
import { CSV_COLUMNS, csvRow, jsonRecord } from "../export/index.js";
import { iterateRecords, openStore, type RecordFilter } from "../store/index.js";
import { demoOption, existingStore, splitList, storeOption } from "./shared-options.js";
import { writeLinesTo } from "./stream.js";
import { wholeNumber } from "./flags.js";

interface ExportRecordsFlags {
  format: string;
  db?: string;
  demo?: boolean;
  out?: string;
  engines?: string;
  label?: string;
  minProbability?: string;
  run?: string;
  since?: string;
  urlContains?: string;
  limit?: string;
}

/** `bitext export records`: harvested result records as JSON lines or CSV, filtered. */
export function registerExportRecords(exportCommand: Command): void {
  exportCommand
    .command("records")
    .description("write harvested result records as JSON lines or CSV")
    .option("--format <format>", "jsonl or csv", "jsonl")
    .option(...storeOption())
    .option(...demoOption())
    .option("--out <file>", "write to this file (atomically) instead of standard output")
    .option("--engines <list>", "only these engines (comma-separated)")
    .option("--label <label>", "only records classified bilingual, monolingual, or unclassified")
    .option("--min-probability <p>", "only records whose probability of being bilingual is at least p")
    .option("--run <id>", "only records seen by this harvest run")
    .option("--since <date>", "only records seen at or after this date/time (ISO 8601, e.g. 2024-05-01)")
    .option("--url-contains <text>", "only records whose URL contains this text")
    .option("--limit <n>", "at most n records")
    .action(async (flags: ExportRecordsFlags) => {
      const format = flags.format.toLowerCase();
      if (format !== "jsonl" && format !== "csv") throw new UserError(`--format: expected jsonl or csv, got "${flags.format}"`);
      const filter = recordFilter(flags);
      const db = existingStore(flags, { demoFallback: true });
      const store = await openStore(db, { readonly: true });
      try {
        // Rows come from the store a batch at a time (a cursor) and go out as the reader takes them.
        async function* lines(): AsyncGenerator<string> {
          if (format === "csv") yield `${CSV_COLUMNS.join(",")}\n`;
          for await (const r of iterateRecords(store, filter)) yield `${format === "csv" ? csvRow(r) : JSON.stringify(jsonRecord(r))}\n`;
        }
        const n = await writeLinesTo(flags.out, lines());
        if (flags.out) process.stderr.write(`bitext: wrote ${format === "csv" ? n - 1 : n} records to ${flags.out}\n`);
      } finally {
        await store.close();
      }
    });
}

export function recordFilter(flags: Omit<ExportRecordsFlags, "format" | "db" | "demo" | "out">): RecordFilter {
  const filter: RecordFilter = {};
  if (flags.engines) filter.engines = splitList(flags.engines);
  if (flags.label !== undefined) {
    if (flags.label !== "bilingual" && flags.label !== "monolingual" && flags.label !== "unclassified") {
      throw new UserError(`--label: expected bilingual, monolingual or unclassified, got "${flags.label}"`);
    }
    filter.label = flags.label;
  }
  if (flags.minProbability !== undefined) {
    const p = Number(flags.minProbability);
    if (!Number.isFinite(p) || p < 0 || p > 1)
      throw new UserError(`--min-probability: expected a number in [0, 1], got "${flags.minProbability}"`);
    filter.minProbability = p;
  }
  if (flags.run !== undefined) {
    filter.runId = wholeNumber("--run", flags.run, 1);
  }
  if (flags.since !== undefined) {
    const t = Date.parse(flags.since);
    if (Number.isNaN(t)) throw new UserError(`--since: cannot read the date "${flags.since}" (use ISO 8601, e.g. 2024-05-01)`);
    filter.seenSince = new Date(t).toISOString();
  }
  if (flags.urlContains !== undefined) filter.urlContains = flags.urlContains;
  if (flags.limit !== undefined) {
    filter.limit = wholeNumber("--limit", flags.limit, 0);
  }
  return filter;
}
