import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/*
 * Small functions: none in src/ over 120 lines, at most 3 over 80, each of those named here with its
 * reason (the code tour (docs/architecture.md) repeats them). Lengths are measured on the TypeScript syntax tree:
 * every function declaration, method, function expression and arrow function with a block body, from
 * its first line to its last (nested functions count in their parent too, as a reader reads them).
 */

const MAX_LINES = 120;
const LONG_LINES = 80;
const MAX_LONG = 3;

/** Functions allowed over LONG_LINES (file:name → reason). Keep in step with the code tour (docs/architecture.md). */
const ALLOWED_LONG: Record<string, string> = {
  "src/html/tagpaths.ts:collectTagPaths": "serialised into the browser page (Function.toString): it cannot call helpers",
};

/**
 * Functions over the limits today, to be split (file:name → its length now): the list may only shrink.
 * A function on it may not grow, a new function may not join it, and one that got short must leave it.
 * (Issue 14: empty since harvest, loadPage, registerHarvestCommand and sparseAffinityPropagation were split.)
 */
const TO_SPLIT: Record<string, number> = {};

interface FunctionLength {
  where: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) {
    const callee = ts.isPropertyAccessExpression(parent.expression) ? parent.expression.name.getText() : parent.expression.getText();
    return `(${callee.slice(0, 40)} callback)`;
  }
  return "(anonymous)";
}

function functionLengths(file: string): FunctionLength[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    const isFunction =
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      (ts.isArrowFunction(node) && ts.isBlock(node.body));
    if (isFunction && (node as ts.FunctionLikeDeclaration).body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const line = start + 1;
      out.push({ where: `${relative(ROOT, file)}:${line} ${nameOf(node)}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe("function length", () => {
  const all = sourceFiles(join(ROOT, "src")).flatMap(functionLengths);

  it(`measures the functions of src/ (sanity: finds short and long ones)`, () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all.some((f) => f.lines <= 5)).toBe(true);
  });

  const key = (f: FunctionLength) => f.where.replace(/:\d+ /, ":");
  const toSplit = (f: FunctionLength) => key(f) in TO_SPLIT;

  it(`has no function over ${MAX_LINES} lines but those still to split, and none of those grew`, () => {
    const offenders = all.filter((f) => f.lines > MAX_LINES && !toSplit(f)).map((f) => `${f.where} (${f.lines} lines)`);
    expect(offenders).toEqual([]);
    const grown = all
      .filter((f) => toSplit(f) && f.lines > TO_SPLIT[key(f)]!)
      .map((f) => `${f.where}: ${TO_SPLIT[key(f)]} → ${f.lines} lines`);
    expect(grown).toEqual([]);
  });

  it(`has at most ${MAX_LONG} functions over ${LONG_LINES} lines, each with its reason (besides those still to split)`, () => {
    const long = all.filter((f) => f.lines > LONG_LINES && f.lines <= MAX_LINES && !toSplit(f));
    const unexplained = long.filter((f) => !(key(f) in ALLOWED_LONG)).map((f) => `${f.where} (${f.lines} lines)`);
    expect(unexplained).toEqual([]);
    expect(long.length).toBeLessThanOrEqual(MAX_LONG);
  });

  it("lists as still to split only functions that are still long (a split one leaves the list)", () => {
    const long = new Set(all.filter((f) => f.lines > LONG_LINES).map(key));
    expect(Object.keys(TO_SPLIT).filter((k) => !long.has(k))).toEqual([]);
  });
});
