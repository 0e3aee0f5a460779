import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { inputError, UserError } from "../errors.js";
import { loadScorer, type PairScorer } from "../quality/index.js";
import type { LanguagePair } from "../text/index.js";
import { probability } from "./flags.js";
import { pairOption, resolvePair } from "./shared-options.js";
import { writeLinesTo } from "./stream.js";

interface ScoreFlags {
  pair?: LanguagePair;
  threshold?: number;
  model?: string;
}

/** One JSON line per input line, in order: score (4 decimals), keep, reasons. */
async function* verdicts(file: string, scorer: PairScorer): AsyncGenerator<string> {
  const input = file === "-" ? process.stdin : createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    input.once("error", (err: NodeJS.ErrnoException) => reject(new UserError(`${file}: cannot read (${err.code ?? err.message})`)));
    if (file === "-") resolve();
    else input.once("open", () => resolve());
  });
  await opened;
  let n = 0;
  for await (const raw of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    n++;
    const line = n === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    const tab = line.indexOf("\t");
    if (tab < 0 && line.trim() !== "")
      throw inputError({ file: file === "-" ? "stdin" : file, line: n }, `expected ${scorer.pair.a}<TAB>${scorer.pair.b}`);
    const cols = line.split("\t");
    const v = scorer.score(cols[0] ?? "", cols[1] ?? "");
    yield `${JSON.stringify({ score: Math.round(v.score * 1e4) / 1e4, keep: v.keep, reasons: v.reasons })}\n`;
  }
}

export function registerScoreCommand(program: Command): void {
  program
    .command("score")
    .description("score sentence pairs: is each a translation? One JSON line per input line (score, keep, reasons)")
    .argument("<pairs.tsv>", "A<TAB>B per line (English<TAB>Chinese for en-zh; more columns are ignored), or - for standard input")
    .option(...pairOption())
    .option("--threshold <p>", "keep pairs scored at or above this (default: the model's threshold)", probability)
    .option("--model <file>", "quality model (default: models/quality-<a>-<b>.json, yours if you trained one)")
    .addHelpText("after", '\nExample:\n  printf "Good morning.\\t早上好。\\nHome\\t首页\\n" | bitext score -')
    .action(async (file: string, flags: ScoreFlags) => {
      const scorer = loadScorer(resolvePair(flags.pair), {
        ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }),
        ...(flags.model ? { modelPath: flags.model } : {}),
      });
      await writeLinesTo(undefined, verdicts(file, scorer));
    });
}
