import { EXIT } from "./errors.js";
import type { Command } from "commander";
import { UserError } from "../errors.js";
import { readPageTagPaths } from "../html/index.js";
import { applyWithHealing, extractRecords } from "../wrapper/index.js";
import { readWrapperFile } from "../wrapper/index.js";
import { learnWrapper } from "../wrapper/index.js";
import type { ExtractResult } from "../wrapper/index.js";
import { resolveResource } from "../config/index.js";
import { printJson, printLine } from "./output.js";

interface RecordsFlags {
  wrapper?: string;
  engine?: string;
  learn?: boolean;
  url?: string;
  charset?: string;
  json?: boolean;
  strict?: boolean;
}

/** The records of a page, and, when the wrapper given did not fit, its own reading (`healed`: why not). */
export interface PageRecords extends ExtractResult {
  /** Set when the records come from a wrapper learned on the page: the given wrapper's reading of it. */
  healed?: ExtractResult;
}

/** Exit status when the page does not match the wrapper's layout (records are then []). */
export const EXIT_MISMATCH = EXIT.mismatch;

export function recordsOfPage(file: string, flags: RecordsFlags): PageRecords {
  if ([flags.wrapper, flags.engine, flags.learn].filter(Boolean).length !== 1) {
    throw new UserError("records: give exactly one of --wrapper FILE.json or --learn (or --engine NAME)");
  }
  // --engine: the engine's wrapper in use, yours (bitext wrapper learn) shadowing the shipped one.
  if (flags.engine) flags = { ...flags, wrapper: resolveResource("wrappers", `${flags.engine}.json`) };
  const { seq } = readPageTagPaths(file, flags.charset ? { charset: flags.charset } : {});
  if (flags.wrapper) {
    const wf = readWrapperFile(flags.wrapper);
    if (!wf.wrapper) throw new UserError(`${flags.wrapper}: no wrapper learned yet (run bitext wrapper learn)`);
    if (flags.strict) return extractRecords(wf.wrapper, seq, { pageUrl: flags.url });
    // As in a harvest: a wrapper that does not fit the page (or reads far fewer records than its sample had)
    // gives way to one learned on the page itself, when that one reads more. The file is left as it is.
    const reading = applyWithHealing(wf.wrapper, seq, { pageUrl: flags.url });
    return reading.learned ? { ...reading.result, healed: reading.strict } : reading.result;
  }
  let wrapper: ReturnType<typeof learnWrapper>;
  try {
    wrapper = learnWrapper(seq, { engine: "page", pageUrl: flags.url, file });
  } catch (err) {
    // A page without any repeated record structure simply has no records.
    if (err instanceof UserError) return { status: "empty", records: [], detail: err.message };
    throw err;
  }
  return extractRecords(wrapper, seq, { pageUrl: flags.url });
}

export function registerRecordsCommand(program: Command): void {
  program
    .command("records")
    .argument("<page.html>", "a saved search result page")
    .option("--engine <name>", "apply the engine's wrapper (yours from bitext wrapper learn, else the shipped one)")
    .option("--wrapper <file.json>", "apply this wrapper file")
    .option("--learn", "learn a wrapper from the page itself, then extract")
    .option("--url <url>", "the page's URL, to resolve relative links")
    .option("--charset <name>", "decode the page with this charset instead of detecting it")
    .option("--json", "print a JSON array of {rank,title,url,snippet}")
    .option("--strict", "with --wrapper/--engine: no self-healing, a page the wrapper does not fit is a mismatch")
    .addHelpText(
      "after",
      `\nA page the wrapper does not fit, or reads far fewer records on than its sample page had, is read with a wrapper learned on the page itself when that one reads more (as a harvest does; the wrapper file is not changed); --strict turns this off.\nExit status: 0 with records or none ("empty"), ${EXIT_MISMATCH} when the page does not match the wrapper's layout and no wrapper could be learned on it (with --strict: when it does not match).`,
    )
    .action((file: string, flags: RecordsFlags) => {
      const result = recordsOfPage(file, flags);
      if (result.healed) {
        process.stderr.write(
          `bitext: records: the wrapper did not fit (${result.healed.status}: ${result.healed.detail}); records from a wrapper learned on this page\n`,
        );
      }
      if (result.status !== "ok") process.stderr.write(`bitext: records: ${result.status}: ${result.detail}\n`);
      if (flags.json) printJson(result.records);
      else {
        for (const r of result.records) {
          printLine(
            `${r.rank}. ${r.title}\n   ${r.url}${r.snippet ? `\n   ${r.snippet.length > 240 ? `${r.snippet.slice(0, 240)}…` : r.snippet}` : ""}`,
          );
        }
      }
      if (result.status === "mismatch") process.exitCode = EXIT_MISMATCH;
    });
}
