import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parallelText } from "../../src/language-pair.js";
import { keptResultPages, noteQueryOrigin, openStore, type QueryPair, recordFetch, type Store, sql } from "../../src/store/index.js";
import { storeBackends } from "../helpers/postgres.js";

/*
 * A query's origin (list, line, note) on its `queries` row, on both stores: set by the first fetch that knows it,
 * never replaced by a later list, filled where a row has none; one row per query and language pair throughout.
 */
const backends = storeBackends({ beforeAll, afterAll });

const rows = (store: Store) =>
  store.sql.all<{ tgt_lang: string; source_file: string | null; source_line: number | null; note: string | null }>(
    sql`SELECT tgt_lang, source_file, source_line, note FROM queries ORDER BY tgt_lang`,
  );

async function fetchOf(store: Store, query: QueryPair, n: number): Promise<void> {
  await recordFetch(store, {
    runId: null,
    engine: "bing",
    query,
    page: 1,
    url: `https://bing.example/search?q=${n}`,
    status: "empty",
    startedAt: new Date().toISOString(),
    durationMs: 1,
  });
}

describe.each(backends)("query origins ($name store)", ({ skip, location }) => {
  it.skipIf(skip !== null)("keep the first list's, fill a row without one, and make no second row", async () => {
    const store = await openStore(await location());
    try {
      const zh = parallelText("I see.", "我明白了。");
      await fetchOf(store, zh, 1); // read from nowhere the store knows (a harvest from before origins were kept)
      expect(await rows(store)).toEqual([{ tgt_lang: "zh", source_file: null, source_line: null, note: null }]);
      await fetchOf(store, { ...zh, file: "/lists/a.tsv", line: 7, note: "tatoeba #1" }, 2);
      await fetchOf(store, { ...zh, file: "/lists/b.tsv", line: 1, note: null }, 3);
      await noteQueryOrigin(store, { ...zh, file: "/lists/c.tsv", line: 2, note: "skipped page" });
      // The same texts in another pair are another query.
      await noteQueryOrigin(store, {
        ...parallelText("I see.", "我明白了。", { a: "en", b: "ja" }),
        file: "/lists/ja.tsv",
        line: 1,
        note: null,
      });
      await fetchOf(
        store,
        { ...parallelText("I see.", "我明白了。", { a: "en", b: "ja" }), file: "/lists/ja.tsv", line: 4, note: null },
        4,
      );
      expect(await rows(store)).toEqual([
        { tgt_lang: "ja", source_file: "/lists/ja.tsv", source_line: 4, note: null },
        { tgt_lang: "zh", source_file: "/lists/a.tsv", source_line: 7, note: "tatoeba #1" },
      ]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip !== null)("a kept result page is read back in its query's languages (a re-extraction stores it in them)", async () => {
    const store = await openStore(await location());
    try {
      const ja = parallelText("Good morning.", "おはようございます。", { a: "en", b: "ja" });
      await recordFetch(store, {
        runId: null,
        engine: "bing",
        query: ja,
        page: 1,
        url: "https://bing.example/search?q=1",
        status: "empty",
        startedAt: new Date().toISOString(),
        durationMs: 1,
        html: "<html><body>There are no results for Good morning.</body></html>",
      });
      expect((await keptResultPages(store, "bing")).map((p) => p.query)).toEqual([ja]);
    } finally {
      await store.close();
    }
  });
});
