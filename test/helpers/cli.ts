import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURES = join(ROOT, "test", "fixtures");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the `bitext` CLI from source (so tests exercise the current code, not a stale build),
 * the way a user runs it: a separate process with its own exit status, stdout and stderr.
 */
export function runCli(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "src", "cli", "main.ts"), ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The read-only shared material, beside the project (`../shared`), wherever the clone is. */
export const SHARED = join(ROOT, "..", "shared");
