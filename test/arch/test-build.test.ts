import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BITEXT_ARGS, FRESH_BUILD, freshBuild, ROOT } from "../helpers/cli.js";

/**
 * The processes the tests start run the global setup's build (test/helpers/build-cli.ts) only while it is at least as
 * new as every source: a source edited after it (vitest in watch mode) sends them back to the sources through tsx.
 */
describe("the test run's build of src/", () => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-test-build-"));
  const sources = join(dir, "src");
  const built = join(dir, "out");
  const stamp = join(dir, "stamp");
  mkdirSync(join(sources, "cli"), { recursive: true });
  mkdirSync(join(built, "cli"), { recursive: true });
  writeFileSync(join(sources, "cli", "main.ts"), "");
  writeFileSync(join(built, "cli", "main.js"), "");
  const at = (file: string, ms: number) => utimesSync(file, ms / 1000, ms / 1000);

  it("is used while no source is newer than its stamp", () => {
    at(join(sources, "cli", "main.ts"), 1_000_000);
    writeFileSync(stamp, "2000000");
    expect(freshBuild(built, stamp, sources)).toBe(built);
  });

  it("is not used once a source is newer, nor without its stamp or its entry point", () => {
    writeFileSync(stamp, "2000000");
    at(join(sources, "cli", "main.ts"), 3_000_000);
    expect(freshBuild(built, stamp, sources)).toBeUndefined();
    expect(freshBuild(built, join(dir, "no-stamp"), sources)).toBeUndefined();
    expect(freshBuild(join(dir, "nothing"), stamp, sources)).toBeUndefined();
  });

  it("is what this run's processes start when it is fresh, else the sources", () => {
    // Fresh after the global setup; stale only once a source changed during the run (watch mode).
    if (FRESH_BUILD) {
      expect(FRESH_BUILD).toBe(join(ROOT, "node_modules", ".cache", "bitext-test-build", "out", "src"));
      expect(BITEXT_ARGS).toEqual([join(FRESH_BUILD, "cli", "main.js")]);
    } else {
      expect(BITEXT_ARGS.slice(-1)).toEqual([join(ROOT, "src", "cli", "main.ts")]);
    }
  });
});
