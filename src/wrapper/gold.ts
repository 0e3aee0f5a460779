import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { UserError } from "../errors.js";
import { isHeldOut } from "../eval/index.js";
import { readJsonFile, validated } from "../io/index.js";
import { readPageTagPaths } from "../html/index.js";
import type { GoldPage } from "./evaluate.js";

/**
 * Loading result pages with expected records from a data-set folder, in any of its three layouts:
 * - `manifest.json` listing `{ engine, file, expected?, serp_url?, charset?, captured?, period? }`, with `file`
 *   relative to the folder or to its `<engine>/` subfolder (`aql/`, `aql-more/`, `modern/`);
 * - without a manifest, every `X.html` beside an `X.expected.json`, the engine being the page's first folder
 *   (or the file name up to its first "-").
 * Expected records are `{ results: [{ title, timestamp? }] }` (the archive-query-log format). Capture time: the
 * records' timestamp, the file name's epoch seconds (`…-1651218822.html`), the manifest's `captured` date or,
 * last, its `period` year (1 January).
 */

const expectedSchema = z.object({
  results: z.array(z.object({ title: z.string().nullable().optional(), timestamp: z.number().optional() }).passthrough()),
});

const manifestSchema = z.array(
  z
    .object({
      engine: z.string(),
      file: z.string(),
      expected: z.string().optional(),
      serp_url: z.string().optional(),
      charset: z.string().optional(),
      captured: z.string().optional(),
      period: z.union([z.string(), z.number()]).optional(),
    })
    .passthrough(),
);

export interface GoldFile {
  html: string;
  expected: string;
  engine?: string;
  url?: string;
  charset?: string;
  capturedAt?: number;
  /** How the capture time is known: exact (seconds) or only the year. */
  timeKind?: "exact" | "year";
}

export function findGoldFiles(dir: string): GoldFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`${dir}: not a directory`);
  const manifestPath = join(dir, "manifest.json");
  if (existsSync(manifestPath)) return filesFromManifest(dir, manifestPath);
  const out: GoldFile[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".html")) {
        const expected = full.replace(/\.html$/, ".expected.json");
        if (existsSync(expected)) {
          const folder = relative(dir, dirname(full)).split(sep)[0];
          out.push({ html: full, expected, engine: folder || entry.name.split("-")[0]! });
        }
      }
    }
  };
  walk(dir);
  return out;
}

function filesFromManifest(dir: string, manifestPath: string): GoldFile[] {
  const entries = validated(manifestSchema, readJsonFile(manifestPath, "manifest"), manifestPath);
  return entries.map((m, i) => {
    const base = existsSync(join(dir, m.file)) ? dir : join(dir, m.engine);
    const html = join(base, m.file);
    if (!existsSync(html)) throw new UserError(`${manifestPath}:${i + 1}: file: ${m.file} not found in ${dir} or ${base}`);
    const expected = join(base, m.expected ?? m.file.replace(/\.html$/, ".expected.json"));
    const epoch = epochFromName(m.file);
    const captured = m.captured ? Date.parse(`${m.captured.slice(0, 10)}T00:00:00Z`) / 1000 : Number.NaN;
    const year = m.period === undefined ? Number.NaN : Number(String(m.period).slice(0, 4));
    const time =
      epoch !== undefined
        ? { capturedAt: epoch, timeKind: "exact" as const }
        : Number.isFinite(captured)
          ? { capturedAt: captured, timeKind: "exact" as const }
          : Number.isFinite(year)
            ? { capturedAt: Date.UTC(year, 0, 1) / 1000, timeKind: "year" as const }
            : {};
    return {
      html,
      expected,
      engine: m.engine,
      ...(m.serp_url ? { url: m.serp_url } : {}),
      ...(m.charset ? { charset: m.charset } : {}),
      ...time,
    };
  });
}

export function loadGoldPages(dir: string, onPage?: (file: string) => void, exclude: readonly string[] = []): GoldPage[] {
  const files = findGoldFiles(dir).filter((f) => !isHeldOut(resolve(f.html), exclude));
  if (files.length === 0) throw new UserError(`${dir}: no X.html with an X.expected.json found`);
  return files.map((f) => {
    const expected = readExpected(f.expected);
    const { seq } = readPageTagPaths(f.html, f.charset ? { charset: f.charset } : {});
    onPage?.(f.html);
    const capturedAt = f.capturedAt ?? expected.capturedAt;
    return {
      file: f.html,
      engine: f.engine ?? basename(f.html).split("-")[0]!,
      ...(f.url ? { url: f.url } : {}),
      ...(capturedAt === undefined ? {} : { capturedAt }),
      ...(f.timeKind ? { timeKind: f.timeKind } : expected.capturedAt !== undefined ? { timeKind: "exact" as const } : {}),
      seq,
      titles: expected.titles,
    };
  });
}

function readExpected(path: string): { titles: string[]; capturedAt?: number } {
  const expected = validated(expectedSchema, readJsonFile(path, "expected records"), path);
  const stamp = expected.results.find((r) => r.timestamp !== undefined)?.timestamp ?? epochFromName(path);
  const titles = expected.results.map((r) => r.title ?? "").filter((t) => t !== "");
  return { titles, ...(stamp === undefined ? {} : { capturedAt: stamp }) };
}

/** Archive captures are named `…-<unix seconds>.html` (or `.expected.json`). */
function epochFromName(path: string): number | undefined {
  const m = /-(\d{9,10})\.(?:html|expected\.json)$/.exec(path);
  return m ? Number(m[1]) : undefined;
}
