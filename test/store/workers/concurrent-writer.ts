/**
 * One of several processes writing the same harvest into one store at once (see concurrent-writers.test.ts):
 * every process stores the same result pages (real records) and re-learns the same engine's wrapper in
 * rounds. Prints one JSON line: its fetch outcomes and the wrapper versions it won.
 * Usage: concurrent-writer.ts STORE RECORDS.json GO_FILE (it says "ready" on stderr, then starts when GO_FILE exists)
 */
import { parallelText } from "../../../src/language-pair.js";
import { existsSync, readFileSync } from "node:fs";
import { latestWrapper, type NewRecord, openStore, recordFetch, saveWrapper } from "../../../src/store/index.js";

const [location, recordsFile, go] = process.argv.slice(2) as [string, string, string];
const records = JSON.parse(readFileSync(recordsFile, "utf8")) as NewRecord[];
const store = await openStore(location);
const PAGES = 12;
const ROUNDS = 40;
try {
  process.stderr.write("ready\n");
  while (!existsSync(go)); // start together, to race for real
  const outcomes = [];
  const won: number[] = [];
  let lost = 0;
  for (let i = 0; i < Math.max(PAGES, ROUNDS); i++) {
    if (i < PAGES) {
      const query = parallelText(`query ${i % 4}`, `查询 ${i % 4}`);
      const page = records.slice((i * 7) % records.length).concat(records.slice(0, (i * 7) % records.length));
      const o = await recordFetch(
        store,
        {
          runId: null,
          engine: "bing",
          query,
          page: 1,
          url: `https://www.bing.com/search?q=${i % 4}`,
          status: "ok",
          startedAt: new Date().toISOString(),
          durationMs: 1,
        },
        page.map((r, rank) => ({ ...r, rank: rank + 1 })),
      );
      outcomes.push({ newRecords: o.newRecords, seenAgain: o.seenAgain });
    }
    if (i < ROUNDS) {
      const latest = await latestWrapper(store, "bing");
      const r = await saveWrapper(store, "bing", JSON.stringify({ by: process.pid, round: i }), latest?.version ?? 0);
      if (r.won) won.push(r.version);
      else lost++;
    }
  }
  process.stdout.write(`${JSON.stringify({ pid: process.pid, outcomes, won, lost })}\n`);
} finally {
  await store.close();
}
