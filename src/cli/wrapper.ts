import { existsSync, readFileSync } from "node:fs";
import { type Command, Option } from "commander";
import { UserError } from "../errors.js";
import { readPageTagPaths } from "../html/index.js";
import { describeResource, userWrapperPath } from "../config/index.js";
import { writeFileAtomic } from "../io/index.js";
import { DEFAULT_SAMPLE_QUERY, learnEngineLive } from "../serp/index.js";
import { readWrapperFile, withNewWrapper, writeWrapperFile } from "../wrapper/index.js";
import { extractRecords } from "../wrapper/index.js";
import { explainLearning, learnWrapper } from "../wrapper/index.js";
import type { LearnExplanation, Wrapper } from "../wrapper/index.js";
import { formatTable, printJson, printLine } from "./output.js";

/** Flags of the live path (no --sample): issue 3. */
interface LiveFlags {
  query?: string;
  preview?: string;
  chromium?: string;
}

export interface LearnFlags {
  engine: string;
  sample?: string;
  out?: string;
  url?: string;
  charset?: string;
  json?: boolean;
  explain?: boolean;
}

/** Where learning writes an engine's wrapper by default: `wrappers/<engine>.json` in the user's home. */
export function defaultWrapperPath(engine: string): string {
  if (!/^[a-z0-9][a-z0-9_.-]*$/i.test(engine)) {
    throw new UserError(`--engine: "${engine}" is not a valid engine name (letters, digits, "-", "_", ".")`);
  }
  return userWrapperPath(engine);
}

/**
 * The wrapper file learning starts from: `--out` if it exists; without --out, the user's file, else the
 * shipped one (its engine definition and earlier wrappers are kept; the result goes to the user's home).
 */
function startingWrapperFile(engine: string, out: string | undefined): string | null {
  if (out) return existsSync(out) ? out : null;
  const current = describeResource("wrappers", `${engine}.json`);
  return current.origin === "missing" ? null : current.path;
}

/** `wrapper learn --sample PAGE.html`: learn from a saved page and write the wrapper file. */
export function learnFromSample(flags: LearnFlags & { sample: string }): { file: string; wrapper: Wrapper; records: number } {
  const out = flags.out ?? defaultWrapperPath(flags.engine);
  const from = startingWrapperFile(flags.engine, flags.out);
  const existing = from ? readWrapperFile(from) : null;
  if (existing && existing.engine !== flags.engine) {
    throw new UserError(`${out}: holds the wrapper of engine "${existing.engine}", not "${flags.engine}"`);
  }
  const { seq } = readPageTagPaths(flags.sample, flags.charset ? { charset: flags.charset } : {});
  const wrapper = learnWrapper(seq, { engine: flags.engine, pageUrl: flags.url, file: flags.sample });
  writeWrapperFile(out, withNewWrapper(existing, wrapper));
  const records = extractRecords(wrapper, seq, { pageUrl: flags.url }).records.length;
  return { file: out, wrapper, records };
}

/** `wrapper learn --explain`: the candidate lists of a saved page, the taken and the rejected with why; nothing written. */
export function explainSample(flags: LearnFlags & { sample: string }): LearnExplanation {
  const { seq } = readPageTagPaths(flags.sample, flags.charset ? { charset: flags.charset } : {});
  return explainLearning(seq, { pageUrl: flags.url });
}

export function formatExplanation(e: LearnExplanation): string {
  // Lists with a score are shown one by one; those where nothing looks like a result are counted (--json lists all).
  const scored = e.candidates.filter((c) => c.score > 0);
  const unscored = e.candidates.length - scored.length;
  const rows: Array<Array<string | number>> = [["#", "verdict", "score", "records", "result-like", "ancestor path P_a", "title link"]];
  for (const [i, c] of scored.entries()) {
    rows.push([i + 1, c.verdict, c.score.toFixed(2), c.records, c.resultLike, shorten(c.ancestorPath), c.titlePath ?? "-"]);
  }
  const reasons = scored.map((c, i) => `${i + 1}. ${c.verdict}: ${c.reason}`);
  const w = e.clustersWithoutRecords;
  return [
    `${e.learned ? "learned" : "not learned"} · ${e.variant} · ${w.total} clusters of tag paths: ${w.tooFewPaths} of fewer than 3 paths (a record has a link, text and more), ${w.noRepeatedRoot} without an ancestor path occurring more than T = ${e.minRecords} times`,
    scored.length > 0 ? formatTable(rows) : "no candidate list with a record that looks like a result",
    ...reasons,
    ...(unscored > 0
      ? [
          `${unscored} more repeated block(s) where no record looks like a result (no title link with a 20–1,500-character snippet, and no card: a title of 20+ characters with text beside it); --json lists them`,
        ]
      : []),
    e.summary,
  ].join("\n");
}

export function describeWrapper(wrapper: Wrapper): string {
  const rows: Array<Array<string | number>> = [["role", "records", "ancestor path P_a", "title link"]];
  for (const c of wrapper.clusters) rows.push([c.role, c.sampleRecords, shorten(c.ancestorPath), c.titlePath ?? "-"]);
  return [
    `engine ${wrapper.engine} · learned ${wrapper.learnedAt} · ${wrapper.pathMode} tag paths · sample ${wrapper.sample.file ?? wrapper.sample.url ?? "?"}`,
    `sample: ${wrapper.sample.positions} positions, ${wrapper.sample.uniquePaths} unique tag paths, sha256 ${wrapper.sample.sha256.slice(0, 12)}…`,
    formatTable(rows),
  ].join("\n");
}

function shorten(path: string): string {
  const tags = path.split("\\");
  return tags.length <= 8 ? path : `…\\${tags.slice(-7).join("\\")}`;
}

export function registerWrapperCommands(program: Command): void {
  const wrapper = program.command("wrapper");
  wrapper
    .command("learn")
    .description("learn a record wrapper from one sample result page (feng2010 §4.2) and write wrappers/<engine>.json in your home")
    .requiredOption("--engine <name>", "engine name (the wrapper file is wrappers/<name>.json)")
    .option("--sample <page.html>", "a saved result page of the engine with results on it")
    .option("--out <file>", "wrapper file to write (default: wrappers/<engine>.json in your home, starting from the shipped one)")
    .option("--url <url>", "the sample page's URL, to resolve relative links")
    .option("--charset <name>", "decode the page with this charset instead of detecting it")
    .option("--query <text>", `live learning: the query to search for, the pair together (default "${DEFAULT_SAMPLE_QUERY}")`)
    .option("--preview <out.png>", "live learning: a full-page screenshot with every extracted record outlined")
    .addOption(new Option("--chromium <path>", "live learning: Chromium executable").env("BITEXT_CHROMIUM"))
    .option("--json", "print the learned wrapper as JSON")
    .option(
      "--explain",
      "with --sample: list the page's candidate record lists, their scores and why each was taken or rejected (writes nothing)",
    )
    .addHelpText(
      "after",
      "\nWithout --sample, Chromium loads the engine's result page for --query (URL from the definition in the\n" +
        "wrapper file), saves it beside the wrapper as <engine>.sample.html and learns from it.",
    )
    .action(async (flags: LearnFlags & LiveFlags) => {
      if (flags.explain && !flags.sample) throw new UserError("wrapper learn: --explain works with --sample PAGE.html");
      if (!flags.sample) return learnLiveAndPrint(flags);
      if (flags.preview) throw new UserError("wrapper learn: --preview works with live learning (without --sample)");
      if (flags.explain) {
        const explanation = explainSample({ ...flags, sample: flags.sample });
        if (flags.json) printJson(explanation);
        else printLine(formatExplanation(explanation));
        return;
      }
      const result = learnFromSample({ ...flags, sample: flags.sample });
      if (flags.json) printJson({ file: result.file, records: result.records, wrapper: result.wrapper });
      else {
        printLine(describeWrapper(result.wrapper));
        printLine(`${result.records} records on the sample page · wrote ${result.file}`);
      }
    });
  wrapper
    .command("show")
    .description("describe a wrapper file")
    .argument("<file>", "wrapper file (e.g. wrappers/bing.json)")
    .option("--json", "print the file as JSON")
    .action((file: string, flags: { json?: boolean }) => {
      const wf = readWrapperFile(file);
      if (flags.json) return printJson(wf);
      printLine(wf.wrapper ? describeWrapper(wf.wrapper) : `engine ${wf.engine}: no wrapper learned yet`);
      if (wf.previous.length) printLine(`${wf.previous.length} previous wrapper(s), newest learned ${wf.previous[0]!.learnedAt}`);
    });
}

/** `wrapper learn` without --sample: Chromium loads the engine's result page, a wrapper is learned from it and written. */
async function learnLiveAndPrint(flags: LearnFlags & LiveFlags): Promise<void> {
  const file = flags.out ?? defaultWrapperPath(flags.engine);
  const from = startingWrapperFile(flags.engine, flags.out);
  // Live learning reads the engine's definition from the file it writes: start the user's copy from the shipped one.
  if (from && from !== file) writeFileAtomic(file, readFileSync(from));
  const live = await learnEngineLive({
    engine: flags.engine,
    file,
    ...(flags.query ? { query: flags.query } : {}),
    ...(flags.preview ? { preview: flags.preview } : {}),
    ...(flags.chromium ? { chromium: flags.chromium } : {}),
  });
  if (flags.json) {
    printJson({
      file: live.file,
      sample: live.sampleFile,
      url: live.url,
      records: live.records.length,
      preview: live.preview,
      wrapper: live.wrapper,
    });
  } else {
    printLine(describeWrapper(live.wrapper));
    printLine(
      `${live.records.length} records on ${live.url} · sample saved to ${live.sampleFile} · wrote ${live.file}` +
        (live.preview ? ` · preview ${live.preview}` : ""),
    );
  }
}
