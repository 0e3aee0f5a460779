import type { Command } from "commander";
import { UserError } from "../errors.js";
import { exportCorpus, OUTPUT_FORMATS } from "../extract/index.js";
import { DEFAULT_STORE_PATH, openStore } from "../store/index.js";
import { parseFormat, parseUnit } from "./extract.js";
import { printJson } from "./output.js";

interface ExportCorpusFlags {
  db: string;
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
    .option("--db <file>", "the store", DEFAULT_STORE_PATH)
    .option("--format <format>", `output format: ${OUTPUT_FORMATS.join(", ")}`, "tsv")
    .option("--out <prefix>", "write PREFIX.tsv / PREFIX.tmx / PREFIX.jsonl / PREFIX.en + PREFIX.zh (default: stdout)")
    .option("--min-score <x>", "leave out pairs scored below this (0–1)")
    .option("--sentences", "split paragraph pairs into aligned sentence pairs (Gale-Church)")
    .option("--json", "print a summary as JSON (with --out)")
    .addHelpText("after", "\nExamples:\n  bitext export corpus --format moses --out corpus\n  bitext export corpus --format tmx > corpus.tmx")
    .action((flags: ExportCorpusFlags) => {
      const format = parseFormat(flags.format);
      if (format === "moses" && !flags.out) throw new UserError("--format moses writes two files: give --out PREFIX");
      if (flags.json && !flags.out) throw new UserError("--json prints a summary of the files written: give --out PREFIX");
      const minScore = flags.minScore === undefined ? undefined : parseUnit("--min-score", flags.minScore);
      const store = openStore(flags.db, { readonly: true });
      try {
        const result = exportCorpus(store, {
          format,
          out: flags.out ?? null,
          sentences: flags.sentences === true,
          ...(minScore === undefined ? {} : { minScore }),
        });
        if (!flags.out) {
          for (const f of result.files) process.stdout.write(f.content);
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
