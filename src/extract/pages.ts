/**
 * Getting pages to extract from: saved files (the one page reader, src/html/load.ts), URLs (the polite
 * fetcher, src/net) and pages kept in the store.
 */
import { decodeHtml } from "../html/index.js";
import { readSavedPage } from "../html/index.js";
import { type Fetcher, isHtmlContentType } from "../net/index.js";
import type { StoredPage } from "../store/index.js";

export interface PageText {
  /** The file path or URL the page is known by (its `source_url`). */
  source: string;
  html: string;
}

export function isUrl(input: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//iu.test(input);
}

/** A page from a file or a URL (URLs through the polite fetcher: robots.txt, per-host delay, limits, http/https only). */
export async function loadPageInput(input: string, fetcher: () => Fetcher): Promise<PageText> {
  if (!isUrl(input)) return { source: input, html: readSavedPage(input).text };
  const page = await fetcher().fetch(input, { accept: isHtmlContentType });
  const text = page.decoded?.text ?? decodeHtml(page.bytes, { contentType: page.contentType }).text;
  return { source: input, html: text };
}

/** The text of a stored page (its bytes decoded with the charset found when it was fetched). */
export function storedPageText(page: StoredPage): string | null {
  if (!page.html) return null;
  try {
    return decodeHtml(page.html, page.charset ? { override: page.charset } : { contentType: page.contentType }).text;
  } catch {
    return decodeHtml(page.html, { contentType: page.contentType }).text;
  }
}
