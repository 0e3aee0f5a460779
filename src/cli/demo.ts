import { type Command, Option } from "commander";
import { type DemoOptions, DEMO_FAULTS, defaultDemoOptions, runDemo } from "../sim/index.js";
import { parseFaults } from "../sim/index.js";
import { pipelineView } from "./pipeline.js";
import { resolve } from "node:path";
import { demoFolder } from "../config/index.js";
import { printJson } from "./output.js";
import { wholeNumber } from "./flags.js";
import { quoted, selfCommand } from "./self.js";

interface DemoFlags {
  dir?: string;
  queries?: string;
  pages: string;
  concurrency: string;
  faults: string;
  port?: string;
  chromium?: string;
  json?: boolean;
}

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .option(
      "--dir <dir>",
      "folder for the demo's store, wrappers and corpus, replaced only when the demo succeeds (default: data/demo in your home)",
    )
    .option("--queries <file>", "query list to harvest (default: the shipped queries/demo.tsv)")
    .option("--pages <n>", "result pages per query", "2")
    .option("--concurrency <n>", "page loads in flight at once", "3")
    .option("--faults <spec>", `faults the simulator injects ("none" for none)`, DEMO_FAULTS)
    .option("--port <n>", "simulator port on 127.0.0.1 (default: any free port)")
    .addOption(new Option("--chromium <path>", "Chromium executable").env("BITEXT_CHROMIUM"))
    .option("--json", "print the demo's report as JSON")
    .action(async (flags: DemoFlags) => {
      const defaults = defaultDemoOptions();
      const options: DemoOptions = {
        ...defaults,
        dir: resolve(flags.dir ?? demoFolder()),
        ...(flags.queries ? { queries: flags.queries } : {}),
        pages: wholeNumber("--pages", flags.pages, 1),
        concurrency: wholeNumber("--concurrency", flags.concurrency, 1),
        faults: flags.faults === "none" ? [] : parseFaults(flags.faults),
        ...(flags.port !== undefined ? { port: Number(flags.port) } : {}),
        ...(flags.chromium ? { chromium: flags.chromium } : {}),
      };
      const view = pipelineView({ lines: !flags.json, events: !flags.json });
      const say = view.hooks.say;
      try {
        const report = await runDemo(options, view.hooks);
        view.done();
        const next = nextCommands(report.db);
        if (flags.json) printJson({ ...report, next });
        else {
          const corpus = report.results.corpus as { file?: string } | undefined;
          say(`\nDone. Corpus: ${corpus?.file ?? "(none)"}. The demo's store: ${report.db}`);
          say("Next (from any folder; while you have no store of your own, export and runs read the demo's, or add --demo):");
          for (const c of next) say(`  ${c}`);
        }
      } finally {
        view.done();
      }
    });
}

/** The commands to try after a demo, runnable as printed from any folder: the store by its absolute path. */
export function nextCommands(db: string): string[] {
  const bitext = selfCommand();
  const store = `--db ${quoted(db)}`;
  return [
    `${bitext} export records ${store} --label bilingual --format csv | head -5`,
    `${bitext} export corpus ${store} --format tmx --out corpus`,
    `${bitext} runs ${store}`,
  ];
}
