/**
 * `npm run bench -- store`: the store's two backends side by side, in this process. SQLite (a file in a temp
 * folder) is the reference; PostgreSQL is a private cluster started for the run (test/helpers/postgres.ts,
 * durability off as in the tests, so this compares the drivers and round trips, not disks). Measured: storing
 * result pages (one fetch + 10 new records, one transaction each), storing the same pages again (every record
 * seen again), and streaming 20,000 records back (iterateRecords; PostgreSQL through a cursor).
 */
import { parallelText } from "../src/language-pair.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { iterateRecords, openStore, recordFetch, type Store } from "../src/store/index.js";
import { postgresUnavailable, startPostgres } from "../test/helpers/postgres.js";
import { buildRecordStore } from "../test/helpers/record-store.js";
import { median, ms } from "./stats.js";

const PAGES = 200;
const REPEATS = 5;

async function storePages(store: Store, round: number, again: boolean): Promise<void> {
  const startedAt = new Date(Date.now() + round).toISOString();
  for (let p = 0; p < PAGES; p++) {
    const key = again ? p : round * PAGES + p;
    await recordFetch(
      store,
      {
        runId: null,
        engine: "sim-list",
        query: parallelText(`query ${key}`, `查询 ${key}`),
        page: 1,
        url: `http://127.0.0.1/search?q=${key}`,
        status: "ok",
        startedAt,
        durationMs: 1,
      },
      Array.from({ length: 10 }, (_, i) => ({
        url: `http://127.0.0.1/p/${key}-${i}.html`,
        title: `Example ${i} 例句`,
        snippet: `I see. 我明白了。 ${key} ${i}`,
        rank: i + 1,
      })),
    );
  }
}

/** Median ms per page stored (new records, then the same records again) and per 1,000 records streamed. */
async function measure(
  location: (name: string) => string | Promise<string>,
): Promise<{ newPage: number; seenPage: number; stream: number }> {
  const store = await openStore(await location("pages"));
  const fresh: number[] = [];
  const again: number[] = [];
  try {
    await storePages(store, 0, true); // warm-up, and the pages stored again below
    for (let r = 1; r <= REPEATS; r++) {
      let t = performance.now();
      await storePages(store, r, false);
      fresh.push((performance.now() - t) / PAGES);
      t = performance.now();
      await storePages(store, r, true);
      again.push((performance.now() - t) / PAGES);
    }
  } finally {
    await store.close();
  }
  const big = await location("records");
  await buildRecordStore(big, 20_000);
  const reader = await openStore(big, { readonly: true });
  const stream: number[] = [];
  try {
    for (let r = 0; r < REPEATS; r++) {
      const t = performance.now();
      let n = 0;
      for await (const _ of iterateRecords(reader)) n++;
      stream.push(((performance.now() - t) / n) * 1000);
    }
  } finally {
    await reader.close();
  }
  return { newPage: median(fresh), seenPage: median(again), stream: median(stream) };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bitext-store-bench-"));
  const why = postgresUnavailable();
  const cluster = why ? null : await startPostgres();
  try {
    const sqlite = await measure((name) => join(dir, `${name}.db`));
    const rows = [
      "| backend | page stored (10 new records) | page stored again (10 seen again) | 1,000 records streamed |",
      "|---|---|---|---|",
      `| SQLite (reference) | ${ms(sqlite.newPage)} ms | ${ms(sqlite.seenPage)} ms | ${ms(sqlite.stream)} ms |`,
    ];
    if (cluster) {
      const pg = await measure(() => cluster.createDatabase());
      const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
      rows.push(
        `| PostgreSQL (local, fsync off) | ${ms(pg.newPage)} ms (${ratio(pg.newPage, sqlite.newPage)}) | ${ms(pg.seenPage)} ms (${ratio(pg.seenPage, sqlite.seenPage)}) | ${ms(pg.stream)} ms (${ratio(pg.stream, sqlite.stream)}) |`,
      );
    } else rows.push(`| PostgreSQL | skipped: ${why} | | |`);
    console.log(`medians of ${REPEATS} rounds of ${PAGES} pages; ratios against SQLite\n\n${rows.join("\n")}`);
  } finally {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
