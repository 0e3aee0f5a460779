import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURES = join(ROOT, "test", "fixtures");

/**
 * Where the global setup (test/helpers/build-cli.ts) compiles the project for the test run. Inside node_modules/.cache, as
 * other tools' caches: the package root found from there is still the checkout's (`resourcePath`), and the
 * installation's fingerprint (`hashTree`) does not read it.
 */
export const TEST_BUILD = join(ROOT, "node_modules", ".cache", "bitext-test-build");
export const BUILD_STAMP = join(TEST_BUILD, "stamp");

/** tsx by absolute URL: `--import tsx` would be looked up from the working directory, outside the checkout. */
const TSX = pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("tsx")).href;

/** The newest modification time (ms) of the files under a folder. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

/**
 * A build of a source folder (`built`, holding `cli/main.js`) when it is there and its stamp (the time, in ms, at which
 * the build read the sources) is no older than any file under `sources`; undefined otherwise.
 */
export function freshBuild(built: string, stamp: string, sources: string): string | undefined {
  const fresh =
    existsSync(join(built, "cli", "main.js")) && existsSync(stamp) && Number(readFileSync(stamp, "utf8")) >= newestUnder(sources);
  return fresh ? built : undefined;
}

/** The test run's build of src/ (JavaScript, declarations, source maps) when it is fresh (read once per test file). */
export const FRESH_BUILD: string | undefined = freshBuild(join(TEST_BUILD, "out", "src"), BUILD_STAMP, join(ROOT, "src"));

/**
 * The arguments of `node` that start `bitext`: the test run's build, else the sources through tsx — so a process
 * always runs the current code.
 */
export const BITEXT_ARGS: readonly string[] = FRESH_BUILD
  ? [join(FRESH_BUILD, "cli", "main.js")]
  : ["--import", TSX, join(ROOT, "src", "cli", "main.ts")];

/** `bitext` as a shell command (for a shim on the PATH or a pipeline). */
export const BITEXT_SHELL: string = [process.execPath, ...BITEXT_ARGS].map((a) => JSON.stringify(a)).join(" ");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the `bitext` CLI (the current code: `BITEXT_ARGS`), the way a user runs it: a separate process with its own exit status, stdout and stderr (1–2 s a call).
 * Only for what a process shows (start-up, signals, pipes); a command's output is tested with `runCommand`.
 */
export function runCli(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const r = spawnSync(process.execPath, [...BITEXT_ARGS, ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Start `bitext ARGS` as a process of its own, not waited for (`runCli` waits): for what a test
 * interrupts (kill -9, Ctrl-C), serves until stopped, or runs beside other processes. Its output is piped.
 */
export function spawnCli(args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [...BITEXT_ARGS, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

/** A spawned process's end: its exit code or signal and all it wrote. */
export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => (stdout += d));
  child.stderr?.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/**
 * Real pages and files of the development data (`../shared/data`) that tests name, copied with the same layout
 * (provenance: `test/fixtures/README.md`). Tests read them here, never from `../shared`, so a clone with nothing
 * beside it passes; evaluations over the whole development data use `devData` (`test/helpers/dev-data.ts`).
 */
export const REAL_DATA = join(FIXTURES, "real");

/**
 * Run `bitext ARGS` in this process (the command functions, as `main.ts` runs them), with its standard
 * output and error captured and `input` (default: none) as its standard input: the fast way to test a
 * command. `runCli` (a process of its own) stays for the few tests of what only a real process shows
 * (the bin, signals, pipes, a real standard input, several processes at once).
 * Calls run one at a time (the streams and the working folder are the process's), even when a test
 * starts several at once.
 */
export function runCommand(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  const turn = queue.then(() => runAlone(args, options));
  queue = turn.catch(() => undefined);
  return turn;
}

let queue: Promise<unknown> = Promise.resolve();

async function runAlone(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<CliResult> {
  const { runBitext } = await import("../../src/cli/program.js");
  const out: string[] = [];
  const err: string[] = [];
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const capture = (sink: string[]) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      sink.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  const cwd = process.cwd();
  const savedEnv = { ...process.env };
  // As a process spawned without input: an empty standard input, never the test runner's own.
  const stdin = Object.getOwnPropertyDescriptor(process, "stdin")!;
  const input = Readable.from([Buffer.from(options.input ?? "")]);
  Object.defineProperty(process, "stdin", { configurable: true, enumerable: true, get: () => input });
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  try {
    if (options.cwd) process.chdir(options.cwd);
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const code = await runBitext(args);
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    Object.defineProperty(process, "stdin", stdin);
    process.chdir(cwd);
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    Object.assign(process.env, savedEnv);
  }
}
