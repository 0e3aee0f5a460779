import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { enqueue, queuedRun, rows, unavailable, useServers, worker } from "../helpers/distributed.js";

/** Distributed harvesting: the engine's pace as the engine sees it, and what a job carries (the pair, the query's origin). */

describe.skipIf(unavailable !== null)("distributed harvest: the engine's rate limit holds at the request", () => {
  // A gap with the full send slack (100 ms, `sendSlackMs`).
  const GAP_MS = 400;
  const servers = useServers({ limits: { "sim-table": { minDelayMs: GAP_MS, requestsPerMinute: 0, maxConcurrent: 4 } } });

  // What a lease holds at the engine: its rate, and no burst. Not every single gap: a worker starved of CPU between
  // its grant and its request's bytes leaving sends late, closing up the next gap (CI measured 250 ms for 400 ms after
  // a 245 ms stall; docs/distributed.md).
  it("3 workers, 4 pages in flight each: the engine sees its minimum delay as the median gap, and never three requests within it", async () => {
    const { redis, s } = servers;
    const { db, before } = await queuedRun(servers, "paced", 24, 600, "sim-table", ["--pages", "1"]);
    const ended = await Promise.all([1, 2, 3].map(() => worker(redis, s, db, "sim-table", ["--concurrency", "4"]).done));
    for (const e of ended) expect(e, e.stderr).toMatchObject({ code: 0 });
    expect(ended.filter((e) => /\b[1-9]\d* pages fetched/.test(e.stdout)).length).toBeGreaterThan(1);
    const times = s.sim.log
      .slice(before)
      .filter((l) => l.engine === "sim-table")
      .map((l) => l.at)
      .sort((a, b) => a - b);
    expect(times.length).toBeGreaterThanOrEqual(24);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    const sorted = [...gaps].sort((x, y) => x - y);
    expect(sorted[Math.floor(sorted.length / 2)]!, `gaps: ${gaps.join(" ")}`).toBeGreaterThanOrEqual(GAP_MS);
    const spans = times.slice(2).map((t, i) => t - times[i]!);
    expect(Math.min(...spans), `gaps: ${gaps.join(" ")}`).toBeGreaterThanOrEqual(GAP_MS);
  }, 120_000);
});

describe.skipIf(unavailable !== null)("distributed harvest: the language pair and the query's origin travel in the jobs", () => {
  const servers = useServers();

  it("a queue filled with --pair en-ja makes a worker (no --pair of its own) store en-ja queries with their list, line and note", async () => {
    const { redis, s } = servers;
    const list = join(s.dir, "greetings-ja.tsv");
    writeFileSync(list, "# Japanese greetings\nGood morning.\tおはようございます。\tja #1\n\nThank you.\tありがとう。\n");
    expect(await enqueue(redis, s, list, "sim-list", ["--run", "ja", "--pair", "en-ja"])).toMatchObject({ offered: 2, added: 2 });
    const db = join(s.dir, "ja.db");
    const e = await worker(redis, s, db, "sim-list").done;
    expect(e, e.stderr).toMatchObject({ code: 0 });
    const store = await openStore(db, { readonly: true });
    try {
      expect(
        await rows(
          store,
          "SELECT src_lang, tgt_lang, src_text, tgt_text, source_file, source_line, note FROM queries ORDER BY source_line",
        ),
      ).toEqual([
        {
          src_lang: "en",
          tgt_lang: "ja",
          src_text: "Good morning.",
          tgt_text: "おはようございます。",
          source_file: list,
          source_line: 2,
          note: "ja #1",
        },
        { src_lang: "en", tgt_lang: "ja", src_text: "Thank you.", tgt_text: "ありがとう。", source_file: list, source_line: 4, note: null },
      ]);
      // Every fetch the worker stored names its query's row.
      expect(await rows(store, "SELECT count(*) AS n FROM fetches WHERE query_id IS NULL")).toEqual([{ n: 0 }]);
      expect(Number((await rows(store, "SELECT count(*) AS n FROM fetches"))[0]!.n)).toBeGreaterThanOrEqual(2);
    } finally {
      await store.close();
    }
  }, 120_000);
});
