import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exited, spawnCli } from "../helpers/cli.js";

/**
 * A worker whose Redis is not there: named within 10 s, not waited on forever; and a worker waiting for a Redis
 * that accepts connections but never answers stops at the first Ctrl-C. Real processes, servers on 127.0.0.1.
 */

const dir = mkdtempSync(join(tmpdir(), "bitext-worker-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A TCP server on a free port that accepts connections and never answers (a Redis that hangs). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: a server's, closed. */
async function deadPort(): Promise<number> {
  const s = await silentServer();
  await s.close();
  return s.port;
}

const workerArgs = (port: number) => [
  "worker",
  "--queue",
  `redis://127.0.0.1:${port}`,
  "--engines",
  "bing",
  "--db",
  join(dir, `w${port}.db`),
  "--no-classify",
];

describe("starting a worker", () => {
  it("names a Redis it cannot reach within 10 s, in one line, with a non-zero exit", async () => {
    const port = await deadPort();
    const child = spawnCli(workerArgs(port));
    const done = exited(child);
    // Timed from when it starts waiting for Redis: the process's start-up (tsx on a busy machine: up to 20 s under the
    // full suite on two cores) is not what is asserted.
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    while (!/connecting to redis:/.test(out) && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const e = await done;
    const seconds = (Date.now() - started) / 1000;
    expect(e.code).not.toBe(0);
    expect(e.stderr).toMatch(new RegExp(`^bitext: redis://127\\.0\\.0\\.1:${port}: cannot reach Redis \\(.*ECONNREFUSED.*\\)$`, "m"));
    expect(
      e.stderr
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("bitext:")),
    ).toHaveLength(1);
    expect(out).toMatch(/connecting to redis:/);
    expect(seconds).toBeLessThan(20); // 10 s of waiting, then the message and the exit on a busy machine
  }, 60_000);

  it("stops at the first Ctrl-C while Redis does not answer", async () => {
    const redis = await silentServer();
    try {
      const child = spawnCli(workerArgs(redis.port));
      const done = exited(child);
      let out = "";
      child.stdout!.on("data", (d) => (out += d));
      // Once it says it is connecting, it is waiting for Redis (it says what it serves only once Redis answers).
      while (!/connecting to redis:/.test(out)) await new Promise((r) => setTimeout(r, 50));
      expect(out).not.toMatch(/serving/);
      child.kill("SIGINT");
      const e = await done;
      expect(e.code).toBe(130);
      expect(e.stderr).toMatch(/stopped before redis:\/\/127\.0\.0\.1:\d+ answered/);
    } finally {
      await redis.close();
    }
  }, 60_000);
});
