import type { Queue } from "bullmq";

/**
 * What Redis knows of bitext's queues beyond BullMQ: the engines that have a queue (for `bitext
 * queue status` and the workers' defaults), and which job ids already exist (for telling how many
 * jobs an enqueue added).
 */

const ENGINES_KEY = "bitext:engines";

interface ScriptClient {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
  runCommand(name: string, args: unknown[]): Promise<unknown>;
  smembers(key: string): Promise<string[]>;
}

async function client(queue: Queue<unknown>): Promise<ScriptClient> {
  const c = (await queue.backend.client) as unknown as ScriptClient;
  c.defineCommand("bitextAddEngines", { numberOfKeys: 1, lua: "return redis.call('SADD', KEYS[1], unpack(ARGV))" });
  c.defineCommand("bitextCountExisting", {
    numberOfKeys: 0,
    lua: "local n = 0 for _, k in ipairs(ARGV) do n = n + redis.call('EXISTS', k) end return n",
  });
  return c;
}

export async function registerEngines(queue: Queue<unknown>, engines: readonly string[]): Promise<void> {
  if (engines.length > 0) await (await client(queue)).runCommand("bitextAddEngines", [ENGINES_KEY, ...engines]);
}

export async function registeredEngines(queue: Queue<unknown>): Promise<string[]> {
  return (await (await client(queue)).smembers(ENGINES_KEY)).sort();
}

/** How many of these job ids the queue already holds (in any state). */
export async function countExistingJobs(queue: Queue<unknown>, jobIds: readonly string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  return Number(
    await (await client(queue)).runCommand(
      "bitextCountExisting",
      jobIds.map((id) => queue.toKey(id)),
    ),
  );
}
