/**
 * The first hour after `bitext demo` (issue 23): the next commands it prints work as printed from any folder;
 * export and runs find the demo's store (--demo, or by themselves while the user has no store); a demo that
 * fails leaves the previous one as it was; on a terminal, no report line lands on a stale progress line;
 * every linked page is accounted for, and the best pages are shown by their own URLs.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { selfCommand } from "../../src/cli/self.js";
import { resourcePath } from "../../src/paths.js";
import { BITEXT_SHELL, ROOT, runCommand } from "../helpers/cli.js";

const home = process.env.BITEXT_HOME!; // this file's own empty home (test/helpers/hermetic-home.ts)
const demo = join(home, "data", "demo");
const work = mkdtempSync(join(tmpdir(), "bitext-demo-next-"));
const queries = join(work, "q.tsv");
writeFileSync(
  queries,
  `${readFileSync(resourcePath("queries", "demo.tsv"), "utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .slice(0, 3)
    .join("\n")}\n`,
);

// `bitext` on the PATH as a user has it (installed or linked): here a shim running this checkout's sources.
const bin = join(work, "bin");
mkdirSync(bin);
writeFileSync(join(bin, "bitext"), `#!/bin/sh\nexec ${BITEXT_SHELL} "$@"\n`);
chmodSync(join(bin, "bitext"), 0o755);
const PATH = `${bin}${delimiter}${process.env.PATH}`;

/** What a terminal shows: stdout and stderr writes in the order they happened. */
interface Write {
  stream: "out" | "err";
  text: string;
}

/** `bitext ARGS` in this process with stderr a terminal, every write of both streams recorded in order. */
async function onTerminal(args: string[]): Promise<{ code: number; writes: Write[] }> {
  const { runBitext } = await import("../../src/cli/program.js");
  const writes: Write[] = [];
  const saved = {
    out: process.stdout.write,
    err: process.stderr.write,
    tty: process.stderr.isTTY,
    argv1: process.argv[1],
    path: process.env.PATH,
  };
  const capture = (stream: Write["stream"]) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      writes.push({ stream, text: typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8") });
      (rest.find((r) => typeof r === "function") as (() => void) | undefined)?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture("out");
  process.stderr.write = capture("err");
  process.stderr.isTTY = true;
  process.argv[1] = join(bin, "bitext"); // this program, as the `bitext` on the PATH
  process.env.PATH = PATH;
  try {
    return { code: await runBitext(args), writes };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    process.stderr.isTTY = saved.tty;
    process.argv[1] = saved.argv1!;
    process.env.PATH = saved.path;
  }
}

const fingerprint = () => {
  const hash = (f: string) =>
    createHash("sha256")
      .update(readFileSync(join(demo, f)))
      .digest("hex");
  return { db: hash("bitext.db"), corpus: hash("corpus.tsv"), wrappers: readdirSync(join(demo, "wrappers")).sort() };
};

let run: { code: number; writes: Write[] };
let stdout: string;
beforeAll(async () => {
  run = await onTerminal(["demo", "--pages", "1", "--queries", queries]);
  stdout = run.writes
    .filter((w) => w.stream === "out")
    .map((w) => w.text)
    .join("");
}, 300_000);

describe("after bitext demo", () => {
  it("ran", () => {
    expect(run.code, run.writes.map((w) => w.text).join("")).toBe(0);
    expect(existsSync(join(demo, "bitext.db"))).toBe(true);
    // Built in a staging folder and swapped in: nothing names the staging folder afterwards.
    for (const name of readdirSync(join(demo, "wrappers")).filter((n) => n.endsWith(".json"))) {
      expect(readFileSync(join(demo, "wrappers", name), "utf8"), name).not.toMatch(/\.demo\.new-/);
    }
    expect(stdout + run.writes.map((w) => w.text).join("")).not.toMatch(/\.demo\.new-/);
  });

  it("no report line is printed onto a progress line: the live line is erased first", () => {
    let barShown = false;
    let bars = 0;
    for (const w of run.writes) {
      if (w.stream === "err" && w.text.startsWith("\r\x1b[2K")) {
        barShown = w.text.length > "\r\x1b[2K".length;
        if (barShown) bars++;
      } else if (w.stream === "out") expect(barShown, `printed onto the progress line: ${w.text}`).toBe(false);
    }
    expect(bars).toBeGreaterThan(0); // the progress line was drawn (stderr is a terminal)
  });

  it("accounts for every linked page, and shows the best pages by their own URLs", () => {
    const m = /(\d+) linked pages of \d+ bilingual records: ([^;]+); \d+ sentence pairs extracted/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const counts = [...m![2]!.matchAll(/(\d+) (fetched|already stored|skipped|failed)/g)].map((c) => Number(c[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(Number(m![1]));
    const best = stdout
      .split(m![0])[1]!
      .split(/\n\[5\/\d+\]/)[0]!
      .trim()
      .split("\n")
      .map((l) => l.trim());
    expect(best.length).toBeGreaterThan(0);
    for (const line of best) expect(line).toMatch(/^\d+ pairs {2}http:\/\/127\.0\.0\.1:\d+\/p\//);
  });

  it("prints next commands that work as printed from another folder, with another home", () => {
    const next = stdout
      .split("\nNext")[1]!
      .split("\n")
      .slice(1)
      .filter(Boolean)
      .map((l) => l.trim());
    expect(next.length).toBeGreaterThanOrEqual(3);
    expect(next.every((c) => c.startsWith("bitext ") && c.includes(join(demo, "bitext.db")))).toBe(true);
    const elsewhere = mkdtempSync(join(tmpdir(), "bitext-elsewhere-"));
    const env = { ...process.env, PATH, HOME: elsewhere, BITEXT_HOME: join(elsewhere, "other-home") };
    for (const command of next) {
      const r = spawnSync("bash", ["-o", "pipefail", "-c", command], { cwd: elsewhere, env, encoding: "utf8", timeout: 60_000 });
      expect(r.status, `${command}\n${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, command).not.toMatch(/internal error/);
    }
    expect(existsSync(join(elsewhere, "corpus.tmx"))).toBe(true);
  });

  it("export and runs find the demo's store: --demo, or by themselves while you have no store", async () => {
    const corpus = await runCommand(["export", "corpus"]);
    expect(corpus.code, corpus.stderr).toBe(0);
    expect(corpus.stdout.split("\n")[0]).toBe("source_url\ten\tzh\tscore\tmethod");
    expect(corpus.stderr).toBe(
      `bitext: no store of yours yet (${join(home, "data", "bitext.db")}): reading the demo's, ${join(demo, "bitext.db")}\n`,
    );
    const records = await runCommand(["export", "records", "--demo", "--limit", "2"]);
    expect(records.code, records.stderr).toBe(0);
    expect(records.stdout.trim().split("\n")).toHaveLength(2);
    const where = await runCommand(["where"]);
    expect(where.stdout).toMatch(
      new RegExp(`demo store +${join(demo, "bitext.db")} \\(export and runs read it while yours is not created\\)`),
    );
    const runs = await runCommand(["runs", "--demo", "--json"]);
    expect(runs.code, runs.stderr).toBe(0);
    expect(JSON.parse(runs.stdout).length).toBeGreaterThan(0);
  });

  it("a demo that fails leaves the previous demo as it was: a bad query list, or no browser", async () => {
    const before = fingerprint();
    writeFileSync(join(work, "empty.tsv"), "# nothing\n");
    const empty = await runCommand(["demo", "--queries", join(work, "empty.tsv")]);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toBe(`bitext: ${join(work, "empty.tsv")}: no queries (only comments or blank lines)\n`);
    expect(fingerprint()).toEqual(before);
    const noBrowser = await runCommand(["demo", "--queries", queries, "--chromium", join(work, "no-such-chromium")]);
    expect(noBrowser.code).not.toBe(0);
    expect(fingerprint()).toEqual(before);
    expect(readdirSync(join(home, "data")).filter((n) => n.startsWith("."))).toEqual([]); // no staging folder left
  });
});

describe("the command the demo prints for bitext", () => {
  it("is bitext when the bitext on the PATH is this program, else this program by its absolute path", () => {
    expect(selfCommand(join(bin, "bitext"), PATH)).toBe("bitext");
    expect(selfCommand("/opt/bitext/dist/cli/main.js", "/usr/bin")).toBe("node /opt/bitext/dist/cli/main.js");
    // From sources (tsx), the built program beside them; a path with a blank is quoted for the shell.
    expect(selfCommand("/my checkout/src/cli/main.ts", "")).toBe("node '/my checkout/dist/cli/main.js'");
  });
});
