import { readFileSync } from "node:fs";
import { parseParallelTsv } from "../../src/text/index.js";

/** The pairs of a fixture file (`path` under test/fixtures/, whose README gives each file's source), A<TAB>B a line. */
export function fixturePairs(path: string): Array<{ a: string; b: string }> {
  const url = new URL(`../fixtures/${path}`, import.meta.url);
  return parseParallelTsv(path, readFileSync(url, "utf8")).map(({ a, b }) => ({ a, b }));
}
