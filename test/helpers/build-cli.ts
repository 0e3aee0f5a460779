/**
 * Vitest's global setup: the type-check of the whole project (src, test, bench), which also compiles it, once per
 * test run, into `TEST_BUILD` (TypeScript's incremental build: about 14 s the first time, 4 s when nothing changed).
 * A type error stops the run before any test. The tests start `bitext` as a process of its own from that build:
 * started from the sources through tsx, each of the suite's hundred-odd processes spent about 0.6 s of CPU compiling
 * them again (`bitext queue --help`: 1.9 s against 1.2 s). `BITEXT_ARGS` (test/helpers/cli.ts) falls back to the
 * sources when a source is newer than the build (vitest in watch mode).
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_STAMP, ROOT, TEST_BUILD } from "./cli.js";

export default function setup(): void {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const started = Date.now();
  // With the declarations and source maps the package's build (tsconfig.build.json) makes: the packed-library test
  // packs this build of src/ (the same JavaScript and declarations, byte for byte) instead of compiling it again.
  const args = [
    "-p",
    join(ROOT, "tsconfig.json"),
    "--noEmit",
    "false",
    "--outDir",
    join(TEST_BUILD, "out"),
    "--declaration",
    "--sourceMap",
  ];
  try {
    execFileSync(process.execPath, [tsc, ...args, "--incremental", "--tsBuildInfoFile", join(TEST_BUILD, "tsbuildinfo")], {
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
    });
  } catch (e) {
    const out = e as { stdout?: string; stderr?: string };
    throw new Error(`type-check (tsc) failed:\n${out.stdout ?? ""}${out.stderr ?? ""}`);
  }
  // The stamp says when the sources were read: a source changed later is newer than it.
  writeFileSync(BUILD_STAMP, String(started));
}
