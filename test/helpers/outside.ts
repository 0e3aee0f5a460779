import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { CliResult } from "./cli.js";
import { BITEXT_ARGS, ROOT, runCommand } from "./cli.js";

/**
 * Running `bitext` as a user who installed it: from a folder outside the checkout, with a fresh HOME
 * (so the user data folder is empty) and no BITEXT_HOME.
 */

export interface Outside {
  /** The working directory (outside the checkout). */
  cwd: string;
  /** The fresh HOME. */
  home: string;
  /** The command in this process (runCommand). */
  run(args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<CliResult>;
  /** The command in a process of its own, for what is read at start-up (HOME). */
  spawn(args: string[]): CliResult;
}

export function outsideTheCheckout(): Outside {
  const base = mkdtempSync(join(tmpdir(), "bitext-user-"));
  const home = join(base, "home");
  const cwd = join(base, "work");
  for (const d of [home, cwd]) mkdirSync(d, { recursive: true });
  // HOME is read once, when the process starts (env-paths): in this process the fresh HOME's data folder is
  // given as XDG_DATA_HOME, which is read at each call, so no command writes into the tester's own folder.
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    BITEXT_HOME: undefined,
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CONFIG_HOME: undefined,
  };
  return {
    cwd,
    home,
    run(args, options = {}) {
      return runCommand(args, { cwd: options.cwd ?? cwd, input: options.input, env: { ...env, ...options.env } });
    },
    spawn(args) {
      const fresh: NodeJS.ProcessEnv = { ...process.env, HOME: home };
      for (const k of ["BITEXT_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"]) delete fresh[k];
      const r = spawnSync(process.execPath, [...BITEXT_ARGS, ...args], {
        cwd,
        env: fresh,
        encoding: "utf8",
        timeout: 180_000,
      });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

/** SHA-256 of every file under the given folders of the checkout, by relative path: the installation's fingerprint. */
export function hashTree(folders: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(ROOT, p), createHash("sha256").update(readFileSync(p)).digest("hex"));
    }
  };
  for (const f of folders) walk(join(ROOT, f));
  return out;
}
