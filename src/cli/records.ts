import { EXIT } from "./errors.js";
import type { Command } from "commander";
import { UserError } from "../errors.js";
import { readPageTagPaths } from "../html/index.js";
import { extractRecords } from "../wrapper/index.js";
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
}

/** Exit status when the page does not match the wrapper's layout (records are then []). */
export const EXIT_MISMATCH = EXIT.mismatch;

export function recordsOfPage(file: string, flags: RecordsFlags): ExtractResult {
  if ([flags.wrapper, flags.engine, flags.learn].filter(Boolean).length !== 1) {
    throw new UserError("records: give exactly one of --wrapper FILE.json or --learn (or --engine NAME)");
  }
  // --engine: the engine's wrapper in use, yours (bitext wrapper learn) shadowing the shipped one.
  if (flags.engine) flags = { ...flags, wrapper: resolveResource("wrappers", `${flags.engine}.json`) };
  const { seq } = readPageTagPaths(file, flags.charset ? { charset: flags.charset } : {});
  if (flags.wrapper) {
    const wf = readWrapperFile(flags.wrapper);
    if (!wf.wrapper) throw new UserError(`${flags.wrapper}: no wrapper learned yet (run bitext wrapper learn)`);
    return extractRecords(wf.wrapper, seq, { pageUrl: flags.url });
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
    .addHelpText("after", `\nExit status: 0 with records or none ("empty"), ${EXIT_MISMATCH} when the page does not match the wrapper's layout.`)
    .action((file: string, flags: RecordsFlags) => {
      const result = recordsOfPage(file, flags);
      if (result.status !== "ok") process.stderr.write(`bitext: records: ${result.status}: ${result.detail}\n`);
      if (flags.json) printJson(result.records);
      else {
        for (const r of result.records) {
          printLine(`${r.rank}. ${r.title}\n   ${r.url}${r.snippet ? `\n   ${r.snippet.length > 240 ? `${r.snippet.slice(0, 240)}…` : r.snippet}` : ""}`);
        }
      }
      if (result.status === "mismatch") process.exitCode = EXIT_MISMATCH;
    });
}
