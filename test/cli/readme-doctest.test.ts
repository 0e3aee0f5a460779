import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { BITEXT_SHELL, ROOT } from "../helpers/cli.js";
import { docPages } from "../helpers/docs.js";

/**
 * The command examples of the README and docs/, run. Every fenced block whose info string is `sh doctest` is a list of
 * shell commands (a `  # comment` after a command is a comment); they run in order (README, then docs/ by path), one shell each
 * with `pipefail`, in one fresh workspace folder with a fresh HOME, with `bitext` on PATH running this
 * checkout's sources. A command that fails, or prints an internal error, fails the test.
 */

interface DoctestCommand {
  line: number;
  command: string;
}

/** The commands of the `sh doctest` blocks of a Markdown text, with their line numbers. */
function doctestCommands(markdown: string): DoctestCommand[] {
  const out: DoctestCommand[] = [];
  let inBlock = false;
  markdown.split("\n").forEach((text, i) => {
    const fence = /^```(.*)$/.exec(text.trim());
    if (fence) {
      inBlock = !inBlock && /^sh\s+doctest\b/.test(fence[1]!.trim());
      return;
    }
    if (!inBlock) return;
    const command = text.replace(/\s{2,}#.*$/, "").trim();
    if (command && !command.startsWith("#")) out.push({ line: i + 1, command });
  });
  return out;
}

describe("README and docs doctest", () => {
  const commands = docPages().flatMap((d) => doctestCommands(d.text).map((c) => ({ ...c, file: d.file })));

  it("finds the marked examples", () => {
    expect(commands.length).toBeGreaterThan(3);
    expect(doctestCommands("```sh\nnot me\n```\n```sh doctest\nbitext where  # paths\n# a comment\n```\n")).toEqual([
      { line: 5, command: "bitext where" },
    ]);
  });

  it("runs every marked command of the README in a fresh workspace", { timeout: 600_000 }, () => {
    const base = mkdtempSync(join(tmpdir(), "bitext-doctest-"));
    const bin = join(base, "bin");
    const home = join(base, "home");
    const work = join(base, "work");
    for (const d of [bin, home, work]) mkdirSync(d, { recursive: true });
    // The README's commands run in a shell, `bitext` on the PATH, as a user types them: real processes.
    const shim = join(bin, "bitext");
    writeFileSync(shim, `#!/bin/sh\nexec ${BITEXT_SHELL} "$@"\n`);
    chmodSync(shim, 0o755);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: `${bin}:${process.env.PATH}` };
    delete env.BITEXT_HOME;
    delete env.XDG_DATA_HOME;
    for (const c of commands) {
      const r = spawnSync("bash", ["-o", "pipefail", "-c", c.command], { cwd: work, env, encoding: "utf8", timeout: 300_000 });
      const where = `${c.file}:${c.line}: ${c.command}`;
      expect(r.status, `${where}\n${r.stderr}`).toBe(0);
      expect(r.stderr, where).not.toMatch(/internal error|unknown option|unknown command/);
    }
  });
});
