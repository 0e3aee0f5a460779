import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { BITEXT_ARGS, ROOT } from "../helpers/cli.js";
import { hasXvfb, XVFB_RUN, xvfbDisplayArgs } from "../helpers/xvfb.js";
import { type LocalServer, startServer } from "../net/local-server.js";

/**
 * `harvest --headed` shows the browser window. Under Xvfb (a virtual display) the page itself tells: a
 * window with its frame and toolbar is taller outside than inside, a headless one has no such frame. The result
 * page reports `outerHeight - innerHeight` to the test's server from a script.
 */

if (!hasXvfb) console.warn(`harvest --headed test skipped: ${XVFB_RUN} is not installed (apt-get install xvfb)`);

let server: LocalServer;
let dir: string;
const frames: number[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "bitext-headed-"));
  server = await startServer({}, (req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (u.pathname === "/probe") frames.push(Number(u.searchParams.get("frame")));
    if (u.pathname === "/probe.js") {
      // Late, so the window has its size (under load a headed window may not have it yet when the page starts);
      // a blocking script still runs before DOMContentLoaded, which the harvest waits for.
      setTimeout(() => {
        res.writeHead(200, { "content-type": "text/javascript" });
        res.end(`new Image().src = "/probe?frame=" + (outerHeight - innerHeight);`);
      }, 500);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!DOCTYPE html><title>results</title><body><script src="/probe.js"></script>` +
        `<ol>${Array.from({ length: 10 }, (_, i) => `<li><a href="https://site${i}.example/">${u.searchParams.get("q")} ${i}</a><p>snippet ${i}</p></li>`).join("")}</ol>`,
    );
  });
  writeDefinition(wrapperFilePath(dir, "probe"), "probe", {
    searchUrl: `${server.origin}/s?q={query}`,
    politeness: { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 1 },
  });
  writeFileSync(join(dir, "q.tsv"), "I see.\t我明白了。\n");
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `bitext harvest` of the one query from the source, optionally inside xvfb-run (a process: its display is
 * set at start-up); resolves with its exit status.
 */
function harvestRun(headed: boolean, db: string): Promise<{ code: number | null; stderr: string }> {
  const bitext = [process.execPath, ...BITEXT_ARGS];
  const args = [
    "harvest",
    join(dir, "q.tsv"),
    "--engines",
    "probe",
    "--wrappers",
    dir,
    "--db",
    join(dir, db),
    "--no-classify",
    "--no-profile",
    "--retries",
    "0",
    "--json",
  ];
  const [cmd, ...rest] = headed ? [XVFB_RUN, ...xvfbDisplayArgs(150), ...bitext, ...args, "--headed"] : [...bitext, ...args];
  const child = spawn(cmd!, rest, { cwd: ROOT, env: { ...process.env, BITEXT_HOME: dir }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe("harvest --headed", () => {
  it.skipIf(!hasXvfb)(
    "shows a real browser window under Xvfb (the page sees a window frame), where the default is headless",
    async () => {
      let headed = await harvestRun(true, "headed.db");
      // Once (CI, loaded machine, 2026-11-27) the headed page was read with nothing on it ("unrecognised page", exit
      // 5): the harvest leaves such a page for the next run, as it says, and the next run of the same store reads it.
      if (headed.code === 5 && /unrecognised page/.test(headed.stderr)) headed = await harvestRun(true, "headed.db");
      expect([0, 75], headed.stderr).toContain(headed.code);
      expect(frames.length, headed.stderr).toBeGreaterThan(0);
      expect(
        frames.every((f) => f > 0),
        `outerHeight - innerHeight: ${frames.join(", ")}`,
      ).toBe(true);
      frames.length = 0;
      const headless = await harvestRun(false, "headless.db");
      expect([0, 75], headless.stderr).toContain(headless.code);
      expect(frames.length).toBeGreaterThan(0);
      expect(
        frames.every((f) => f <= 0),
        `outerHeight - innerHeight: ${frames.join(", ")}`,
      ).toBe(true);
    },
    120_000,
  );
});
