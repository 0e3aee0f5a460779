import type { Command } from "commander";
import { assertWritable } from "../config/index.js";
import { UserError } from "../errors.js";
import { loadSettings } from "../config/index.js";
import { exportCorpus, OUTPUT_FORMATS, tsvColumns } from "../export/index.js";
import { defaultScorer } from "../extract/index.js";
import type { LanguagePair } from "../text/index.js";
import { openStore } from "../store/index.js";
import { demoOption, existingStore, pairOption, resolvePair, splitList, storeOption } from "./shared-options.js";
import { writeLinesTo } from "./stream.js";
import { parseFormat } from "./extract.js";
import { parseUnit } from "./flags.js";
import { printJson } from "./output.js";

interface ExportCorpusFlags {
  db?: string;
  demo?: boolean;
  format: string;
  out?: string;
  minScore?: string;
  minExtractorScore?: string;
  rejected?: string;
  pair?: LanguagePair;
  columns?: string;
  sentences?: boolean;
  json?: boolean;
}

export function registerExportCorpus(exportCommand: Command): void {
  exportCommand
    .command("corpus")
    .description("write the extracted sentence pairs as a corpus, deduplicated, with every source URL")
    .option(...storeOption())
    .option(...demoOption())
    .option("--format <format>", `output format: ${OUTPUT_FORMATS.join(", ")}`, "tsv")
    .option("--out <prefix>", "write PREFIX.tsv / PREFIX.tmx / PREFIX.jsonl / PREFIX.en + PREFIX.zh (default: stdout)")
    .option(
      "--min-score <x>",
      "leave out pairs whose quality (the pair scorer's probability, 0–1) is below this (default: the config file's quality.minScore, else the model's threshold)",
    )
    .option("--min-extractor-score <x>", "leave out pairs whose extraction score is below this (0–1)")
    .option("--rejected <file>", "write the pairs left out by quality to FILE, one JSON line each with its reasons")
    .option(...pairOption())
    .option(
      "--columns <list>",
      "TSV columns, comma-separated: source_url, the two language codes, score, method, quality, query_<a>, query_<b>, query_file, query_line, query_note, engine, fetched_at, rank, record_url, page_url",
    )
    .option("--sentences", "split paragraph pairs into aligned sentence pairs (Gale-Church)")
    .option("--json", "print a summary as JSON (with --out)")
    .addHelpText(
      "after",
      "\nExamples:\n  bitext export corpus --format moses --out corpus\n  bitext export corpus --format tmx > corpus.tmx",
    )
    .action(async (flags: ExportCorpusFlags) => {
      if (flags.out) assertWritable(flags.out); // before the work, not after
      const format = parseFormat(flags.format);
      if (format === "moses" && !flags.out) throw new UserError("--format moses writes two files: give --out PREFIX");
      if (flags.json && !flags.out) throw new UserError("--json prints a summary of the files written: give --out PREFIX");
      const minScore = flags.minExtractorScore === undefined ? undefined : parseUnit("--min-extractor-score", flags.minExtractorScore);
      const minQuality = flags.minScore === undefined ? loadSettings().config.quality?.minScore : parseUnit("--min-score", flags.minScore);
      const pair = resolvePair(flags.pair);
      const columns = flags.columns === undefined ? undefined : splitList(flags.columns);
      if (columns) {
        if (format !== "tsv") throw new UserError("--columns chooses TSV columns: use it with --format tsv");
        const known = tsvColumns(pair);
        const unknown = columns.find((c) => !known.includes(c));
        if (unknown !== undefined) throw new UserError(`--columns: no column "${unknown}" (columns: ${known.join(", ")})`);
      }
      const scorer = defaultScorer(pair);
      const store = await openStore(existingStore(flags, { demoFallback: true }), { readonly: true });
      try {
        const result = await exportCorpus(store, {
          format,
          out: flags.out ?? null,
          sentences: flags.sentences === true,
          pair,
          scorer,
          rejected: flags.rejected ?? null,
          ...(columns ? { columns } : {}),
          ...(minScore === undefined ? {} : { minScore }),
          ...(minQuality === undefined ? {} : { minQuality }),
        });
        if (!flags.out) {
          await writeLinesTo(undefined, chunks(result.files.map((f) => f.content)));
        } else if (flags.json) {
          printJson({
            pairs: result.pairs,
            multi_source: result.multiSource,
            rejected: result.rejected,
            rejected_by_reason: result.rejectedByReason,
            files: result.files.map((f) => f.path),
          });
        } else {
          process.stderr.write(
            `${result.pairs} pairs (${result.multiSource} found on several pages; ${result.rejected} left out by quality) → ${result.files.map((f) => f.path).join(", ")}\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
}

/** Text in pieces of at most 64 KB, so standard output takes it with back-pressure. */
function* chunks(texts: readonly string[]): Generator<string> {
  for (const t of texts) for (let i = 0; i < t.length; i += 65536) yield t.slice(i, i + 65536);
}
