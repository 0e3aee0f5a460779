import type { EngineSetup } from "../serp/index.js";
import type { QueryPair } from "../store/index.js";
import { loadBullmq, type RedisAddress } from "./connection.js";
import { type PageJob, pageJob, pageJobOptions, queueName, type RunSettings } from "./jobs.js";
import { applyLimits, openQueue } from "./queues.js";
import { countExistingJobs, registerEngines } from "./registry.js";

/**
 * `bitext harvest --queue`: the first page of every (engine, query) as a job on the engine's queue.
 * Job ids are made of the run, engine, query and page, so enqueuing the same list again adds nothing
 * that is already queued, running or finished (finished jobs are kept a week).
 */

export interface EnqueueResult {
  run: string;
  engines: string[];
  queries: number;
  /** Jobs offered (engines × queries), and how many of them were new to the queue. */
  offered: number;
  added: number;
}

export async function enqueueHarvest(
  redis: RedisAddress,
  settings: RunSettings,
  engines: readonly EngineSetup[],
  queries: readonly QueryPair[],
): Promise<EnqueueResult> {
  const bull = await loadBullmq();
  let offered = 0;
  let added = 0;
  for (const e of engines) {
    const queue = await openQueue<PageJob>(bull, queueName(e.name), redis, { waitMs: 5000 });
    try {
      if (offered === 0)
        await registerEngines(
          queue,
          engines.map((x) => x.name),
        );
      await applyLimits(queue, e.definition.politeness);
      for (let i = 0; i < queries.length; i += 500) {
        const chunk = queries.slice(i, i + 500).map((q) => pageJob(settings, e.name, q, 1));
        added +=
          chunk.length -
          (await countExistingJobs(
            queue,
            chunk.map((j) => j.jobId),
          ));
        await queue.addBulk(chunk.map((j) => ({ name: j.name, data: j.data, opts: pageJobOptions(settings, j.jobId) })));
        offered += chunk.length;
      }
    } finally {
      await queue.close();
    }
  }
  return { run: settings.run, engines: engines.map((e) => e.name), queries: queries.length, offered, added };
}
