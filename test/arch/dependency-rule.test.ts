import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/*
 * The project's dependency rule (.dependency-cruiser.cjs, run by `npm run lint`) on a small tree of
 * its own layers: a tree that keeps the rule passes, and each kind of violation is caught by its rule.
 */

const work = mkdtempSync(join(tmpdir(), "bitext-deps-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The files of a fixture tree under src/ (layer folders named as in the project). */
const GOOD: Record<string, string> = {
  "src/errors.ts": "export const E = 1;\n",
  "src/html/parse.ts": 'import { E } from "../errors.js";\nexport const parse = () => E;\n',
  "src/html/index.ts": 'export * from "./parse.js";\n',
  "src/wrapper/learn.ts": 'import { parse } from "../html/index.js";\nexport const learn = () => parse();\n',
  "src/wrapper/index.ts": 'export * from "./learn.js";\n',
  "src/serp/harvest.ts": 'import { learn } from "../wrapper/index.js";\nexport const harvest = () => learn();\n',
  "src/serp/index.ts": 'export * from "./harvest.js";\n',
};

function cruise(name: string, files: Record<string, string>): { ok: boolean; output: string } {
  const dir = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  copyFileSync(join(ROOT, ".dependency-cruiser.cjs"), join(dir, ".dependency-cruiser.cjs"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }));
  const bin = join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
  try {
    const output = execFileSync(process.execPath, [bin, "src", "--config", ".dependency-cruiser.cjs", "--output-type", "err"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { ok: true, output };
  } catch (err) {
    const e = err as { stdout: string; stderr: string };
    return { ok: false, output: e.stdout + e.stderr };
  }
}

describe("the dependency rule", () => {
  it("passes a tree whose layers import downward, each through its index.ts", () => {
    const r = cruise("good", GOOD);
    expect(r.output).toMatch(/no dependency violations found \(7 modules/);
    expect(r.ok).toBe(true);
  });

  it("catches a lower layer importing a higher one", () => {
    const r = cruise("upward", {
      ...GOOD,
      "src/html/parse.ts": 'import { learn } from "../wrapper/index.js";\nexport const parse = () => learn;\n',
    });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("layer-order:html: src/html/parse.ts → src/wrapper/index.ts");
  });

  it("catches a module reaching into another layer's internals", () => {
    const r = cruise("internals", {
      ...GOOD,
      "src/serp/harvest.ts": 'import { learn } from "../wrapper/learn.js";\nexport const harvest = () => learn();\n',
    });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("through-index: src/serp/harvest.ts → src/wrapper/learn.ts");
  });

  it("catches a cycle inside a layer", () => {
    const r = cruise("cycle", {
      ...GOOD,
      "src/wrapper/learn.ts": 'import { b } from "./apply.js";\nexport const learn = () => b;\n',
      "src/wrapper/apply.ts": 'import { learn } from "./learn.js";\nexport const b = () => learn;\n',
    });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/no-circular: src\/wrapper\/(learn|apply)\.ts → /);
  });
});
