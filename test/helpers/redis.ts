import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway `redis-server` on 127.0.0.1 and a free port, for the queue tests. Without persistence by
 * default; `persistent` keeps an append-only file (fsync on every write) in a temporary folder, so a
 * restart finds the queue as it was.
 */

export const REDIS_SERVER = "/usr/bin/redis-server";

/** Why the queue tests cannot run here (null: they can). */
export function redisUnavailable(): string | null {
  if (!existsSync(REDIS_SERVER)) return `${REDIS_SERVER} is not installed (apt-get install redis-server)`;
  try {
    const require = createRequire(import.meta.url);
    const bullmq = require.resolve("bullmq");
    createRequire(bullmq).resolve("ioredis");
  } catch (err) {
    return `bullmq with ioredis cannot be loaded (npm install bullmq ioredis): ${(err as Error).message.split("\n")[0]}`;
  }
  return null;
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stop and start again on the same port (and, if persistent, the same data). */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "bitext-redis-"));
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    ...(options.persistent ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]),
  ];
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(REDIS_SERVER, args, { stdio: "ignore" });
    await untilPong(port);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart(downMs = 500) {
      await stop();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    async stop() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Until the server answers PING (10 s at most). */
async function untilPong(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.setTimeout(500);
      s.once("error", () => resolve(false));
      s.once("timeout", () => {
        s.destroy();
        resolve(false);
      });
      s.connect(port, "127.0.0.1", () => s.write("PING\r\n"));
      s.once("data", (d) => {
        s.destroy();
        resolve(String(d).startsWith("+PONG"));
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
