import { readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { resolve } from "node:path";
import type { Command } from "commander";
import { createSession, type DecisionSink, startAnnotationServer } from "../annotate/index.js";
import { type ClassifierInput, loadClassifier, parseClassifierInput } from "../classify/index.js";
import { annotationsPath, assertWritable, modelPath, storePath, userDataPath } from "../config/index.js";
import { inputError, UserError } from "../errors.js";
import { listRecords, openStore, setAnnotation, type Store, storeExists } from "../store/index.js";
import { annotationQuery, buildBootstrapSet } from "../classify/index.js";
import { readBilingualPage, readChineseParagraphs, readHeldOutPairs, readRealBilingualPages, readSerpRecords } from "../classify/index.js";
import { writeFileAtomic } from "../io/index.js";
import { readHeldOutList } from "../eval/index.js";
import { portNumber, positiveInt } from "./flags.js";
import { formatTable, printJson, printJsonLine, printLine } from "./output.js";
import { untilInterrupted } from "./signals.js";

interface BootstrapFlags {
  serps: string;
  parallel: string;
  holdOut: number;
  page: string;
  zhDocs?: string;
  pages?: string;
  exclude?: string;
  perSource?: number;
  out?: string;
  seed: number;
  perKind: number;
  json?: boolean;
}

function bootstrap(flags: BootstrapFlags): void {
  const serp = readSerpRecords(flags.serps);
  const parallel = readHeldOutPairs(flags.parallel, flags.holdOut);
  const page = readBilingualPage(flags.page);
  const zhDocs = flags.zhDocs ? readChineseParagraphs(flags.zhDocs) : [];
  const realPages = flags.pages ? readRealBilingualPages(flags.pages, flags.exclude ? readHeldOutList(flags.exclude) : []) : [];
  const set = buildBootstrapSet(
    { serp, parallel, page: page.pairs, pageTitle: page.title, zhDocs, realPages },
    { seed: flags.seed, perKind: flags.perKind, perSource: flags.perSource, when: new Date().toISOString() },
  );
  const out = resolve(flags.out ?? userDataPath("data", "annotations.bootstrap.jsonl"));
  writeFileAtomic(out, set.map((a) => JSON.stringify({ ...a, query: annotationQuery(a.query) })).join("\n") + "\n");
  const kinds = new Map<string, { label: string; n: number }>();
  for (const a of set) {
    const kind = (a.source ?? "")
      .split(/[:(]/)[0]!
      .replace(/ (\S+\/)?\S+\.json#\S+$/, "")
      .trim();
    const k = `${a.label} ${kind}`;
    kinds.set(k, { label: a.label, n: (kinds.get(k)?.n ?? 0) + 1 });
  }
  const positives = set.filter((a) => a.label === "bilingual").length;
  if (flags.json) {
    printJson({
      out,
      size: set.length,
      positives,
      negatives: set.length - positives,
      kinds: Object.fromEntries([...kinds].map(([k, v]) => [k, v.n])),
    });
    return;
  }
  printLine(`${out}: ${set.length} annotations (${positives} bilingual, ${set.length - positives} monolingual)`);
  printLine(formatTable([["label", "kind", "n"], ...[...kinds].map(([k, v]) => [v.label, k.slice(v.label.length + 1), v.n])]));
}

interface AnnotateFlags {
  db?: string | true;
  records?: string;
  out?: string;
  model?: string;
  who?: string;
  port?: number;
  json?: boolean;
}

function readRecordsFile(file: string): ClassifierInput[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const out: ClassifierInput[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      throw inputError({ file, line: i + 1 }, "not valid JSON");
    }
    const r = parseClassifierInput({ file, line: i + 1 }, o);
    out.push({ query: r.query, title: r.title, url: r.url, snippet: r.snippet });
  });
  return out;
}

/** Serve the annotation page until Ctrl-C. */
async function serveAnnotation(flags: AnnotateFlags): Promise<void> {
  if (flags.db !== undefined && flags.records) throw new UserError("annotate: give either --db or --records, not both");
  const out = resolve(flags.out ?? annotationsPath());
  assertWritable(out); // the annotations are appended as they are made: refused before the page is served
  let store: Store | undefined;
  let records: Parameters<typeof createSession>[0]["records"];
  let sink: DecisionSink | undefined;
  if (flags.records) records = readRecordsFile(flags.records);
  else {
    const path = storePath(flags.db === undefined || flags.db === true ? undefined : flags.db);
    if (!storeExists(path)) {
      throw new UserError(
        `${path}: no harvest store here (run bitext harvest, pass --db FILE, or annotate a JSONL file with --records FILE)`,
      );
    }
    const opened = await openStore(path);
    store = opened;
    records = (await listRecords(opened, { annotated: false })).map((r) => ({
      query: r.query,
      title: r.title,
      url: r.url,
      snippet: r.snippet,
      recordId: r.id,
      probability: r.probability,
      model: r.model,
    }));
    sink = { label: (id, label) => setAnnotation(opened, id, label) };
  }
  const classifier = loadClassifier(modelPath(flags.model) ?? undefined);
  const session = createSession({
    records,
    out,
    classifier,
    who: flags.who ?? userInfo().username,
    sink,
  });
  const server = await startAnnotationServer(session, { port: flags.port });
  const { remaining } = session.state();
  if (flags.json) printJsonLine({ url: server.url, remaining, out });
  else {
    printLine(`Annotate ${remaining} records at ${server.url}`);
    printLine(`Decisions are appended to ${out}. Press Ctrl-C to stop.`);
  }
  await untilInterrupted();
  await server.close().catch(() => undefined); // closing is best-effort: the decisions are already appended
  await store?.close();
}

export function registerAnnotateCommand(program: Command): void {
  const annotate = program
    .command("annotate")
    // `annotate bootstrap --out F --json`: the sub-command's own --out and --json, not annotate's.
    .enablePositionalOptions()
    .option("--db [file]", "annotate the unannotated records of the harvest store (default: the store in your home)")
    .option("--records <file>", "annotate the records of a JSONL file instead ({query:{en,zh},title,url,snippet} a line)")
    .option("--out <file>", "annotations file, appended to (default: data/annotations.jsonl in your home)")
    .option("--model <file>", "model that orders the records by uncertainty (default: models/default.json, yours if you trained one)")
    .option("--who <name>", "annotator name written with each decision (default: the user name)")
    .option("--port <n>", "port on 127.0.0.1 (default: a free one)", portNumber)
    .option("--json", "print the URL as JSON")
    .action((flags: AnnotateFlags) => serveAnnotation(flags));
  annotate
    .command("bootstrap")
    .description("build the bootstrap annotation set from real result records and sentence pairs (see docs/guide/classify.md)")
    .requiredOption("--serps <dir>", "archived result pages with *.expected.json records (../shared/data/serps/aql)")
    .requiredOption("--parallel <file>", "parallel sentences, English<TAB>Chinese[<TAB>attribution]")
    .requiredOption("--page <file>", "a bilingual page: English paragraphs each followed by its Chinese translation")
    .option("--zh-docs <dir>", "a site build whose Chinese pages give hard negatives (../shared/data/sites/nacos-astro/site)")
    .option(
      "--pages <dir>",
      "real bilingual pages (<source>/<page>.html + .pairs.tsv): engine-like snippets as positives, mismatched ones as hard negatives",
    )
    .option("--exclude <file>", "a list of held-out pages (e.g. test/holdout.md): pages named in it are left out of --pages")
    .option("--per-source <n>", "snippets of each kind per source folder of --pages (default: half of --per-kind)", positiveInt)
    .option("--hold-out <n>", "use lines n, 2n, … of the parallel file (those bitext lexicon learn --hold-out n left out)", positiveInt, 10)
    .option("--out <file>", "where to write the annotations (default: data/annotations.bootstrap.jsonl in your home)")
    .option("--seed <n>", "random seed (the set is reproducible)", positiveInt, 20100823)
    .option("--per-kind <n>", "composed examples of each kind", positiveInt, 120)
    .option("--json", "print a JSON summary")
    .action((flags: BootstrapFlags) => bootstrap(flags));
}
