import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { buildBootstrapSet } from "../classify/bootstrap.js";
import { readBilingualPage, readChineseParagraphs, readHeldOutPairs, readSerpRecords } from "../classify/bootstrap-sources.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { formatTable, printJson, printLine } from "./output.js";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

interface BootstrapFlags {
  serps: string;
  parallel: string;
  holdOut: number;
  page: string;
  zhDocs?: string;
  out: string;
  seed: number;
  perKind: number;
  json?: boolean;
}

function bootstrap(flags: BootstrapFlags): void {
  const serp = readSerpRecords(flags.serps);
  const parallel = readHeldOutPairs(flags.parallel, flags.holdOut);
  const page = readBilingualPage(flags.page);
  const zhDocs = flags.zhDocs ? readChineseParagraphs(flags.zhDocs) : [];
  const set = buildBootstrapSet(
    { serp, parallel, page: page.pairs, pageTitle: page.title, zhDocs },
    { seed: flags.seed, perKind: flags.perKind, when: new Date().toISOString() },
  );
  writeFileAtomic(resolve(flags.out), set.map((a) => JSON.stringify(a)).join("\n") + "\n");
  const kinds = new Map<string, { label: string; n: number }>();
  for (const a of set) {
    const kind = (a.source ?? "").split(/[:(]/)[0]!.replace(/ (\S+\/)?\S+\.json#\S+$/, "").trim();
    const k = `${a.label} ${kind}`;
    kinds.set(k, { label: a.label, n: (kinds.get(k)?.n ?? 0) + 1 });
  }
  const positives = set.filter((a) => a.label === "bilingual").length;
  if (flags.json) {
    printJson({ out: resolve(flags.out), size: set.length, positives, negatives: set.length - positives, kinds: Object.fromEntries([...kinds].map(([k, v]) => [k, v.n])) });
    return;
  }
  printLine(`${resolve(flags.out)}: ${set.length} annotations (${positives} bilingual, ${set.length - positives} monolingual)`);
  printLine(formatTable([["label", "kind", "n"], ...[...kinds].map(([k, v]) => [v.label, k.slice(v.label.length + 1), v.n])]));
}

export function registerAnnotateCommand(program: Command): void {
  const annotate = program.command("annotate").description("label result records as bilingual or monolingual");
  annotate
    .command("bootstrap")
    .description("build the bootstrap annotation set from real result records and sentence pairs (see README)")
    .requiredOption("--serps <dir>", "archived result pages with *.expected.json records (../shared/data/serps/aql)")
    .requiredOption("--parallel <file>", "parallel sentences, English<TAB>Chinese[<TAB>attribution]")
    .requiredOption("--page <file>", "a bilingual page: English paragraphs each followed by its Chinese translation")
    .option("--zh-docs <dir>", "a site build whose Chinese pages give hard negatives (../shared/data/sites/nacos-astro/site)")
    .option("--hold-out <n>", "use lines n, 2n, … of the parallel file (those bitext lexicon learn --hold-out n left out)", positiveInt, 10)
    .option("--out <file>", "where to write the annotations", "data/annotations.bootstrap.jsonl")
    .option("--seed <n>", "random seed (the set is reproducible)", positiveInt, 20100823)
    .option("--per-kind <n>", "composed examples of each kind", positiveInt, 120)
    .option("--json", "print a JSON summary")
    .action((flags: BootstrapFlags) => bootstrap(flags));
}
