import { z } from "zod";
import { parseDuration } from "../duration.js";
import { UserError } from "../errors.js";
import { DEFAULTS } from "./schema.js";

/**
 * The harvest's settings, typed and parsed by one schema that holds their defaults (in the library's
 * units: milliseconds). Whatever drives a harvest — the CLI's flags, the config file's `blocks`, a
 * daemon's schedule, a test — gives what it sets and leaves the rest out; `harvestConfig` fills in the
 * rest here and nowhere else.
 */
const ms = z.number().int().nonnegative();

export const harvestConfigSchema = z.object({
  /** Result pages per query (later pages only while pages come back full enough). */
  pages: z.number().int().min(1).default(DEFAULTS.pages),
  /** Page loads in flight at once, over all engines. */
  concurrency: z.number().int().min(1).default(DEFAULTS.concurrency),
  /** Skip an (engine, query, page) fetched successfully this recently (0: fetch everything again). */
  maxAgeMs: ms.default(parseDuration(DEFAULTS.maxAge)),
  /** Retries of a page after a network error, timeout or unrecognised page. */
  retries: z.number().int().nonnegative().default(DEFAULTS.retries),
  /** The deadline of one page, load and interpretation. */
  timeoutMs: ms.min(1).default(parseDuration(DEFAULTS.timeout)),
  /** Keep each result page's HTML (compressed) in the store. */
  keepHtml: z.boolean().default(false),
  /** Retries of a page after a block (each waits for the engine's breaker). */
  blockRetries: z.number().int().nonnegative().default(2),
  /** Consecutive network failures after which an engine is given up for the run. */
  downAfter: z.number().int().min(1).default(3),
  /** A retried page's first wait, doubled with each retry up to the most. */
  backoff: z.object({ baseMs: ms.default(2000), maxMs: ms.default(60_000) }).default({ baseMs: 2000, maxMs: 60_000 }),
  /** Blocks in a row that pause an engine; its first pause (doubled each time); pauses before it is given up. */
  breaker: z
    .object({
      threshold: z.number().int().min(1).default(3),
      cooldownMs: ms.default(5 * 60_000),
      maxTrips: z.number().int().nonnegative().default(3),
    })
    .default({ threshold: 3, cooldownMs: 5 * 60_000, maxTrips: 3 }),
  /** The longest a run waits with every engine paused (blocked): beyond it the run stops, its pages left. */
  maxWaitMs: ms.default(2 * 60_000),
});

/** The harvest's settings, every one filled in. */
export type HarvestConfig = z.output<typeof harvestConfigSchema>;
/** The harvest's settings as a caller gives them: any left out takes its default. */
export type HarvestConfigInput = z.input<typeof harvestConfigSchema>;

/** The settings from what a caller gave (other keys are ignored), defaults filled in; a bad value names its key. */
export function harvestConfig(input: HarvestConfigInput): HarvestConfig {
  const r = harvestConfigSchema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new UserError(`harvest settings: ${issue.path.join(".")}: ${issue.message}`);
}

/** The defaults, for help texts and the queue's job settings. */
export const HARVEST_DEFAULTS: HarvestConfig = harvestConfig({});

/** `over`'s settings over `base`'s: a setting `over` leaves undefined keeps `base`'s (flags over the config file). */
export function harvestSettingsOver(base: HarvestConfigInput, over: HarvestConfigInput): HarvestConfigInput {
  const given = Object.entries(over).filter(([k, v]) => v !== undefined && k in harvestConfigSchema.shape);
  return { ...base, ...Object.fromEntries(given) };
}
