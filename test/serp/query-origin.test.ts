import { copyFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarvest, SerpDriver } from "../../src/serp/index.js";
import { openStore, type Store, sql } from "../../src/store/index.js";
import { bench, DEMO, FAST } from "./helpers.js";

/*
 * Where each query was read (its list, line and note column) reaches its `queries` row through a real harvest of
 * the simulator: lists given by a relative path are stored absolute, a query in two lists keeps the first, and a
 * row without an origin (a store from before they were kept) gains one at the next harvest, without a second row.
 */
let driver: SerpDriver;
beforeAll(async () => {
  // A page of the local simulator loads in well under a second; 15 s so that a machine loaded by other work (seen:
  // both cores busy) does not turn a slow page into the harvest error this test is not about.
  driver = await SerpDriver.start({ timeoutMs: 15_000 });
});
afterAll(async () => {
  await driver.close();
});

interface QueryRow {
  src_lang: string;
  tgt_lang: string;
  src_text: string;
  source_file: string | null;
  source_line: number | null;
  note: string | null;
}

const queryRows = (store: Store) =>
  store.sql.all<QueryRow>(
    sql`SELECT src_lang, tgt_lang, src_text, source_file, source_line, note FROM queries ORDER BY source_file, source_line, src_text`,
  );

/** One page of each query from the simulator's list engine, unclassified, into `db`. */
const harvestOnce = (wrappersDir: string, db: string, queryFiles: string[]) =>
  runHarvest({ queryFiles, engines: ["sim-list"], wrappersDir, db, driver, model: null, pages: 1, ...FAST });

const line = (i: number, note?: string) => [DEMO[i]!.source.text, DEMO[i]!.target.text, ...(note === undefined ? [] : [note])].join("\t");

describe("a query's origin in the store", () => {
  it("is the list (absolute), the 1-based line and the note of the first list that holds it", async () => {
    const b = await bench();
    try {
      const first = join(b.dir, "first.tsv");
      const second = join(b.dir, "second.tsv");
      writeFileSync(first, ["# greetings", "", line(0, "tatoeba #1"), line(1), ""].join("\n"));
      writeFileSync(second, [line(1, "again"), "# more", line(2, "tatoeba #3")].join("\n"));
      const db = join(b.dir, "h.db");
      // As a user types them, relative to where the harvest runs.
      const harvest = () => harvestOnce(b.dir, db, [relative(process.cwd(), first), relative(process.cwd(), second)]);
      const run = await harvest();
      expect(run).toMatchObject({ queries: 3, errors: 0, blocked: 0 });
      const store = await openStore(db);
      try {
        expect(await queryRows(store)).toEqual([
          { src_lang: "en", tgt_lang: "zh", src_text: DEMO[0]!.source.text, source_file: first, source_line: 3, note: "tatoeba #1" },
          { src_lang: "en", tgt_lang: "zh", src_text: DEMO[1]!.source.text, source_file: first, source_line: 4, note: null },
          { src_lang: "en", tgt_lang: "zh", src_text: DEMO[2]!.source.text, source_file: second, source_line: 3, note: "tatoeba #3" },
        ]);
        // Rows from before origins were kept: the rerun skips their pages (fetched within --max-age) and fills them.
        await store.sql.run(sql`UPDATE queries SET source_file = NULL, source_line = NULL, note = NULL`);
      } finally {
        await store.close();
      }
      const again = await harvest();
      expect(again).toMatchObject({ fetched: 0, skipped: 3 });
      const reopened = await openStore(db);
      try {
        const rows = await queryRows(reopened);
        expect(rows.map((r) => [r.source_file, r.source_line, r.note])).toEqual([
          [first, 3, "tatoeba #1"],
          [first, 4, null],
          [second, 3, "tatoeba #3"],
        ]);
      } finally {
        await reopened.close();
      }
    } finally {
      await b.close();
    }
  });

  it("fills the rows of a store made before (the migration's rows, no origin) without adding a second row", async () => {
    const b = await bench();
    try {
      // bitext at bb80c07 (schema 5), migrated on open: "Good morning" and "I see." as rows without an origin.
      const db = join(b.dir, "old.db");
      copyFileSync(new URL("../fixtures/store/bb80c07-v5.db", import.meta.url), db);
      const list = join(b.dir, "old-queries.tsv");
      writeFileSync(list, ["# languages: en zh", "I see.\t我明白了。\tfrom the old list", "Good morning\t早上好"].join("\n"));
      const run = await harvestOnce(b.dir, db, [list]);
      expect(run).toMatchObject({ queries: 2, errors: 0, blocked: 0 });
      const store = await openStore(db);
      try {
        expect(await queryRows(store)).toEqual([
          { src_lang: "en", tgt_lang: "zh", src_text: "I see.", source_file: list, source_line: 2, note: "from the old list" },
          { src_lang: "en", tgt_lang: "zh", src_text: "Good morning", source_file: list, source_line: 3, note: null },
        ]);
        // The new fetches link the old rows.
        const links = await store.sql.all<{ n: number }>(
          sql`SELECT count(DISTINCT f.query_id) AS n FROM fetches f WHERE f.engine = 'sim-list'`,
        );
        expect(links).toEqual([{ n: 2 }]);
      } finally {
        await store.close();
      }
    } finally {
      await b.close();
    }
  });
});
