import { parallelText } from "../../src/language-pair.js";
import { inTransaction, openStore, type QueryPair, recordFetch, type Store } from "../../src/store/index.js";

/**
 * A store holding `n` harvested records (100 per result page, one transaction), for tests and benchmarks
 * of what reads the store back. Titles and snippets have the length and mix of real records.
 */
export async function buildRecordStore(path: string, n: number): Promise<void> {
  // (path: a SQLite file or a PostgreSQL URL)
  const store = await openStore(path);
  try {
    const perPage = 100;
    const started = new Date().toISOString();
    await inTransaction(store, async () => {
      for (let page = 0; page * perPage < n; page++) {
        const records = [];
        for (let i = page * perPage; i < Math.min(n, (page + 1) * perPage); i++) {
          records.push({
            url: `http://127.0.0.1/p/${i}.html`,
            title: `Example sentences ${i} 例句 ${i}`,
            snippet: `I see, ${i}. 我明白了。 He was accused of murder, "a test" with a comma, and a quote. 他被指控谋杀。 ${i}`,
            rank: (i % perPage) + 1,
          });
        }
        await recordFetch(
          store,
          {
            runId: null,
            engine: "sim-list",
            query: parallelText(`query ${page}`, `查询 ${page}`),
            page: 1,
            url: `http://127.0.0.1/search?q=${page}`,
            status: "ok",
            startedAt: started,
            durationMs: 1,
          },
          records,
        );
      }
    });
  } finally {
    await store.close();
  }
}

/** Records of one result page of `engine` for a query ("Good morning / 早上好" by default), as a harvest stores them. */
export async function storeHarvestedRecords(
  store: Store,
  engine: string,
  records: ReadonlyArray<{ url: string; title: string; snippet: string; rank: number }>,
  query: QueryPair = parallelText("Good morning", "早上好"),
): Promise<void> {
  await recordFetch(
    store,
    {
      runId: null,
      engine,
      query,
      page: 1,
      url: `https://${engine}.example/search?q=x`,
      status: "ok",
      startedAt: new Date().toISOString(),
      durationMs: 1,
    },
    records,
  );
}
