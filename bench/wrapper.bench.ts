/**
 * Wrapper learning and record extraction on the real result pages of ../shared/data/serps/{aql,aql-more,modern,sites}
 * (BENCH_EXCLUDE=FILE drops pages, e.g. the held-out ones), each step set against the parse5 parse of the same
 * page in the same process: issue 17 asks learning ≤ 3× parse5 (median over pages) and ≤ 10× on every page,
 * applying ≤ 1.2×. Each step runs BENCH_REPEATS times per page; per step the table gives the median, 90th
 * percentile and worst page of the per-page medians, and the median and maximum of the per-page ratios to parse5.
 * Then hostile pages (issue 16): `bitext records PAGE --learn` on generated pages, wall time and peak RSS
 * (BENCH_SKIP_HOSTILE=1 skips them). BENCH_PAGES_JSON=FILE writes every page's figures per step to FILE.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parse } from "parse5";
import { formatTable } from "../src/cli/output.js";
import { readSavedPage } from "../src/html/load.js";
import { tagPathsFromHtml } from "../src/html/parse.js";
import { extractRecords } from "../src/wrapper/apply.js";
import { learnWrapper } from "../src/wrapper/learn.js";
import type { Wrapper } from "../src/wrapper/types.js";
import { serpPages } from "./serp-pages.js";
import { median, ms, quantile, timeRepeated } from "./stats.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 7);
const ROOT = join(import.meta.dirname, "..");

type Step =
  | "parse5 parse"
  | "tag paths (parse5 + walk)"
  | "learn a wrapper (from tag paths)"
  | "apply it (from tag paths)"
  | "page → records (parse5, walk, apply)";

function tryLearn(seq: ReturnType<typeof tagPathsFromHtml>, engine: string): Wrapper | null {
  try {
    return learnWrapper(seq, { engine });
  } catch {
    return null; // a page without a record list still costs its learning time
  }
}

export async function run(): Promise<void> {
  const pages = serpPages();
  const times = new Map<Step, Array<{ page: string; ms: number; ratio: number }>>();
  let kb = 0;
  for (const page of pages) {
    const html = readSavedPage(page.path).text;
    kb += html.length / 1024;
    const seq = tagPathsFromHtml(html);
    const wrapper = tryLearn(seq, page.engine);
    const reference: [Step, () => unknown] = ["parse5 parse", () => parse(html)];
    // Applying is timed in rounds of its own, after learning: in one round with learning, the garbage learning
    // leaves was collected, and charged, while applying.
    const groups: Array<Array<[Step, () => unknown]>> = [
      [
        reference,
        ["tag paths (parse5 + walk)", () => tagPathsFromHtml(html)],
        ["learn a wrapper (from tag paths)", () => tryLearn(seq, page.engine)],
      ],
    ];
    if (wrapper) {
      groups.push([
        reference,
        ["apply it (from tag paths)", () => extractRecords(wrapper, seq)],
        ["page → records (parse5, walk, apply)", () => extractRecords(wrapper, tagPathsFromHtml(html))],
      ]);
    }
    groups.forEach((steps, g) => {
      for (const [step, t] of timeAgainstFirst(steps)) {
        if (g > 0 && step === reference[0]) continue; // the reference is reported once, from the first group
        const list = times.get(step) ?? [];
        list.push({ page: page.id, ...t });
        times.set(step, list);
      }
    });
  }
  const rows: Array<Array<string | number>> = [
    ["step", "pages", "median CPU ms", "p90 CPU ms", "worst CPU ms (page)", "× parse5, median", "× parse5, max (page)"],
  ];
  for (const [step, xs] of times) {
    const worst = xs.reduce((a, b) => (b.ms > a.ms ? b : a));
    const ratios = xs.map((x) => x.ratio);
    const maxRatio = xs.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    rows.push([
      step,
      xs.length,
      ms(median(xs.map((x) => x.ms))),
      ms(
        quantile(
          xs.map((x) => x.ms),
          0.9,
        ),
      ),
      `${ms(worst.ms)} (${shortName(worst.page)})`,
      median(ratios).toFixed(2),
      `${maxRatio.ratio.toFixed(2)} (${shortName(maxRatio.page)})`,
    ]);
  }
  console.log(
    `${pages.length} real result pages of ${[...new Set(pages.map((p) => p.set))].join(", ")} (${(kb / pages.length).toFixed(0)} KB of text on average), ${REPEATS} runs per page and step\n`,
  );
  console.log(formatTable(rows));
  // BENCH_PAGES_JSON=FILE: every page's figures per step, to find all the pages near a target, not only the worst.
  if (process.env.BENCH_PAGES_JSON) writeFileSync(process.env.BENCH_PAGES_JSON, `${JSON.stringify(Object.fromEntries(times), null, 1)}\n`);
  if (process.env.BENCH_SKIP_HOSTILE !== "1") hostilePages();
}

/**
 * Times each step of one page in rounds — every round runs all steps once, in turn — so that a burst of load
 * on the shared machine hits the reference and the step alike; a round repeats each call enough times to
 * last a few milliseconds (small pages parse in well under one). Per step: the median time of a call, and the
 * median over rounds of its ratio to the first step (the reference) in the same round. Times are CPU times.
 */
function timeAgainstFirst(steps: Array<[Step, () => unknown]>): Map<Step, { ms: number; ratio: number }> {
  for (const [, fn] of steps) timeRepeated(fn, 1); // warm up
  const reference = median(timeRepeated(steps[0]![1], 3)); // wall ms, only to size the rounds
  const calls = Math.max(1, Math.ceil(3 / Math.max(reference, 0.01)));
  const perRound: number[][] = steps.map(() => []);
  for (let r = 0; r < REPEATS; r++) {
    steps.forEach(([, fn], i) => {
      const t = cpuMs();
      for (let c = 0; c < calls; c++) fn();
      perRound[i]!.push((cpuMs() - t) / calls);
    });
  }
  const out = new Map<Step, { ms: number; ratio: number }>();
  steps.forEach(([step], i) => {
    const ratios = perRound[i]!.map((t, r) => t / perRound[0]![r]!);
    out.set(step, { ms: median(perRound[i]!), ratio: median(ratios) });
  });
  return out;
}

/** CPU time of this process (user + system) in ms: unlike the wall clock, it does not count the time the shared machine gives to others. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function shortName(id: string): string {
  return basename(id, ".html").slice(0, 32);
}

/** `bitext records PAGE --learn` in a child process on generated hostile pages: wall time, CPU time, peak RSS, outcome. */
function hostilePages(): void {
  const dir = mkdtempSync(join(tmpdir(), "bitext-bench-hostile-"));
  const depth = 100_000;
  const pages: Array<[string, string]> = [
    ["100k-deep, closed", `<!doctype html><html><body>${"<div>x".repeat(depth)}${"</div>".repeat(depth)}</body></html>`],
    ["100k-deep, unclosed", `<!doctype html><html><body>${"<div>x".repeat(depth)}</body></html>`],
    ["1M tiny elements", `<!doctype html><html><body>${"<b>x</b>".repeat(1_000_000)}</body></html>`],
  ];
  const rows: Array<Array<string | number>> = [["page", "MB", "wall s", "CPU s", "peak RSS MB", "exit", "outcome"]];
  try {
    for (const [name, html] of pages) {
      const file = join(dir, `${name.replace(/\W+/g, "-")}.html`);
      writeFileSync(file, html);
      const t = performance.now();
      const child = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--import",
          join(ROOT, "bench", "peak-rss.ts"),
          join(ROOT, "src", "cli", "main.ts"),
          "records",
          file,
          "--learn",
          "--json",
        ],
        { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      );
      const wall = (performance.now() - t) / 1000;
      const usage = JSON.parse(child.stderr.trim().split("\n").pop() ?? "{}") as { peakRssKb?: number; cpuMs?: number };
      const message = child.stderr.split("\n").find((l) => l.startsWith("bitext"));
      const records =
        child.status === 0 && child.stdout.trim().startsWith("[") ? `${(JSON.parse(child.stdout) as unknown[]).length} records` : "";
      rows.push([
        name,
        (html.length / 1e6).toFixed(1),
        wall.toFixed(1),
        ((usage.cpuMs ?? Number.NaN) / 1000).toFixed(1),
        ((usage.peakRssKb ?? Number.NaN) / 1024).toFixed(0),
        child.status ?? `signal ${child.signal}`,
        (message ?? records).slice(0, 90),
      ]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log("\nHostile pages: `bitext records PAGE --learn` (child process, tsx; peak RSS of the whole process)\n");
  console.log(formatTable(rows));
}
