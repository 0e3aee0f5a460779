import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readQueryFile } from "../../src/serp/index.js";
import { resourcePath } from "../../src/paths.js";
import { DEMO_FAULTS, DEMO_STEPS, defaultDemoOptions, runDemo } from "../../src/sim/index.js";
import { parseFaults } from "../../src/sim/index.js";
import { countRecords, openStore } from "../../src/store/index.js";

describe("bitext demo", () => {
  it("starts the simulator, learns a wrapper per engine, harvests through the injected faults and reports", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-demo-"));
    const queries = join(dir, "q.tsv");
    writeFileSync(
      queries,
      readQueryFile(resourcePath("queries", "demo.tsv"))
        .slice(0, 3)
        .map((q) => `${q.source.text}\t${q.target.text}`)
        .join("\n"),
    );
    const lines: string[] = [];
    const steps: string[] = [];
    const fetchProgress = { total: -1, done: 0 };
    const report = await runDemo(
      { ...defaultDemoOptions(), dir: join(dir, "demo"), queries, faults: parseFaults(DEMO_FAULTS), pages: 1 },
      {
        say: (l) => lines.push(l),
        step: (i, n, s) => steps.push(`${i}/${n} ${s.id}`),
        onPagesTotal: (n) => {
          fetchProgress.total = n;
        },
        onPageDone: () => fetchProgress.done++,
      },
    );
    expect(steps).toEqual(DEMO_STEPS.map((s, i) => `${i + 1}/${DEMO_STEPS.length} ${s.id}`));
    expect(lines[0]).toMatch(/^Local engine simulator on http:\/\/127\.0\.0\.1:\d+: sim-list, sim-div, sim-table · \d+ pages/);
    const wrappers = report.results.wrappers as Array<{ engine: string; records: number }>;
    expect(wrappers.map((w) => w.engine)).toEqual(["sim-list", "sim-div", "sim-table"]);
    for (const w of wrappers) {
      expect(w.records).toBeGreaterThan(0);
      expect(existsSync(join(dir, "demo", "wrappers", `${w.engine}.sample.html`))).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, "demo", "wrappers", `${w.engine}.json`), "utf8")).wrapper).not.toBeNull();
    }
    const h = report.results.harvest as { blocked: number; errors: number; newRecords: number; ok: number; left: number };
    expect(h).toMatchObject({ ok: 9, left: 0 });
    expect(h.blocked).toBe(1); // sim-div's 429
    expect(h.errors).toBe(1); // sim-list's reset
    const store = await openStore(report.db);
    expect(await countRecords(store)).toBe(h.newRecords);
    await store.close();
    expect(lines.some((l) => /12 result pages fetched|result pages fetched/.test(l))).toBe(true);

    // …and ends with a corpus file of sentence pairs from the linked bilingual pages, cited by their real URLs.
    const pages = report.results.pages as { urls: number; fetched: number; failed: number; pairs: number };
    expect(pages.urls).toBeGreaterThan(0);
    expect(fetchProgress).toEqual({ total: pages.urls, done: pages.urls }); // the fetch step's progress has its total
    expect(pages.failed).toBe(0);
    expect(pages.pairs).toBeGreaterThan(0);
    const corpus = report.results.corpus as { pairs: number; file: string };
    expect(corpus.file).toBe(join(dir, "demo", "corpus.tsv"));
    const rows = readFileSync(corpus.file, "utf8").trim().split("\n");
    expect(rows[0]).toBe("source_url\ten\tzh\tscore\tmethod");
    expect(rows).toHaveLength(corpus.pairs + 1);
    for (const row of rows.slice(1)) {
      const [source, en, zh] = row.split("\t");
      expect(source).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\//); // the page itself, not the engine's redirect link
      expect(en).toMatch(/[A-Za-z]/);
      expect(zh).toMatch(/\p{sc=Han}/u);
      // No navigation label, site name or page title of the simulator's pages (src/sim/collection.ts) is kept.
      expect(`${en}\t${zh}`).not.toMatch(
        /^(?:Home|Archive|About)\t|\t(?:首页|列表|关于我们)$|Example sentences \(|Dialogue \d|Bilingual sentences \d|Daily English|Story Corner/,
      );
    }
    // Every pair was scored: the rejected ones are counted by reason and written with their reasons.
    const scored = report.results.corpus as { rejected: number; rejectedByReason: Record<string, number> };
    expect(Object.values(scored.rejectedByReason).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(scored.rejected);
    const rejected = readFileSync(join(dir, "demo", "corpus.rejected.jsonl"), "utf8")
      .trim()
      .split("\n")
      .filter(Boolean);
    expect(rejected).toHaveLength(scored.rejected);
    for (const r of rejected) expect((JSON.parse(r) as { reasons: string[] }).reasons.length).toBeGreaterThan(0);
    expect(lines.some((l) => /rejected by the pair scorer/.test(l))).toBe(true);
    // The run report is written last and names the store where the demo left it, not the folder it was built in.
    const html = readFileSync(join(dir, "demo", "report.html"), "utf8");
    expect(html).toContain(join(dir, "demo", "bitext.db"));
    expect(html).not.toMatch(/\.demo\.new-/);
  });
});
