import type { Command } from "commander";
import { fetchBilingualPages } from "../extract/index.js";
import { openStore } from "../store/index.js";
import type { LanguagePair } from "../text/index.js";
import {
  type CandidateFlags,
  candidateOptions,
  candidateSelection,
  existingStore,
  pairOption,
  resolvePair,
  storeOption,
} from "./shared-options.js";
import { printJson } from "./output.js";
import { durationMs, positiveDurationMs, wholeNumber } from "./flags.js";
import { createProgress } from "./progress.js";
import { stopOnInterrupt } from "./signals.js";

interface FetchPagesFlags extends CandidateFlags {
  db: string;
  refetch?: boolean;
  delay: string;
  timeout: string;
  maxBytes: string;
  robots: boolean;
  pair?: LanguagePair;
  json?: boolean;
}

export function registerFetchPagesCommand(program: Command): void {
  candidateOptions(program.command("fetch-pages").option(...storeOption()))
    .option("--refetch", "download pages again even when already stored")
    .option("--delay <duration>", "minimum time between two requests to one host (500ms, 2s)", "1s")
    .option("--timeout <duration>", "time allowed for one page (20s, 1m)", "20s")
    .option("--max-bytes <n>", "largest page accepted, in bytes", String(5 * 1024 * 1024))
    .option("--no-robots", "do not read robots.txt (only for your own sites)")
    .option(...pairOption())
    .option("--json", "print the summary as JSON")
    .addHelpText("after", "\nThen: bitext export corpus --format tmx --out corpus")
    .action(async (flags: FetchPagesFlags) => {
      const candidates = candidateSelection(flags);
      const fetcherOptions = {
        delayMs: durationMs("--delay", flags.delay),
        timeoutMs: positiveDurationMs("--timeout", flags.timeout),
        maxBytes: wholeNumber("--max-bytes", flags.maxBytes, 1),
        robots: flags.robots,
      };
      const store = await openStore(existingStore(flags.db));
      const progress = createProgress({ label: "fetch-pages", quiet: flags.json === true });
      let pairs = 0;
      let failed = 0;
      const interrupt = stopOnInterrupt("interrupted: finishing the pages in flight (the rest are fetched by the next run)");
      try {
        const summary = await fetchBilingualPages(store, {
          signal: interrupt.signal,
          ...candidates,
          refetch: flags.refetch === true,
          extract: { pair: resolvePair(flags.pair) },
          fetcherOptions,
          onTotal: (n) => progress.setTotal(n),
          onPage: (o) => {
            pairs += o.pairs;
            if (o.status === "failed") failed++;
            progress.tick(1, { pairs, failed });
          },
        });
        progress.done();
        if (flags.json) {
          printJson({
            records: summary.records,
            urls: summary.urls,
            fetched: summary.fetched,
            already_stored: summary.alreadyStored,
            failed: summary.failed,
            skipped: summary.skipped,
            pairs: summary.pairs,
            pages: summary.pages,
            interrupted: summary.interrupted,
          });
        } else {
          for (const p of summary.pages)
            if (p.status === "failed" || p.status === "skipped")
              process.stderr.write(`bitext: ${p.status === "skipped" ? `${p.url}: skipped: ` : ""}${p.error}\n`);
          if (summary.records === 0) process.stderr.write("bitext: no record is classified bilingual yet (run bitext classify --db …)\n");
          process.stdout.write(
            `${summary.urls} pages of ${summary.records} bilingual records: ${summary.fetched} fetched, ` +
              `${summary.alreadyStored} already stored, ${summary.failed} failed, ${summary.skipped} skipped; ${summary.pairs} sentence pairs\n`,
          );
        }
        if (summary.interrupted) process.exitCode = 130;
      } finally {
        interrupt.dispose();
        progress.done();
        await store.close();
      }
    });
}
