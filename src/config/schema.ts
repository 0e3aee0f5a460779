import { z } from "zod";
import { parseDuration } from "../duration.js";

/**
 * The one schema of bitext's config file (`bitext.config.json` / `.yaml`) and of the daemon's schedule,
 * with the defaults in one place (DEFAULTS). Flags override the file; the file overrides DEFAULTS.
 * Paths in the file are relative to the file's folder.
 */

/** Defaults of every setting a command, the config file and a schedule share. */
export const DEFAULTS = {
  /** The store, relative to the home. */
  store: "data/bitext.db",
  engines: ["bing", "baidu"],
  pages: 1,
  concurrency: 2,
  maxAge: "24h",
  retries: 2,
  timeout: "30s",
  /** The daemon's schedule runs skip pages fetched this recently. */
  scheduleMaxAge: "20h",
  annotations: "data/annotations.jsonl",
  demoDir: "data/demo",
} as const;

/** A duration: `30s`, `500ms`, `2h`, `1h30m`, `0`, or a number of milliseconds. Parsed to milliseconds. */
export const durationSchema = z.union([z.number().nonnegative(), z.string()]).transform((v, ctx) => {
  if (typeof v === "number") return Math.round(v);
  try {
    return parseDuration(v, "duration");
  } catch {
    ctx.addIssue({ code: "custom", message: `expected a duration such as 500ms, 30s, 20h or 1h30m, got "${v}"` });
    return z.NEVER;
  }
});

const engineName = z.string().regex(/^[a-z0-9][\w.-]*$/i, "an engine name (letters, digits, '-', '_', '.')");

export const politenessSchema = z
  .object({
    minDelay: durationSchema.optional(),
    requestsPerMinute: z.number().int().min(0).optional(),
    maxConcurrent: z.number().int().min(1).optional(),
  })
  .strict();

export const engineConfigSchema = z
  .object({
    /** false: leave the engine out of harvests that do not name it. */
    enabled: z.boolean().default(true),
    politeness: politenessSchema.optional(),
  })
  .strict();

/** The harvest's proxy pool, as `--proxy URL…` and `--proxies FILE` give it (flags replace it). */
export const proxiesSchema = z
  .object({
    /** Proxy URLs (http, https, socks5; http://user:pass@host:port), rotated per engine. */
    urls: z.array(z.string().min(1)).optional(),
    /** A proxy list file, one URL a line (relative to the config file's folder). */
    file: z.string().min(1).optional(),
  })
  .strict();

/**
 * What a harvest does when engines block it (captchas, 429): the config file's `blocks` key. An engine's
 * `Retry-After` is honoured whatever these say.
 */
export const blocksSchema = z
  .object({
    /** Retries of a blocked page (each after a back-off). */
    retries: z.number().int().min(0).optional(),
    /** First back-off before a page is asked again, doubled each time up to `maxBackoff`. */
    backoff: durationSchema.optional(),
    maxBackoff: durationSchema.optional(),
    /** Blocks in a row after which the engine pauses. */
    pauseAfter: z.number().int().min(1).optional(),
    /** The first pause, doubled at each further one. */
    pause: durationSchema.optional(),
    /** Pauses after which the engine is given up for the run. */
    maxPauses: z.number().int().min(0).optional(),
    /** The longest the run waits with every engine paused; beyond it the run stops (pages left, exit 75). */
    maxWait: durationSchema.optional(),
  })
  .strict();

/** A language pair as the config files write it: "en-zh". */
const languagePairSchema = z.string().regex(/^[a-z]{2,3}-[a-z]{2,3}$/, "two language codes like en-zh");

/** One recurring harvest of the daemon. */
export const scheduledRunSchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/, "letters, digits, '-', '_' and '.' only"),
    cron: z.string().min(1),
    timezone: z.string().optional(),
    queries: z.array(z.string().min(1)).min(1),
    engines: z.array(z.string().min(1)).min(1),
    pages: z.number().int().min(1).default(DEFAULTS.pages),
    concurrency: z.number().int().min(1).default(DEFAULTS.concurrency),
    maxAge: z.string().default(DEFAULTS.scheduleMaxAge),
    keepHtml: z.boolean().default(false),
    retries: z.number().int().min(0).default(DEFAULTS.retries),
    timeoutSeconds: z.number().int().min(1).default(30),
    /** A classifier model path; null: store records unclassified; absent: the default model if present. */
    model: z.string().nullable().optional(),
    /** The languages of the query lists' columns, e.g. "en-ja" (absent: the daemon's --pair, else the config file's). */
    pair: languagePairSchema.optional(),
  })
  .strict();

/** The daemon's schedule: the `schedule` key of the config file, or a schedule file of its own. */
export const scheduleSchema = z.object({
  db: z.string().optional(),
  wrappers: z.string().optional(),
  chromium: z.string().optional(),
  runs: z.array(scheduledRunSchema).min(1),
});

export const configSchema = z
  .object({
    /** JSON Schema hint for editors; ignored. */
    $schema: z.string().optional(),
    /** The store: a SQLite file, or a PostgreSQL URL (postgres://user@host:5432/db) for many machines. */
    store: z.string().min(1).optional(),
    /** The engines harvested by default, with per-engine settings. */
    engines: z.record(engineName, engineConfigSchema).optional(),
    proxies: proxiesSchema.optional(),
    /** Blocks: back-off, pauses, give-up, the longest wait. */
    blocks: blocksSchema.optional(),
    /** Page loads in flight at once. */
    concurrency: z.number().int().min(1).optional(),
    /** Politeness for every engine (an engine's own settings win). */
    politeness: politenessSchema.optional(),
    /** The classifier model; null: harvest without classifying. */
    model: z.string().min(1).nullable().optional(),
    /** The language pair of queries, extraction, scoring and export when no --pair is given (e.g. "en-zh"). */
    pair: languagePairSchema.optional(),
    /** The pair scorer: `minScore`, the score below which `export corpus` leaves pairs out (default: the model's threshold). */
    quality: z
      .object({ minScore: z.number().min(0).max(1).optional() })
      .strict()
      .optional(),
    schedule: scheduleSchema.optional(),
  })
  .strict();

export type ConfigFileContent = z.infer<typeof configSchema>;
export type ScheduleFileContent = z.infer<typeof scheduleSchema>;
export type ScheduledRunContent = z.infer<typeof scheduledRunSchema>;
