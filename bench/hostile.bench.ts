/**
 * Hostile pages (issue 16): each command, as a user runs it (a separate `bitext` process from the sources),
 * on generated pages built to hurt — 100,000 elements deep (closed and unclosed), a million tiny elements,
 * 50 MB of text, 5 MB of random bytes served as HTML — and, as the reference measured in the same run,
 * a real 1.1 MB result page from ../shared. Reported: wall time, peak RSS (GNU time), exit status and the
 * first line of output; a run passes when it ends within 10 s and 1 GB with a result or a counted skip
 * (never exit 70 "internal error", 134 out of memory, or the 60 s kill).
 *
 *   records --learn  the page as a saved result page
 *   extract          the page as a bilingual page (sentence pairs)
 *   classify         one result record whose snippet is the page's text (a record no engine would send, but bytes are bytes)
 *   site load        a mirror folder holding the page as its only page
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const HERE = import.meta.dirname;
const MAIN = join(HERE, "..", "src", "cli", "main.ts");
const REAL = join(HERE, "..", "..", "shared", "data", "serps", "modern", "google", "kokoc-google-2024-05-06.html");
const KILL_AFTER_MS = 60_000;
const LIMIT_S = 10;
const LIMIT_MB = 1024;

interface Outcome {
  seconds: number;
  peakMb: number;
  code: number | null;
  line: string;
}

function pages(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const write = (name: string, content: string | Uint8Array) => {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, content);
    out.push([name, file]);
  };
  const real = join(dir, "real-google.html");
  copyFileSync(REAL, real);
  out.push(["real 1.1 MB page (reference)", real]);
  write("100k deep, closed", `<html><body>${"<div>".repeat(100_000)}deep text${"</div>".repeat(100_000)}</body></html>`);
  write("100k deep, unclosed", `<html><body>${"<div>".repeat(100_000)}deep text`);
  write("1M tiny elements", `<html><body>${"<i>a</i>".repeat(1_000_000)}</body></html>`);
  const sentence = "The committee met on Tuesday. 委员会星期二开会。 ";
  write(
    "50 MB of text",
    `<html><body><p>${sentence.repeat(Math.ceil((50 * 1024 * 1024) / Buffer.byteLength(sentence)))}</p></body></html>`,
  );
  write("5 MB binary as HTML", randomBytes(5 * 1024 * 1024));
  return out;
}

function measure(args: string[], input?: string): Outcome {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M", process.execPath, "--import", "tsx", MAIN, ...args], {
    input,
    encoding: "utf8",
    timeout: KILL_AFTER_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  const lines = (r.stderr ?? "").trim().split("\n");
  const timing = /^(\d+(?:\.\d+)?) (\d+)$/.exec(lines.at(-1) ?? "");
  const said =
    [...lines.slice(0, -1).filter((l) => l.trim() && !l.includes("npm warn")), ...(r.stdout ?? "").trim().split("\n")].find((l) =>
      l.trim(),
    ) ?? "";
  return {
    seconds: timing ? Number(timing[1]) : KILL_AFTER_MS / 1000,
    peakMb: timing ? Math.round(Number(timing[2]) / 1024) : Number.NaN,
    code: r.signal ? null : r.status,
    line: said.length > 110 ? `${said.slice(0, 107)}…` : said,
  };
}

function classifyInput(file: string): string {
  // The page's bytes as text, as a harvested record's snippet would carry them.
  const text = new TextDecoder().decode(readFileSync(file));
  return `${JSON.stringify({ query: { en: "committee", zh: "委员会" }, title: "Committee 委员会", url: "http://hostile.example/", snippet: text })}\n`;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bitext-hostile-"));
  try {
    const rows: string[] = [];
    let passed = 0;
    let total = 0;
    for (const [name, file] of pages(dir)) {
      const site = join(dir, `site-${total}`);
      mkdirSync(site);
      copyFileSync(file, join(site, "index.html"));
      const runs: Array<[string, () => Outcome]> = [
        ["records --learn", () => measure(["records", file, "--learn", "--json"])],
        ["extract", () => measure(["extract", file, "--json"])],
        ["classify", () => measure(["classify", "--json"], classifyInput(file))],
        ["site load", () => measure(["site", "load", site, "--json"])],
      ];
      for (const [command, go] of runs) {
        const o = go();
        const ok = o.code !== null && o.code !== 70 && o.code !== 134 && o.seconds <= LIMIT_S && o.peakMb <= LIMIT_MB;
        total++;
        if (ok) passed++;
        rows.push(
          `| ${name} | ${command} | ${o.seconds.toFixed(1)} | ${o.peakMb} | ${o.code ?? "killed"} | ${ok ? "yes" : "**no**"} | ${o.line.replace(/\|/g, "\\|")} |`,
        );
        console.error(`${name} / ${command}: ${o.seconds.toFixed(1)} s, ${o.peakMb} MB, exit ${o.code ?? "killed"}`);
      }
    }
    console.log(`Hostile pages: each command in its own process (node + tsx start-up included); limit ${LIMIT_S} s and ${LIMIT_MB} MB\n`);
    console.log("| page | command | s | peak RSS MB | exit | within limits | first line of output |");
    console.log("|---|---|---|---|---|---|---|");
    for (const r of rows) console.log(r);
    console.log(`\n${passed} of ${total} runs within the limits`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
