import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands.js";
import { docPages } from "../helpers/docs.js";

/**
 * Docs drift: every `bitext …` example in any shell block of the README and docs/ names a command that exists and
 * only flags that command has (checked against its --help). Examples in `sh doctest` blocks are also run
 * (readme-doctest.test.ts); this catches the rest, which need real engines, a browser or the user's files.
 */

interface Example {
  line: number;
  command: string[];
  flags: string[];
}

function readmeExamples(markdown: string): Example[] {
  const out: Example[] = [];
  let inShell = false;
  let last: Example | undefined;
  markdown.split("\n").forEach((raw, i) => {
    const fence = /^```(.*)$/.exec(raw.trim());
    if (fence) {
      inShell = !inShell && /^sh\b/.test(fence[1]!.trim());
      last = undefined;
      return;
    }
    if (!inShell) return;
    const text = raw.replace(/\s{2,}#.*$/, "");
    const flags = [...text.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
    const m = /^\s*(?:npx\s+)?bitext\s+(.*)$/.exec(text);
    if (m) {
      const command: string[] = [];
      for (const w of m[1]!.split(/\s+/)) {
        if (!/^[a-z][a-z-]*$/.test(w) || command.length === 2) break;
        command.push(w);
      }
      last = { line: i + 1, command, flags };
      out.push(last);
    } else if (last && /^\s+\[/.test(text))
      last.flags.push(...flags); // a continuation line of options
    else last = undefined;
  });
  return out;
}

describe("README and docs examples", () => {
  const examples = docPages().flatMap((d) => readmeExamples(d.text).map((e) => ({ ...e, file: d.file })));
  /** Every command, registered in process as the CLI registers it; the help text of a command path. */
  const program = new Command().name("bitext");
  const helpOf = (words: string[]): string => {
    let cmd: Command | undefined = program;
    for (const w of words) cmd = cmd?.commands.find((c) => c.name() === w);
    return cmd && cmd !== program ? cmd.helpInformation() : "";
  };

  it("use only commands and flags that exist", { timeout: 300_000 }, async () => {
    for (const entry of commands) (await entry.load())(program);
    expect(examples.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const e of examples) {
      // The longest prefix of the words that is a command (`annotate bootstrap`, else `annotate`).
      let words = e.command;
      while (words.length > 1 && !/^Usage: bitext /.test(helpOf(words))) words = words.slice(0, -1);
      const help = helpOf(words);
      if (!help.startsWith(`Usage: bitext ${words.join(" ")}`)) {
        problems.push(`${e.file}:${e.line}: bitext ${words.join(" ")}: no such command`);
        continue;
      }
      for (const f of e.flags) {
        if (f === "--help" || f === "--home") continue;
        if (!new RegExp(`(^|[\\s,])${f}(?![\\w-])`, "m").test(help))
          problems.push(`${e.file}:${e.line}: bitext ${words.join(" ")}: no flag ${f}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
