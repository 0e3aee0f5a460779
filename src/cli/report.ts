import type { Command } from "commander";
import { writeReport } from "../report/index.js";
import { openStore } from "../store/index.js";
import { printJson, printLine } from "./output.js";
import { existingStore, storeOption } from "./shared-options.js";

interface ReportFlags {
  db?: string;
  out: string;
  screenshots?: string[];
  json?: boolean;
}

export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .option(...storeOption())
    .option("--out <file>", "the HTML file to write", "report.html")
    .option("--screenshots <dir...>", "folders of PNG screenshots to include (e.g. those of bitext wrapper learn --preview)")
    .option("--json", "print what was written as JSON")
    .addHelpText("after", "\nExample:\n  bitext report --db data/bitext.db --out report.html")
    .action(async (flags: ReportFlags) => {
      // Reading only: a report can be written beside a running harvest.
      const store = await openStore(existingStore(flags.db), { readonly: true });
      try {
        const r = await writeReport(store, flags.out, { screenshotDirs: flags.screenshots ?? [] });
        const pages = r.data.engines.reduce((s, e) => s + e.pages, 0);
        if (flags.json)
          printJson({ out: r.out, bytes: r.bytes, charts: r.charts, engines: r.data.engines.length, pages, drifts: r.data.drifts.length });
        else
          printLine(
            `wrote ${r.out}: ${r.data.engines.length} engine(s), ${pages} result pages, ${r.data.drifts.length} drift event(s), ${r.charts.length} charts`,
          );
      } finally {
        await store.close();
      }
    });
}
