/**
 * Store one result page of records, as a worker of a distributed harvest does, and print its outcome as
 * JSON (see concurrent-writers.test.ts). Usage: store-one-page.ts STORE RECORDS.json
 */
import { parallelText } from "../../../src/language-pair.js";
import { readFileSync } from "node:fs";
import { type NewRecord, openStore, recordFetch } from "../../../src/store/index.js";

const [location, recordsFile] = process.argv.slice(2) as [string, string];
const records = JSON.parse(readFileSync(recordsFile, "utf8")) as NewRecord[];
const store = await openStore(location);
try {
  const outcome = await recordFetch(
    store,
    {
      runId: null,
      engine: "bing",
      query: parallelText("kumolife", "酷模生活"),
      page: 1,
      url: "https://www.bing.com/search?q=kumolife",
      status: "ok",
      startedAt: new Date().toISOString(),
      durationMs: 1,
    },
    records.map((r, i) => ({ ...r, rank: i + 1 })),
  );
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
} finally {
  await store.close();
}
