import { readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "extract");
/** The Tatoeba development pairs (a copy of ../shared/data/parallel, see test/fixtures/README.md). */
export const TATOEBA = join(import.meta.dirname, "..", "fixtures", "real", "parallel", "tatoeba-cmn-eng.dev.tsv");

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}
