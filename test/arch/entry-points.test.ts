import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { misroutedImports, moduleExports, tsFiles } from "./entry-points.js";

/*
 * Tests go through the entry points (a layer's index.ts, the files directly in src/, src/api/*, the CLI), so that
 * moving a file inside a layer breaks no test. A test may import a file inside a layer only for names the
 * layer's index does not offer: a unit test of an internal, which is then the point.
 */
describe("tests import through the entry points", () => {
  it("no test imports from a file inside a layer a name the layer's index offers", () => {
    const misrouted = tsFiles(`${ROOT}/test`).flatMap((f) => misroutedImports(ROOT, f));
    expect(misrouted.map((m) => `${m.file}:${m.line}: ${m.names.join(", ")} from ${m.specifier} (use ${m.entry})`)).toEqual([]);
  });

  it("follows re-exports to the file that declares each name", () => {
    const exports = moduleExports(`${ROOT}/src/wrapper/index.ts`);
    expect(exports.get("learnWrapper")).toBe(`${ROOT}/src/wrapper/learn.ts`);
    expect(exports.get("normaliseTitle")).toBe(`${ROOT}/src/wrapper/evaluate.ts`);
    expect(exports.has("no such name")).toBe(false);
  });

  it("finds an import that bypasses the index, and leaves an internal one alone", () => {
    const sample = [
      'import { learnWrapper } from "../../src/wrapper/learn.js";', // the index offers it
      'import { learnedListReader } from "../../src/wrapper/list-members.js";', // an internal: not offered by the index
      'import { UserError } from "../../src/errors.js";', // an entry point itself
    ].join("\n");
    const found = misroutedImports(ROOT, `${ROOT}/test/arch/sample.test.ts`, sample);
    expect(found.map((m) => [m.specifier, m.names])).toEqual([["../../src/wrapper/learn.js", ["learnWrapper"]]]);
  });
});
