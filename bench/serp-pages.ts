/**
 * The real result pages the wrapper benchmark and the record-equivalence check run on: every page of
 * ../shared/data/serps/{aql,aql-more,modern,sites}, minus the pages listed (one `set/engine/file.html` a line)
 * in the file named by BENCH_EXCLUDE — the held-out pages stay out of a development loop.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const SERPS = join(import.meta.dirname, "..", "..", "shared", "data", "serps");
export const SERP_SETS = ["aql", "aql-more", "modern", "sites"] as const;

export interface SerpPage {
  /** `set/engine/file.html`, relative to SERPS. */
  id: string;
  set: string;
  engine: string;
  path: string;
}

export function serpPages(exclude = process.env.BENCH_EXCLUDE): SerpPage[] {
  const skip = new Set<string>();
  if (exclude) for (const line of readFileSync(exclude, "utf8").split("\n")) if (line.trim()) skip.add(line.trim());
  const out: SerpPage[] = [];
  for (const set of SERP_SETS) {
    const root = join(SERPS, set);
    if (!existsSync(root)) continue;
    for (const engine of readdirSync(root)) {
      const dir = join(root, engine);
      if (!statSync(dir).isDirectory()) continue;
      for (const f of readdirSync(dir)) {
        const id = `${set}/${engine}/${f}`;
        if (f.endsWith(".html") && !skip.has(id)) out.push({ id, set, engine, path: join(dir, f) });
      }
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
