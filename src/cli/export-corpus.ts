import type { Command } from "commander";
import { assertWritable } from "../config/index.js";
import { UserError } from "../errors.js";
import { exportCorpus, OUTPUT_FORMATS } from "../extract/index.js";
import { openStore } from "../store/index.js";
import { demoOption, existingStore, storeOption } from "./shared-options.js";
import { writeLinesTo } from "./stream.js";
import { parseFormat, parseUnit } from "./extract.js";
import { printJson } from "./output.js";

interface ExportCorpusFlags {
  db?: string;
  demo?: boolean;
  format: string;
  out?: string;
  minScore?: string;
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
    .option("--min-score <x>", "leave out pairs scored below this (0–1)")
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
      const minScore = flags.minScore === undefined ? undefined : parseUnit("--min-score", flags.minScore);
      const store = openStore(existingStore(flags, { demoFallback: true }), { readonly: true });
      try {
        const result = exportCorpus(store, {
          format,
          out: flags.out ?? null,
          sentences: flags.sentences === true,
          ...(minScore === undefined ? {} : { minScore }),
        });
        if (!flags.out) {
          await writeLinesTo(undefined, chunks(result.files.map((f) => f.content)));
        } else if (flags.json) {
          printJson({ pairs: result.pairs, multi_source: result.multiSource, files: result.files.map((f) => f.path) });
        } else {
          process.stderr.write(
            `${result.pairs} pairs (${result.multiSource} found on several pages) → ${result.files.map((f) => f.path).join(", ")}\n`,
          );
        }
      } finally {
        store.close();
      }
    });
}

/** Text in pieces of at most 64 KB, so standard output takes it with back-pressure. */
function* chunks(texts: readonly string[]): Generator<string> {
  for (const t of texts) for (let i = 0; i < t.length; i += 65536) yield t.slice(i, i + 65536);
}
