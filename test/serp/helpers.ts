import Database from "better-sqlite3";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EngineSetup, loadEngine, wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { resourcePath } from "../../src/paths.js";
import { readQueryFile } from "../../src/serp/index.js";
import { type FaultRule, type Simulator, startSimulator } from "../../src/sim/index.js";
import { openStore, type Store } from "../../src/store/index.js";

export const DEMO = readQueryFile(resourcePath("queries", "demo.tsv"));

/** A query list of the first `n` demo queries (English<TAB>Chinese a line), written to `file`. */
export function writeDemoQueries(file: string, n: number): void {
  writeFileSync(
    file,
    DEMO.slice(0, n)
      .map((q) => `${q.source.text}\t${q.target.text}`)
      .join("\n"),
  );
}

export interface Bench {
  sim: Simulator;
  dir: string;
  store: Store;
  engines(...names: string[]): EngineSetup[];
  /** Result records the simulator served, per engine: distinct (query, page) answers with their result counts. */
  served(engine: string): number;
  close(): Promise<void>;
}

/** A simulator with faults, its engines' wrapper files in a temp folder, and an empty store. */
export async function bench(faults: FaultRule[] = [], options: { latencyMs?: number } = {}): Promise<Bench> {
  const sim = await startSimulator({ faults, ...options });
  const dir = mkdtempSync(join(tmpdir(), "bitext-harvest-"));
  for (const e of sim.engines) writeDefinition(wrapperFilePath(dir, e.spec.name), e.spec.name, e.definition);
  const store = await openStore(join(dir, "bitext.db"));
  return {
    sim,
    dir,
    store,
    engines: (...names) => names.map((n) => loadEngine(dir, n)),
    served(engine) {
      const seen = new Map<string, number>();
      for (const l of sim.log) if (l.engine === engine && l.layout !== null) seen.set(`${l.query}\u0000${l.page}`, l.results);
      return [...seen.values()].reduce((a, b) => a + b, 0);
    },
    async close() {
      await store.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fast pacing for tests: no politeness delay, short back-off and breaker pauses. */
export const FAST = {
  backoff: { baseMs: 50, maxMs: 200 },
  breaker: { threshold: 3, cooldownMs: 300, maxTrips: 2 },
} as const;

/** Resolves once the SQLite store at `db` holds at least `n` fetches (polled through a read-only connection of its own). */
export async function untilFetches(db: string, n: number): Promise<number> {
  for (;;) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      const conn = new Database(db, { readonly: true, fileMustExist: true });
      try {
        const got = (conn.prepare("SELECT count(*) AS n FROM fetches").get() as { n: number }).n;
        if (got >= n) return got;
      } finally {
        conn.close();
      }
    } catch {
      // not created yet
    }
  }
}
