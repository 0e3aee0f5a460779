import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readPageTagPaths } from "../../src/html/index.js";
import type { TagPathSequence } from "../../src/html/index.js";
import { FIXTURES } from "./cli.js";

export const AQL = join(FIXTURES, "serps", "aql");
export const NO_RESULTS = join(FIXTURES, "serps", "no_results");

interface ManifestRow {
  engine: string;
  file: string;
  expected: string;
  serp_url: string;
}

export const MANIFEST: ManifestRow[] = JSON.parse(readFileSync(join(AQL, "manifest.json"), "utf8"));

export interface FixturePage {
  engine: string;
  file: string;
  path: string;
  url: string;
  seq: TagPathSequence;
  expectedTitles: string[];
}

const cache = new Map<string, FixturePage>();

/** A fixture result page by the start of its file name, with its expected titles. */
export function fixturePage(prefix: string): FixturePage {
  const row = MANIFEST.find((m) => m.file.startsWith(prefix));
  if (!row) throw new Error(`no fixture page ${prefix}`);
  const hit = cache.get(row.file);
  if (hit) return hit;
  const path = join(AQL, row.engine, row.file);
  const expected = JSON.parse(readFileSync(join(AQL, row.engine, row.expected), "utf8")) as { results: Array<{ title: string }> };
  const page = {
    engine: row.engine,
    file: row.file,
    path,
    url: row.serp_url,
    seq: readPageTagPaths(path).seq,
    expectedTitles: expected.results.map((r) => r.title),
  };
  cache.set(row.file, page);
  return page;
}
