import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parallelText } from "../../src/language-pair.js";
import {
  inTransaction,
  listWrapperVersions,
  openStore,
  pairOutcomes,
  recordFetch,
  recordLabelCounts,
  replacePairs,
  saveWrapper,
  setClassification,
  listRecords,
  type Store,
  upsertPage,
  sql,
} from "../../src/store/index.js";
import { storeBackends } from "../helpers/postgres.js";

/**
 * The aggregates `bitext report` reads, on both backends: records by engine and label, sentence pairs kept and
 * rejected — by the quality scorer's `reasons` when the store has that column (added by issue 24's migration;
 * added here by hand), else just counted — and the wrapper versions of distributed workers.
 */

const backends = storeBackends({ beforeAll, afterAll });

describe.each(backends)("the report's figures from a store ($name)", (backend) => {
  let store: Store | null = null;
  beforeEach(async (ctx) => {
    if (backend.skip) ctx.skip();
    if (store) return;
    store = await openStore(await backend.location());
    const s = store;
    await inTransaction(s, async () => {
      for (const [engine, n] of [
        ["sim-list", 3],
        ["sim-div", 2],
      ] as const) {
        await recordFetch(
          s,
          {
            runId: null,
            engine,
            query: parallelText("I see.", "我明白了。"),
            page: 1,
            url: `http://127.0.0.1/${engine}`,
            status: "ok",
            startedAt: new Date().toISOString(),
            durationMs: 5,
          },
          Array.from({ length: n }, (_, i) => ({ url: `http://127.0.0.1/p/${engine}/${i}`, title: `t${i}`, snippet: "s", rank: i + 1 })),
        );
      }
    });
    const first = (await listRecords(s, { engines: ["sim-list"] }))[0]!;
    await setClassification(s, first.id, { label: "bilingual", probability: 0.9, model: "m" });
    const page = await upsertPage(s, { url: "http://127.0.0.1/p/1", html: "<p>x</p>" });
    await replacePairs(
      s,
      page,
      ["a", "b", "c", "d"].map((x) => ({ en: x, zh: `${x}中`, enNorm: x, zhNorm: `${x}中` })),
    );
  });
  afterAll(() => store?.close());

  it("counts records by engine and label, unlabelled ones as unclassified", async () => {
    expect((await recordLabelCounts(store!)).sort((a, b) => `${a.engine}${a.label}`.localeCompare(`${b.engine}${b.label}`))).toEqual([
      { engine: "sim-div", label: "unclassified", records: 2 },
      { engine: "sim-list", label: "bilingual", records: 1 },
      { engine: "sim-list", label: "unclassified", records: 2 },
    ]);
  });

  it("counts pairs without a quality verdict as pairs, then kept and rejected by rule once the scorer's reasons are there", async () => {
    // Pairs stored without the scorer (reasons NULL: an older store, or scoring not run yet) are all counted kept.
    expect(await pairOutcomes(store!)).toEqual({ total: 4, scored: false, kept: 4, rejected: [], rejectedPairs: 0 });
    const set = (reasons: string, en: string) => store!.sql.run(sql`UPDATE sentence_pairs SET reasons = ${reasons} WHERE en = ${en}`);
    await set("[]", "a");
    await set("[]", "b");
    await set('["length-ratio"]', "c");
    await set('["length-ratio","untranslated"]', "d");
    expect(await pairOutcomes(store!)).toEqual({
      total: 4,
      scored: true,
      kept: 2,
      rejectedPairs: 2,
      rejected: [
        { reason: "length-ratio", pairs: 2 },
        { reason: "untranslated", pairs: 1 },
      ],
    });
  });

  it("lists the wrapper versions stored for workers", async () => {
    await saveWrapper(store!, "sim-list", "{}", 0);
    await saveWrapper(store!, "sim-list", "{}", 1);
    expect((await listWrapperVersions(store!)).map((w) => [w.engine, w.version])).toEqual([
      ["sim-list", 1],
      ["sim-list", 2],
    ]);
  });
});
