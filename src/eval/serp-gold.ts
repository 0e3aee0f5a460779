import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { z } from "zod";
import { UserError } from "../errors.js";
import { readJsonFile, validated } from "../io/json-file.js";
import { readPageTagPaths } from "../html/load.js";
import type { GoldPage } from "./records.js";

/**
 * Loading result pages with expected records from a directory: every `X.html` beside an
 * `X.expected.json` (the archive-query-log format: `{ results: [{ rank, title, url, snippet, timestamp }] }`).
 * A `manifest.json` in the directory (`[{ engine, file, serp_url, charset }]`) supplies engines, page URLs
 * and charsets; without one, the engine is the page's folder name (or the file name up to its first "-").
 */

const expectedSchema = z.object({
  results: z.array(z.object({ title: z.string(), timestamp: z.number().optional() }).passthrough()),
});

const manifestSchema = z.array(
  z.object({ engine: z.string(), file: z.string(), serp_url: z.string().optional(), charset: z.string().optional() }).passthrough(),
);

export interface GoldFile {
  html: string;
  expected: string;
}

export function findGoldFiles(dir: string): GoldFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`${dir}: not a directory`);
  const out: GoldFile[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".html")) {
        const expected = full.replace(/\.html$/, ".expected.json");
        if (existsSync(expected)) out.push({ html: full, expected });
      }
    }
  };
  walk(dir);
  return out;
}

export function loadGoldPages(dir: string, onPage?: (file: string) => void): GoldPage[] {
  const files = findGoldFiles(dir);
  if (files.length === 0) throw new UserError(`${dir}: no X.html with an X.expected.json found`);
  const manifest = readManifest(dir);
  return files.map((f) => {
    const meta = manifest.get(basename(f.html));
    const titles = readExpected(f.expected);
    const { seq } = readPageTagPaths(f.html, meta?.charset ? { charset: meta.charset } : {});
    onPage?.(f.html);
    const folder = relative(dir, dirname(f.html)).split(sep)[0];
    return {
      file: f.html,
      engine: meta?.engine ?? (folder || basename(f.html).split("-")[0]!),
      ...(meta?.serp_url ? { url: meta.serp_url } : {}),
      ...(titles.capturedAt === undefined ? {} : { capturedAt: titles.capturedAt }),
      seq,
      titles: titles.titles,
    };
  });
}

function readManifest(dir: string): Map<string, z.infer<typeof manifestSchema>[number]> {
  const path = join(dir, "manifest.json");
  if (!existsSync(path)) return new Map();
  return new Map(validated(manifestSchema, readJsonFile(path, "manifest"), path).map((m) => [m.file, m]));
}

function readExpected(path: string): { titles: string[]; capturedAt?: number } {
  const expected = validated(expectedSchema, readJsonFile(path, "expected records"), path);
  const stamp = expected.results.find((r) => r.timestamp !== undefined)?.timestamp ?? timestampFromName(path);
  return { titles: expected.results.map((r) => r.title), ...(stamp === undefined ? {} : { capturedAt: stamp }) };
}

/** Archive captures are named `…-<unix seconds>.html`. */
function timestampFromName(path: string): number | undefined {
  const m = /-(\d{9,10})\.expected\.json$/.exec(path);
  return m ? Number(m[1]) : undefined;
}
