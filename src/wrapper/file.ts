import { z } from "zod";
import { UserError } from "../errors.js";
import { writeJsonAtomic } from "../io/index.js";
import { parseJsonText, readTextFile, validated } from "../io/index.js";
import type { Wrapper } from "./types.js";

/**
 * `wrappers/<engine>.json`: the learned wrapper of one engine, the wrappers it replaced, and the engine's
 * definition (search URL, paging, block markers — owned by the harvester, carried through untouched here).
 */

export const WRAPPER_FORMAT_VERSION = 1;

const clusterSchema = z.object({
  ancestorPath: z.string().min(1),
  paths: z.array(z.string()),
  sampleRecords: z.number().int().nonnegative(),
  titlePath: z.string().nullable(),
  titleFromText: z.boolean().optional(),
  score: z.number(),
  role: z.enum(["results", "other"]),
});

export const wrapperSchema = z.object({
  engine: z.string().min(1),
  learnedAt: z.iso.datetime(),
  sample: z.object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/, "expected a sha256 hex digest"),
    url: z.string().nullable(),
    file: z.string().nullable(),
    positions: z.number().int().nonnegative(),
    uniquePaths: z.number().int().nonnegative(),
  }),
  params: z.object({
    epsilon: z.number().positive(),
    minRecords: z.number().int().nonnegative(),
    minClusterSize: z.number().int().positive(),
  }),
  pathMode: z.enum(["exact", "collapsed"]),
  layout: z.object({ kind: z.enum(["classes", "paths"]), tokens: z.array(z.string()) }),
  clusters: z
    .array(clusterSchema)
    .min(1)
    .refine((cs) => cs.some((c) => c.role === "results"), 'no cluster has role "results"'),
}) satisfies z.ZodType<Wrapper>;

const fileSchema = z.object({
  formatVersion: z.literal(WRAPPER_FORMAT_VERSION),
  engine: z.string().min(1),
  definition: z.unknown().optional(),
  wrapper: wrapperSchema.nullable(),
  previous: z.array(wrapperSchema).default([]),
});

export interface WrapperFile {
  formatVersion: typeof WRAPPER_FORMAT_VERSION;
  engine: string;
  /** The engine definition (validated by the harvester's engine module). */
  definition?: unknown;
  /** The current wrapper; null until one has been learned. */
  wrapper: Wrapper | null;
  /** Wrappers this one replaced, newest first. */
  previous: Wrapper[];
}

/** How many replaced wrappers a file keeps. */
export const MAX_PREVIOUS = 5;

/** Read and validate a wrapper file; any problem is a one-line UserError naming the file and the field. */
export function readWrapperFile(path: string): WrapperFile {
  return parseWrapperFile(readTextFile(path, "wrapper file"), path);
}

export function parseWrapperFile(text: string, path = "wrapper file"): WrapperFile {
  const json = parseJsonText(text, path);
  const version = (json as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof version === "number" && version !== WRAPPER_FORMAT_VERSION) {
    throw new UserError(`${path}: formatVersion ${version} is not supported (this bitext reads version ${WRAPPER_FORMAT_VERSION})`);
  }
  return validated(fileSchema, json, path) as WrapperFile;
}

/** Write a wrapper file atomically (validated first, so a broken file is never written). */
export function writeWrapperFile(path: string, file: WrapperFile): void {
  parseWrapperFile(JSON.stringify(file), path);
  writeJsonAtomic(path, file);
}

/**
 * The file after learning `wrapper`: an existing file keeps its definition, and its current wrapper
 * moves to the front of `previous` (at most MAX_PREVIOUS kept).
 */
export function withNewWrapper(existing: WrapperFile | null, wrapper: Wrapper): WrapperFile {
  const previous = existing?.wrapper ? [existing.wrapper, ...existing.previous] : (existing?.previous ?? []);
  return {
    formatVersion: WRAPPER_FORMAT_VERSION,
    engine: wrapper.engine,
    ...(existing?.definition === undefined ? {} : { definition: existing.definition }),
    wrapper,
    previous: previous.slice(0, MAX_PREVIOUS),
  };
}
