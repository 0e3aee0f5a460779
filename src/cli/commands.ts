import type { Command } from "commander";

/**
 * Every top-level command, in the order `bitext --help` lists them: its name, the one line that
 * describes it (the one place it is written), and how to load the module that defines it.
 * Modules are loaded only when their command runs, so `bitext --help` and every command start without
 * loading the browser driver, jsdom, the SVM, the lexicon and SQLite they don't need.
 * Command groups with sub-commands from several modules (`eval`, `export`) keep their own list.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  /** The module's registration function, which adds the command (with its options and sub-commands). */
  load: () => Promise<(program: Command) => void>;
}

export const commands: readonly CommandEntry[] = [
  {
    name: "init",
    summary: "make a folder a workspace (bitext.config.json): what you make is kept there",
    load: async () => (await import("./where.js")).registerInitCommand,
  },
  {
    name: "where",
    summary: "print every path in use (home, config, store) and which file each command reads",
    load: async () => (await import("./where.js")).registerWhereCommand,
  },
  {
    name: "demo",
    summary: "run the main job offline: a local engine simulator, wrapper learning, a harvest of queries/demo.tsv",
    load: async () => (await import("./demo.js")).registerDemoCommand,
  },
  {
    name: "sim",
    summary:
      "serve simulated search engines on 127.0.0.1 (consent walls, script-only and proxy-only engines, faults) to try harvests offline",
    load: async () => (await import("./sim.js")).registerSimCommand,
  },
  {
    name: "harvest",
    summary: "submit query pairs to search engines with a real browser and store every result record (feng2010 §4.1)",
    load: async () => (await import("./harvest.js")).registerHarvestCommand,
  },
  {
    name: "pipeline",
    summary:
      "run the whole job on your engines, as the demo does: harvest, fetch the bilingual pages, extract and export the corpus, report",
    load: async () => (await import("./pipeline.js")).registerPipelineCommand,
  },
  {
    name: "worker",
    summary: "run the page jobs of a queue (bitext harvest --queue) on this machine: distributed harvesting on Redis",
    load: async () => (await import("./worker.js")).registerWorkerCommand,
  },
  {
    name: "queue",
    summary: "inspect the harvest queue on Redis: page jobs waiting, active, done and failed per engine and run",
    load: async () => (await import("./queue.js")).registerQueueCommands,
  },
  {
    name: "daemon",
    summary: "run the harvests of a schedule config on their cron schedules, never two at once",
    load: async () => (await import("./daemon.js")).registerDaemonCommand,
  },
  {
    name: "runs",
    summary: "list harvest runs, and find or clear runs left running by a process that died",
    load: async () => (await import("./runs.js")).registerRunsCommand,
  },
  {
    name: "report",
    summary:
      "write a run report: one self-contained HTML page of charts and tables (pages, records, blocks, wrappers, drift, labels, pairs)",
    load: async () => (await import("./report.js")).registerReportCommand,
  },
  {
    name: "wrapper",
    summary: "learn and inspect record wrappers for search engines",
    load: async () => (await import("./wrapper.js")).registerWrapperCommands,
  },
  {
    name: "records",
    summary: "extract result records (rank, title, url, snippet) from a saved result page",
    load: async () => (await import("./records.js")).registerRecordsCommand,
  },
  {
    name: "lexicon",
    summary: "the bilingual lexicon (CC-CEDICT + learned translation equivalents)",
    load: async () => (await import("./lexicon.js")).registerLexiconCommands,
  },
  {
    name: "annotate",
    summary: "label result records as bilingual or monolingual in a local web page (most uncertain first)",
    load: async () => (await import("./annotate.js")).registerAnnotateCommand,
  },
  {
    name: "train",
    summary: "train the bilingual-page classifier (RBF SVM) from annotated records",
    load: async () => (await import("./train.js")).registerTrainCommand,
  },
  {
    name: "classify",
    summary: "decide whether result records link to bilingual pages (JSONL on stdin, or the store with --db)",
    load: async () => (await import("./classify.js")).registerClassifyCommand,
  },
  {
    name: "fetch-pages",
    summary: "download the pages of records classified bilingual, store them and extract their sentence pairs",
    load: async () => (await import("./fetch-pages.js")).registerFetchPagesCommand,
  },
  {
    name: "extract",
    summary: "extract parallel sentence pairs from bilingual pages (saved files or URLs)",
    load: async () => (await import("./extract.js")).registerExtractCommand,
  },
  {
    name: "site",
    summary: "parallel page pairs in bilingual websites (URL keys, kit-ng2007; link-based ETS, liu2014)",
    load: async () => (await import("./site.js")).registerSiteCommands,
  },
  {
    name: "score",
    summary: "score sentence pairs (A<TAB>B): a probability of translation, keep or not, and the rules against",
    load: async () => (await import("./score.js")).registerScoreCommand,
  },
  {
    name: "quality",
    summary: "train the pair scorer (is a sentence pair a translation?) on real pairs",
    load: async () => (await import("./quality.js")).registerQualityCommands,
  },
  {
    name: "export",
    summary: "write stored data to files",
    load: async () => (await import("./export.js")).registerExportCommands,
  },
  {
    name: "eval",
    summary: "measure precision and recall against gold data",
    load: async () => (await import("./eval.js")).registerEvalCommands,
  },
];

/** The command a command line invokes (`bitext harvest …`, `bitext help harvest`), if any. */
export function invokedCommand(args: readonly string[]): CommandEntry | undefined {
  const first = args.findIndex((a) => !a.startsWith("-"));
  if (first < 0) return undefined;
  const name = args[first] === "help" ? args[first + 1] : args[first];
  return commands.find((c) => c.name === name);
}

/**
 * Add the invoked command in full, or — for `bitext --help`, no command or an unknown one — every
 * command as a name and summary only, so commander can list them and suggest the closest name.
 */
export async function registerCommands(program: Command, args: readonly string[]): Promise<void> {
  const entry = invokedCommand(args);
  const entries = entry ? [entry] : commands;
  for (const e of entries) {
    if (entry) (await e.load())(program);
    else program.command(e.name);
    program.commands.find((c) => c.name() === e.name)?.description(e.summary);
  }
}
