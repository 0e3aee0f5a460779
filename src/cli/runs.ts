import type { Command } from "commander";
import {
  countDriftEventsByRun,
  listRuns,
  markCrashedRuns,
  openStore,
  type Run,
  STALE_AFTER_MS,
  staleRuns,
  withStore,
} from "../store/index.js";
import { formatTable, printJson, printLine } from "./output.js";
import { wholeNumber } from "./flags.js";
import { demoOption, existingStore, storeOption } from "./shared-options.js";

interface RunsFlags {
  db?: string;
  demo?: boolean;
  limit: string;
  stale?: boolean;
  clearStale?: boolean;
  json?: boolean;
}

export function registerRunsCommand(program: Command): void {
  program
    .command("runs")
    .option(...storeOption())
    .option(...demoOption())
    .option("--limit <n>", "at most this many runs, newest first", "20")
    .option(
      "--stale",
      `only runs still marked running whose process is gone (no heartbeat for ${STALE_AFTER_MS / 1000} s, or a dead pid on this host)`,
    )
    .option("--clear-stale", "mark those stale runs crashed (their fetches are kept; a rerun resumes)")
    .option("--json", "print the runs as JSON")
    .action(async (flags: RunsFlags) => {
      const limit = wholeNumber("--limit", flags.limit, 1);
      const db = existingStore(flags, { demoFallback: !flags.clearStale });
      if (flags.clearStale) {
        const cleared = await withStore(db, async (store) => {
          const stale = await staleRuns(store);
          await markCrashedRuns(store);
          return stale;
        });
        if (flags.json) printJson({ cleared: cleared.map(toJson) });
        else
          printLine(
            cleared.length === 0
              ? "no stale runs"
              : `marked crashed: ${cleared.map((r) => `run ${r.id} (host ${r.hostname ?? "?"}, pid ${r.pid ?? "?"})`).join(", ")}`,
          );
        return;
      }
      // Listing only reads: it works beside a harvest and on a store on read-only media.
      const store = await openStore(db, { readonly: true });
      try {
        const staleRows = await staleRuns(store);
        const stale = new Set(staleRows.map((r) => r.id));
        const runs = flags.stale ? staleRows.slice(-limit).reverse() : await listRuns(store, limit);
        const drifts = await countDriftEventsByRun(store);
        if (flags.json) {
          printJson(runs.map((r) => ({ ...toJson(r), stale: stale.has(r.id), drifts: drifts.get(r.id) ?? 0 })));
          return;
        }
        if (runs.length === 0) {
          printLine(flags.stale ? "no stale runs" : "no runs yet");
          return;
        }
        printLine(
          formatTable([
            ["run", "status", "host", "pid", "started", "finished / last heartbeat", "drifts"],
            ...runs.map((r) => [
              r.id,
              stale.has(r.id) ? "running (stale)" : r.status,
              r.hostname ?? "-",
              r.pid ?? "-",
              r.startedAt,
              r.finishedAt ?? r.heartbeatAt ?? "-",
              drifts.get(r.id) ?? 0,
            ]),
          ]),
        );
        if (stale.size > 0 && !flags.stale) printLine(`\n${stale.size} stale run(s): clear them with bitext runs --clear-stale --db ${db}`);
      } finally {
        await store.close();
      }
    });
}

function toJson(r: Run) {
  return {
    id: r.id,
    status: r.status,
    host: r.hostname,
    pid: r.pid,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    heartbeatAt: r.heartbeatAt,
  };
}
