/**
 * Distributed harvesting on BullMQ (Redis): `bitext harvest --queue` enqueues page jobs, `bitext
 * worker` runs them with the local harvest's page runner and policy, `bitext queue status` counts
 * them, and the daemon's schedules become BullMQ job schedulers. BullMQ is loaded only here, and only
 * when a queue is used.
 */
export { describeRedis, loadBullmq, parseRedisUrl, type RedisAddress } from "./connection.js";
export { type EnqueueResult, enqueueHarvest } from "./enqueue.js";
export { type PageJob, pageJobId, queueName, type RunSettings } from "./jobs.js";
export { LazyBrowser } from "./lazy-browser.js";
export { type QueueLimits, queueLimits } from "./limits.js";
export { type QueueScheduleOptions, runQueueSchedules, SCHEDULE_QUEUE, tickRunName } from "./schedules.js";
export { QueueOpenAborted } from "./queues.js";
export { type QueueStatus, queueStatus } from "./status.js";
export { type QueueWorkerOptions, type QueueWorkerSummary, runQueueWorker } from "./worker.js";
