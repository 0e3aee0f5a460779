/**
 * `bitext site load`: read a site from a folder — a crawl made by `bitext site crawl` (it has `site.json`)
 * or any mirror (an HTTrack-style folder of HTML files, named by their path on the site).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { UserError } from "../errors.js";
import { type BuildSiteOptions, buildSite, type RawPage } from "./build.js";
import { isCrawlFolder, readCrawlManifest } from "./crawl-store.js";
import type { Site } from "./types.js";

/** Files a mirror may hold pages in. */
const PAGE_EXTENSIONS = /\.(html?|shtml|xhtml|php\d?|aspx?|jspx?|cfm)$/i;
/** The virtual origin mirror pages live at, so their links resolve like on the real site. */
export const MIRROR_ORIGIN = "http://mirror.invalid";

export function loadSite(dir: string, options: BuildSiteOptions = {}): Site {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`${dir}: no such folder`);
  const site = isCrawlFolder(dir) ? buildSite("crawl", dir, crawlPages(dir), options) : buildSite("mirror", dir, mirrorPages(dir), options);
  if (site.pages.length === 0 && site.dropped.length === 0) {
    throw new UserError(`${dir}: no HTML pages found (a mirror folder of .html files, or a crawl with site.json)`);
  }
  return site;
}

/** The HTML files of a mirror folder, in path order; hidden folders and HTTrack's cache are skipped. */
export function mirrorFiles(dir: string): string[] {
  const out: string[] = [];
  // An explicit stack (not recursion: a mirror's folder depth is whatever the site's URLs made it) of
  // folders to open and files to emit, pushed in reverse so entries come out in name order, depth first.
  const stack: Array<{ path: string; folder: boolean }> = [{ path: dir, folder: true }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (!item.folder) {
      out.push(relative(dir, item.path).split(sep).join("/"));
      continue;
    }
    const entries = readdirSync(item.path, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1));
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      if (entry.name.startsWith(".") || entry.name === "hts-cache") continue;
      const full = join(item.path, entry.name);
      if (entry.isDirectory()) stack.push({ path: full, folder: true });
      else if (entry.isFile() && PAGE_EXTENSIONS.test(entry.name)) stack.push({ path: full, folder: false });
    }
  }
  return out;
}

function* mirrorPages(dir: string): Generator<RawPage> {
  for (const rel of mirrorFiles(dir)) {
    const url = `${MIRROR_ORIGIN}/${rel.split("/").map(encodeURIComponent).join("/")}`;
    yield { key: rel, url, keyUrl: rel, bytes: readFileSync(join(dir, rel)) };
  }
}

function* crawlPages(dir: string): Generator<RawPage> {
  const manifest = readCrawlManifest(dir);
  for (const p of manifest.pages) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, p.file));
    } catch {
      throw new UserError(`${join(dir, p.file)}: page file of ${p.url} is missing (crawl folder damaged?)`);
    }
    yield { key: p.url, url: p.url, keyUrl: p.url, bytes, contentType: p.contentType, aliases: p.aliases };
  }
}
