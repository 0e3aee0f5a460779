import { readFileSync } from "node:fs";
import { UserError } from "../errors.js";
import { type DecodedPage, decodeHtml } from "./charset.js";
import { checkPageBytes, isPageSkipped } from "./limits.js";
import { tagPathsFromHtml } from "./parse.js";
import type { TagPathSequence } from "./tagpaths.js";

export interface SavedPage extends DecodedPage {
  file: string;
  bytes: number;
}

/**
 * Read a saved page from disk and decode it (BOM, then <meta charset>, then UTF-8; `charset` overrides).
 * A file over the size cap or binary rather than text throws `PageSkipped` naming the file.
 */
export function readSavedPage(file: string, options: { charset?: string } = {}): SavedPage {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: cannot read page (${code === "ENOENT" ? "no such file" : (code ?? String(err))})`);
  }
  checkPageBytes(bytes, file);
  try {
    const decoded = decodeHtml(bytes, options.charset ? { override: options.charset } : {});
    return { ...decoded, file, bytes: bytes.length };
  } catch (err) {
    throw new UserError(`${file}: ${(err as Error).message}`);
  }
}

/** Read a saved page and compute its tag-path sequence (parse5: the browser's tree rules, no full DOM). */
export function readPageTagPaths(file: string, options: { charset?: string } = {}): { page: SavedPage; seq: TagPathSequence } {
  const page = readSavedPage(file, options);
  try {
    return { page, seq: tagPathsFromHtml(page.text) };
  } catch (err) {
    throw isPageSkipped(err) ? err.at(file) : err;
  }
}
