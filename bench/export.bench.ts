/**
 * `npm run bench -- export`: does `bitext export records` stream? Peak RSS of the export, in a child process
 * piped into `wc -l`, on stores of 10k, 100k and 1M records (built in a temp dir), against the same rows
 * materialised in memory first (what the export did before it streamed), measured the same way.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildRecordStore } from "../test/helpers/record-store.js";

const ROOT = join(fileURLToPath(import.meta.url), "..", "..");
const TSX = pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("tsx")).href;
const node = (args: string) => `${JSON.stringify(process.execPath)} --import ${JSON.stringify(TSX)} ${args}`;

/** Peak RSS (MB) and wall time (s) of a command whose stdout goes to `wc -l`; also the line count. */
function measure(command: string, cwd: string): { rssMb: number; seconds: number; lines: number } {
  const t = performance.now();
  const r = spawnSync("bash", ["-c", `/usr/bin/time -f 'peak=%M' -o rss.txt ${command} | wc -l; cat rss.txt`], { cwd, encoding: "utf8" });
  const seconds = (performance.now() - t) / 1000;
  const [lines, peak] = r.stdout.trim().split("\n");
  return { rssMb: Number(/peak=(\d+)/.exec(peak ?? "")?.[1]) / 1024, seconds, lines: Number(lines) };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bitext-export-bench-"));
  const materialise = join(dir, "materialise.ts");
  writeFileSync(
    materialise,
    `import { iterateRecords, openStore } from ${JSON.stringify(join(ROOT, "src", "store", "index.ts"))};
const store = await openStore(process.argv[2], { readonly: true });
const lines = [];
for await (const r of iterateRecords(store)) lines.push(JSON.stringify(r));
process.stdout.write(lines.join("\\n") + "\\n");
await store.close();\n`,
  );
  const rows: string[] = [
    "| records | streamed: peak RSS | streamed: time | materialised: peak RSS | lines out |",
    "|---|---|---|---|---|",
  ];
  try {
    let built = 0;
    const db = join(dir, "bitext.db");
    for (const n of [10_000, 100_000, 1_000_000]) {
      rmSync(db, { force: true });
      const t = performance.now();
      await buildRecordStore(db, n);
      built = (performance.now() - t) / 1000;
      const streamed = measure(node(`${JSON.stringify(join(ROOT, "src", "cli", "main.ts"))} export records --db ${db}`), dir);
      const whole = measure(node(`${JSON.stringify(materialise)} ${db}`), dir);
      rows.push(
        `| ${n.toLocaleString("en")} | ${streamed.rssMb.toFixed(0)} MB | ${streamed.seconds.toFixed(1)} s | ${whole.rssMb.toFixed(0)} MB | ${streamed.lines} |`,
      );
      console.log(
        `  ${n} records (store built in ${built.toFixed(1)} s): streamed ${streamed.rssMb.toFixed(0)} MB, materialised ${whole.rssMb.toFixed(0)} MB`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${rows.join("\n")}`);
}
