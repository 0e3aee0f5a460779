/**
 * `bitext pipeline` (issue 28): the demo's steps on the user's engines, here the local simulator's list engine
 * given as a wrapper file with no wrapper yet (as `bitext sim` writes it). One command takes queries to a
 * store of records, a corpus file whose pairs name the query and engine they came from, and a run report;
 * the demo goes through the same steps (after its own wrapper step).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PIPELINE_STEPS } from "../../src/pipeline/index.js";
import { readQueryFile, wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { DEMO_STEPS, type Simulator, startSimulator } from "../../src/sim/index.js";
import { countRecords, openStore } from "../../src/store/index.js";
import { exited, runCommand, spawnCli } from "../helpers/cli.js";
import { untilFetches, writeDemoQueries } from "../serp/helpers.js";

describe("bitext pipeline", () => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-pipeline-"));
  const wrappers = join(dir, "wrappers");
  const queries = join(dir, "q.tsv");
  let sim: Simulator;

  beforeAll(async () => {
    sim = await startSimulator({ faults: [] });
    const list = sim.engines.find((e) => e.spec.name === "sim-list")!;
    writeDefinition(wrapperFilePath(wrappers, "sim-list"), "sim-list", list.definition);
    writeDemoQueries(queries, 2);
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("harvests, fetches the bilingual candidates' pages, exports a corpus with provenance and writes the report", async () => {
    const db = join(dir, "bitext.db");
    const out = join(dir, "out", "corpus");
    const r = await runCommand(
      [
        "pipeline",
        queries,
        "--engines",
        "sim-list",
        "--wrappers",
        wrappers,
        "--db",
        db,
        "--pages",
        "1",
        "--out",
        out,
        "--format",
        "jsonl",
        "--json",
      ],
      { env: { BITEXT_HOME: dir } },
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      steps: string[];
      completed: string[];
      interrupted: boolean;
      results: Record<string, Record<string, unknown>>;
    };
    // The same steps as the demo's, in the same order: the demo only adds its wrapper step in front.
    expect(report.steps).toEqual(["harvest", "candidates", "pages", "corpus", "report"]);
    expect(report.steps).toEqual(PIPELINE_STEPS.map((s) => s.id));
    expect(DEMO_STEPS.map((s) => s.id)).toEqual(["wrappers", ...report.steps]);
    expect(DEMO_STEPS.slice(1)).toEqual(PIPELINE_STEPS);
    expect(report).toMatchObject({ completed: report.steps, interrupted: false });

    // The harvest learned the engine's wrapper from its first page and stored every record, classified.
    const harvest = report.results["harvest"] as { ok: number; left: number; newRecords: number; model: string | null };
    expect(harvest).toMatchObject({ ok: 2, left: 0 });
    expect(harvest.model).not.toBeNull();
    expect(JSON.parse(readFileSync(join(wrappers, "sim-list.json"), "utf8")).wrapper).not.toBeNull();
    const store = await openStore(db);
    try {
      expect(harvest.newRecords).toBeGreaterThan(0);
      expect(await countRecords(store)).toBe(harvest.newRecords);
      expect(await countRecords(store, { label: "unclassified" })).toBe(0);
    } finally {
      await store.close();
    }

    const pages = report.results["pages"] as { urls: number; failed: number; pairs: number };
    expect(pages.urls).toBeGreaterThan(0);
    expect(pages.failed).toBe(0);
    expect(pages.pairs).toBeGreaterThan(0);

    // The corpus: one JSON line per pair, naming the query and the engine that led to it.
    const corpus = report.results["corpus"] as { file: string; pairs: number; rejected: number };
    expect(corpus.file).toBe(`${out}.jsonl`);
    const lines = readFileSync(corpus.file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(corpus.pairs);
    expect(corpus.pairs).toBeGreaterThan(0);
    const asked = readQueryFile(queries).map((q) => q.source.text);
    for (const line of lines) {
      const pair = JSON.parse(line) as { en: string; zh: string; engine: string; query: { en: string; zh: string }; source_url: string };
      expect(pair.en).toMatch(/[A-Za-z]/);
      expect(pair.zh).toMatch(/\p{sc=Han}/u);
      expect(pair.engine).toBe("sim-list");
      expect(asked).toContain(pair.query.en);
      expect(pair.source_url.startsWith(`${sim.origin}/p/`)).toBe(true);
    }
    expect(readFileSync(`${out}.rejected.jsonl`, "utf8").split("\n").filter(Boolean)).toHaveLength(corpus.rejected);
    expect(report.results["report"]).toMatchObject({ file: `${out}.report.html` });
    expect(readFileSync(`${out}.report.html`, "utf8")).toContain("sim-list");

    // Run again with fewer candidates: the result pages are fresh (skipped), and only one linked page is visited.
    expect(pages.urls).toBeGreaterThan(1);
    const again = await runCommand(
      ["pipeline", queries, "--engines", "sim-list", "--wrappers", wrappers, "--db", db, "--out", out, "--limit", "1", "--json"],
      { env: { BITEXT_HOME: dir } },
    );
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout) as { results: Record<string, Record<string, unknown>> };
    expect(second.results["harvest"]).toMatchObject({ fetched: 0 });
    expect(second.results["pages"]).toMatchObject({ urls: 1, failed: 0 });
  }, 120_000);

  it("stops before any step on a bad corpus format, with the flag named", async () => {
    const r = await runCommand(["pipeline", queries, "--engines", "sim-list", "--wrappers", wrappers, "--format", "xls"], {
      env: { BITEXT_HOME: dir },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format: unknown format "xls" (expected tsv, tmx, moses, jsonl)');
    expect(existsSync(join(dir, "data", "bitext.db"))).toBe(false);
    const probability = await runCommand(
      ["pipeline", queries, "--engines", "sim-list", "--wrappers", wrappers, "--out", join(dir, "x"), "--min-probability", "2"],
      {
        env: { BITEXT_HOME: dir },
      },
    );
    expect(probability.code).toBe(1);
    expect(probability.stderr).toContain('--min-probability: expected a number from 0 to 1, got "2"');
    expect(existsSync(join(dir, "data", "bitext.db"))).toBe(false);
    const none = await runCommand(["pipeline", "--engines", "sim-list"], { env: { BITEXT_HOME: dir } });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("pipeline: give at least one query list (QUERIES.tsv)");
  });

  it("stops at Ctrl-C after the page in flight, starts no later step, and exits 130", async () => {
    // A slow engine, so the harvest is still going when the signal comes.
    const slow = await startSimulator({ faults: [], latencyMs: 1500 });
    const slowWrappers = join(dir, "slow-wrappers");
    const list = slow.engines.find((e) => e.spec.name === "sim-list")!;
    writeDefinition(wrapperFilePath(slowWrappers, "sim-list"), "sim-list", list.definition);
    const db = join(dir, "interrupted.db");
    const out = join(dir, "interrupted");
    try {
      const child = spawnCli(
        [
          "pipeline",
          queries,
          "--engines",
          "sim-list",
          "--wrappers",
          slowWrappers,
          "--db",
          db,
          "--concurrency",
          "1",
          "--out",
          out,
          "--json",
        ],
        { env: { ...process.env, BITEXT_HOME: dir } },
      );
      const end = exited(child);
      await untilFetches(db, 1);
      child.kill("SIGINT");
      const r = await end;
      expect(r.code, r.stderr).toBe(130);
      const report = JSON.parse(r.stdout) as { completed: string[]; interrupted: boolean; results: Record<string, { status?: string }> };
      expect(report).toMatchObject({ completed: [], interrupted: true });
      expect(report.results["harvest"]?.status).toBe("interrupted");
      expect(Object.keys(report.results)).toEqual(["harvest"]);
      expect(existsSync(`${out}.tsv`)).toBe(false);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
