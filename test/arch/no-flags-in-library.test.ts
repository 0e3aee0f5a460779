import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/*
 * The library speaks in its own terms: no string in src/ outside src/cli/ names a command-line flag
 * (`--db`, `--force`, …). It throws typed errors (src/errors.ts) and the CLI adds the flag advice of each
 * kind in one place (src/cli/errors.ts). Strings are read on the TypeScript syntax tree, so comments do
 * not count. A string that is exactly one flag inside an array literal is an argument list for another
 * program (Chromium's `--no-sandbox`), not advice to the user, and is allowed.
 */

/** A flag inside a string: two dashes and a lower-case word, not part of a longer word or dash run. */
const FLAG = /(?:^|[^\w-])(--[a-z][a-z0-9-]*)/;

/** Strings that still name a flag (file → the flags), to be moved to the CLI: the list may only shrink (it is empty). */
const NOT_YET: Record<string, readonly string[]> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(ROOT, "src", "cli") ? [] : sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

interface Named {
  file: string;
  line: number;
  flag: string;
}

function isArgument(node: ts.Node, text: string): boolean {
  return ts.isStringLiteral(node) && ts.isArrayLiteralExpression(node.parent) && /^--[a-z][a-z0-9-]*(=\S*)?$/.test(text);
}

/** The flags the string literals (and template literals' text) of a source name. */
function flagsNamed(file: string, text: string): Named[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Named[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const m = FLAG.exec(node.text);
      if (m && !isArgument(node, node.text)) {
        out.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, flag: m[1]! });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe("library code names no command-line flag", () => {
  const named = sourceFiles(join(ROOT, "src")).flatMap((path) => flagsNamed(relative(ROOT, path), readFileSync(path, "utf8")));

  it("finds flags in strings and template text, not in comments, regular expressions or argument lists", () => {
    const sample = `// pass --db FILE
/** or --force */
const a = "run it again with --force";
const b = \`\${x}: pass --db \${y}\`;
const c = \`\${x} (--max-pages \${n})\`;
const args = ["--no-sandbox", "--disable-gpu"];
const re = /--queue/;
const d = "a -- b, x--y, ---z";`;
    expect(flagsNamed("sample.ts", sample).map((n) => `${n.line} ${n.flag}`)).toEqual(["3 --force", "4 --db", "5 --max-pages"]);
  });

  it("outside src/cli/ (but the ones still to move)", () => {
    const byFile = new Map<string, string[]>();
    for (const n of named) byFile.set(n.file, [...(byFile.get(n.file) ?? []), n.flag]);
    const offenders = named
      .filter((n) => !(n.file in NOT_YET) || (byFile.get(n.file) ?? []).length > NOT_YET[n.file]!.length)
      .map((n) => `${n.file}:${n.line} ${n.flag}`);
    expect(offenders).toEqual([]);
  });

  it("lists as still to move only files that still name those flags (a fixed one leaves the list)", () => {
    const stale = Object.entries(NOT_YET)
      .filter(
        ([file, flags]) =>
          flags.join(" ") !==
          named
            .filter((n) => n.file === file)
            .map((n) => n.flag)
            .join(" "),
      )
      .map(([file]) => file);
    expect(stale).toEqual([]);
  });
});
