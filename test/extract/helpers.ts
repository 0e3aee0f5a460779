import { readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "extract");
export const TATOEBA = join(import.meta.dirname, "..", "..", "..", "shared", "data", "parallel", "tatoeba-cmn-eng.dev.tsv");

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}
