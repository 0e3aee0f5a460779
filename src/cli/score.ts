import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { inputError, UserError } from "../errors.js";
import { loadScorer, type PairScorer, type PairVerdict } from "../quality/index.js";
import type { LanguagePair } from "../text/index.js";
import { probability } from "./flags.js";
import { pairOption, resolvePair } from "./shared-options.js";
import { writeLinesTo } from "./stream.js";

interface ScoreFlags {
  pair?: LanguagePair;
  threshold?: number;
  model?: string;
  document?: boolean;
}

/** The pairs of the input, in order: one per line, A<TAB>B (more columns ignored; a blank line is a pair of empty sides). */
async function* inputPairs(file: string, scorer: PairScorer): AsyncGenerator<{ a: string; b: string }> {
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
    yield { a: cols[0] ?? "", b: cols[1] ?? "" };
  }
}

const verdictLine = (v: PairVerdict) => `${JSON.stringify({ score: Math.round(v.score * 1e4) / 1e4, keep: v.keep, reasons: v.reasons })}\n`;

/**
 * One JSON line per input line, in order: score (4 decimals), keep, reasons. Streamed, each pair scored alone; with
 * `document`, the whole input is read first and scored as one document (`scoreDocument`).
 */
async function* verdicts(file: string, scorer: PairScorer, document: boolean): AsyncGenerator<string> {
  if (!document) {
    for await (const p of inputPairs(file, scorer)) yield verdictLine(scorer.score(p.a, p.b));
    return;
  }
  const pairs: Array<{ a: string; b: string }> = [];
  for await (const p of inputPairs(file, scorer)) pairs.push(p);
  for (const v of scorer.scoreDocument(pairs)) yield verdictLine(v);
}

export function registerScoreCommand(program: Command): void {
  program
    .command("score")
    .description("score sentence pairs: is each a translation? One JSON line per input line (score, keep, reasons)")
    .argument("<pairs.tsv>", "A<TAB>B per line (English<TAB>Chinese for en-zh; more columns are ignored), or - for standard input")
    .option(...pairOption())
    .option("--threshold <p>", "keep pairs scored at or above this (default: the model's threshold)", probability)
    .option("--model <file>", "quality model (default: models/quality-<a>-<b>.json, yours if you trained one)")
    .option(
      "--document",
      "score the pairs as one document (a glossary, a page's pairs): the pairs kept on a first pass teach the scorer the document's own terms, then every pair is scored again (reads the whole input before writing)",
    )
    .addHelpText("after", '\nExample:\n  printf "Good morning.\\t早上好。\\nHome\\t首页\\n" | bitext score -')
    .action(async (file: string, flags: ScoreFlags) => {
      const scorer = loadScorer(resolvePair(flags.pair), {
        ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }),
        ...(flags.model ? { modelPath: flags.model } : {}),
      });
      await writeLinesTo(undefined, verdicts(file, scorer, flags.document === true));
    });
}
