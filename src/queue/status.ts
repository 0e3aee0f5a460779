import type { JobType } from "bullmq";
import { loadBullmq, type RedisAddress } from "./connection.js";
import { queueName } from "./jobs.js";
import { openQueue } from "./queues.js";
import { registeredEngines } from "./registry.js";

/**
 * `bitext queue status`: the page jobs of every engine queue, waiting (delayed for back-off
 * included), active, done and failed (left for the next run), per engine and per run.
 */

export interface StatusCounts {
  waiting: number;
  active: number;
  done: number;
  failed: number;
}

export interface QueueStatus {
  engines: Array<{ engine: string } & StatusCounts>;
  runs: Array<{ run: string; engine: string } & StatusCounts>;
}

const STATES: Record<keyof StatusCounts, JobType[]> = {
  waiting: ["waiting", "delayed", "prioritized", "waiting-children"],
  active: ["active"],
  done: ["completed"],
  failed: ["failed"],
};

export async function queueStatus(redis: RedisAddress): Promise<QueueStatus> {
  const bull = await loadBullmq();
  const status: QueueStatus = { engines: [], runs: [] };
  const probe = await openQueue(bull, queueName("status"), redis, { waitMs: 5000 });
  let engines: string[];
  try {
    engines = await registeredEngines(probe);
  } finally {
    await probe.close();
  }
  for (const engine of engines) {
    const queue = await openQueue<{ run?: string }>(bull, queueName(engine), redis, { waitMs: 5000 });
    try {
      const total: StatusCounts = { waiting: 0, active: 0, done: 0, failed: 0 };
      const perRun = new Map<string, StatusCounts>();
      for (const [column, types] of Object.entries(STATES) as Array<[keyof StatusCounts, JobType[]]>) {
        // Every job of these states is read (its run is in its name): fine for a status of up to some 100 000 jobs.
        for (const job of await queue.getJobs(types, 0, -1)) {
          if (!job) continue;
          total[column]++;
          const c = perRun.get(job.name) ?? { waiting: 0, active: 0, done: 0, failed: 0 };
          c[column]++;
          perRun.set(job.name, c);
        }
      }
      status.engines.push({ engine, ...total });
      for (const [run, c] of [...perRun].sort(([a], [b]) => a.localeCompare(b))) status.runs.push({ run, engine, ...c });
    } finally {
      await queue.close();
    }
  }
  return status;
}
