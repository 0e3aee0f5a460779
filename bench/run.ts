/**
 * `npm run bench [-- NAME…]`: runs every `bench/*.bench.ts` (or the named ones) in turn.
 * Each bench module exports `run(): Promise<void>` and prints its own table of medians and ratios.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(", ")}`);
  process.exit(2);
}
for (const f of files) {
  console.log(`\n## ${f.replace(".bench.ts", "")}\n`);
  const mod = (await import(join(here, f))) as { run: () => Promise<void> };
  await mod.run();
}
