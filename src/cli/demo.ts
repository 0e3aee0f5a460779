import { type Command, Option } from "commander";
import { type DemoOptions, DEMO_FAULTS, defaultDemoOptions, runDemo } from "../sim/index.js";
import { parseFaults } from "../sim/index.js";
import { logEvent, progressReporter } from "./harvest.js";
import { userDataPath } from "../config/index.js";
import { printJson, printLine } from "./output.js";
import { createProgress, type Progress } from "./progress.js";
import { wholeNumber } from "./flags.js";

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
    .option("--dir <dir>", "folder for the demo's store and wrappers, recreated (default: data/demo in your home)")
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
        dir: flags.dir ?? userDataPath("data", "demo"),
        ...(flags.queries ? { queries: flags.queries } : {}),
        pages: wholeNumber("--pages", flags.pages, 1),
        concurrency: wholeNumber("--concurrency", flags.concurrency, 1),
        faults: flags.faults === "none" ? [] : parseFaults(flags.faults),
        ...(flags.port !== undefined ? { port: Number(flags.port) } : {}),
        ...(flags.chromium ? { chromium: flags.chromium } : {}),
      };
      const quiet = flags.json ?? false;
      const say = quiet ? () => {} : (line: string) => printLine(line);
      const progress = createProgress({ label: "harvest", quiet });
      let pagesProgress = null as Progress | null; // made when the fetch step starts, so its ETA counts from there
      try {
        const report = await runDemo(options, {
          say,
          step: (i, n, step) => say(`\n[${i}/${n}] ${step.title}`),
          onHarvestEvent: quiet ? () => {} : (e) => logEvent(e, progress),
          onHarvestProgress: progressReporter(progress),
          onPagesTotal: (n) => {
            progress.done(); // the harvest is over
            pagesProgress = createProgress({ label: "fetch pages", quiet, total: n });
          },
          onPageDone: () => pagesProgress?.tick(),
        });
        progress.done();
        pagesProgress?.done();
        if (flags.json) printJson(report);
        else {
          const corpus = report.results.corpus as { file?: string } | undefined;
          say(`\nDone. Corpus: ${corpus?.file ?? "(none)"} · records: bitext export records --db ${report.db} --format csv | head`);
        }
      } finally {
        progress.done();
        pagesProgress?.done();
      }
    });
}
