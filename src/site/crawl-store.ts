/**
 * The on-disk form of a crawl: `DIR/site.json` (the manifest: every page's URL, file, links) and
 * `DIR/pages/NNNNNN.html` (each page's bytes exactly as received, decoded again at load time).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inputError, UserError } from "../errors.js";

export const CRAWL_MANIFEST = "site.json";
export const CRAWL_FORMAT = "bitext-site-crawl 1";

export interface CrawledPage {
  /** The URL that answered (after redirects): the page's key in outputs. */
  url: string;
  /** Other URLs that led to it (redirected requests). */
  aliases: string[];
  /** Body file, relative to the crawl folder. */
  file: string;
  contentType: string | null;
  depth: number;
  bytes: number;
  /** On-site and off-site hyperlinks, absolute, in page order. */
  links: string[];
}

export interface CrawlManifest {
  format: string;
  start: string[];
  startedAt: string;
  /** null while the crawl is running (or was interrupted). */
  finishedAt: string | null;
  options: Record<string, unknown>;
  pages: CrawledPage[];
  /** URLs not kept, with the reason (robots, too small, not HTML, HTTP errors, …). */
  skipped: Array<{ url: string; reason: string }>;
}

export function isCrawlFolder(dir: string): boolean {
  return existsSync(join(dir, CRAWL_MANIFEST));
}

/** Read and check a crawl manifest; a broken one is the user's problem to see, with the field at fault. */
export function readCrawlManifest(dir: string): CrawlManifest {
  const file = join(dir, CRAWL_MANIFEST);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UserError(`${file}: not a readable crawl manifest (${(err as Error).message})`);
  }
  const m = value as Partial<CrawlManifest>;
  if (!m || typeof m !== "object" || m.format !== CRAWL_FORMAT) {
    throw inputError({ file, field: "format" }, `expected "${CRAWL_FORMAT}"`);
  }
  if (!Array.isArray(m.pages)) throw inputError({ file, field: "pages" }, "missing page list");
  m.pages.forEach((p, i) => {
    if (!p || typeof p.url !== "string" || typeof p.file !== "string" || !Array.isArray(p.links)) {
      throw inputError({ file, field: `pages[${i}]` }, "needs url, file and links");
    }
  });
  const pages = m.pages.map((p) => ({ ...p, aliases: Array.isArray(p.aliases) ? p.aliases : [] }));
  return { skipped: [], ...m, pages } as CrawlManifest;
}
