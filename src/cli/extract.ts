import type { Command } from "commander";
import { assertWritable } from "../config/index.js";
import { UserError } from "../errors.js";
import {
  EXTRACT_SYSTEMS,
  type ExtractSystem,
  extractFromHtml,
  isUrl,
  loadPageInput,
  type SentencePair,
  splitIntoSentencePairs,
} from "../extract/index.js";
import { formatPairs, OUTPUT_FORMATS, type OutputFormat, toJsonRecord } from "../export/index.js";
import { writeFileAtomic } from "../io/index.js";
import { createFetcher, FetchError, type Fetcher } from "../net/index.js";
import { EXIT } from "./errors.js";
import { parseUnit } from "./flags.js";
import { createProgress } from "./progress.js";
import { writeLinesTo } from "./stream.js";
import type { LanguagePair } from "../text/index.js";
import { pairOption, resolvePair } from "./shared-options.js";

interface ExtractFlags {
  format: string;
  out?: string;
  json?: boolean;
  pair?: LanguagePair;
  system: string;
  minRelevance?: string;
  sentences?: boolean;
}

export function registerExtractCommand(program: Command): void {
  program
    .command("extract")
    .argument("<page...>", "saved HTML pages and/or http(s) URLs (fetched politely)")
    .option("--format <format>", `output format: ${OUTPUT_FORMATS.join(", ")}`, "tsv")
    .option("--out <prefix>", "write PREFIX.tsv / PREFIX.tmx / PREFIX.jsonl / PREFIX.en + PREFIX.zh (default: stdout)")
    .option("--json", 'print one {"en","zh","score","source_url","method"} object per line, as export corpus --format jsonl')
    .option(...pairOption())
    .option("--system <name>", `extraction system: ${EXTRACT_SYSTEMS.join(", ")} (feng2011 Table IV)`, "full")
    .option("--min-relevance <x>", "drop candidates less relevant than this share of the page's best (0–1)")
    .option("--sentences", "split paragraph pairs into aligned sentence pairs (Gale-Church)")
    .addHelpText(
      "after",
      "\nExamples:\n  bitext extract page.html\n  bitext extract --format tmx --out corpus a.html b.html\n  bitext extract --pair en-ja --json https://example.org/ja-en.html",
    )
    .action(async (pages: string[], flags: ExtractFlags) => {
      if (flags.out) assertWritable(flags.out); // before the work, not after
      const format = parseFormat(flags.format);
      const pair = resolvePair(flags.pair);
      const system = parseSystem(flags.system);
      const minRelevance = flags.minRelevance === undefined ? undefined : parseUnit("--min-relevance", flags.minRelevance);
      if (format === "moses" && !flags.out && !flags.json) throw new UserError("--format moses writes two files: give --out PREFIX");

      let fetcher: Fetcher | undefined;
      const getFetcher = () => {
        fetcher ??= createFetcher();
        return fetcher;
      };
      const progress = createProgress({ label: "extract", total: pages.length, quiet: flags.json === true });
      const all: SentencePair[] = [];
      let failures = 0;
      let skipped = 0;
      for (const input of pages) {
        try {
          const page = await loadPageInput(input, getFetcher);
          const { pairs } = extractFromHtml(page.html, page.source, {
            pair,
            system,
            ...(minRelevance === undefined ? {} : { minRelevance }),
          });
          all.push(...(flags.sentences ? pairs.flatMap(splitIntoSentencePairs) : pairs));
        } catch (err) {
          // A URL that cannot be fetched, or a page that cannot be read (past the caps, binary, missing), is named
          // and skipped: the other pages still give their pairs. Anything else (a full disk, a bug) stops the run.
          if (err instanceof FetchError && isUrl(input)) {
            failures++;
            process.stderr.write(`bitext: ${err.message} (skipped)\n`);
          } else if (err instanceof UserError && pages.length > 1) {
            skipped++;
            process.stderr.write(`bitext: ${namedAfter(input, err.message)} (skipped)\n`);
          } else throw err;
        }
        progress.tick(1, { pairs: all.length });
      }
      progress.done();

      const outputPairs = all.map((p) => ({ a: p.a, b: p.b, score: p.score, method: p.method, sourceUrls: [p.sourceUrl] }));
      if (flags.json) {
        // The one corpus JSONL schema (`export corpus --format jsonl` writes the same objects).
        await writeLinesTo(
          undefined,
          outputPairs.map((p) => `${JSON.stringify(toJsonRecord(p, pair))}\n`),
        );
      } else {
        const files = formatPairs(outputPairs, pair, format);
        if (flags.out) {
          for (const f of files) writeFileAtomic(`${flags.out}${f.suffix}`, f.content);
          process.stderr.write(
            `${all.length} pairs from ${pages.length - failures - skipped} pages → ${files.map((f) => `${flags.out}${f.suffix}`).join(", ")}\n`,
          );
        } else {
          await writeLinesTo(undefined, [files.map((f) => f.content).join("")]);
        }
      }
      if (skipped > 0)
        process.exitCode = EXIT.data; // some pages unreadable; the others' pairs were written
      else if (failures > 0) process.exitCode = 2;
    });
}

/** An error's message with the page it is about in front (when it does not already start with it). */
function namedAfter(input: string, message: string): string {
  return message.startsWith(input) ? message : `${input}: ${message}`;
}

export function parseFormat(value: string): OutputFormat {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UserError(`--format: unknown format "${value}" (expected ${OUTPUT_FORMATS.join(", ")})`);
}

function parseSystem(value: string): ExtractSystem {
  if ((EXTRACT_SYSTEMS as readonly string[]).includes(value)) return value as ExtractSystem;
  throw new UserError(`--system: unknown system "${value}" (expected ${EXTRACT_SYSTEMS.join(", ")})`);
}
