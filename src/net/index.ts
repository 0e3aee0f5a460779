/**
 * The project's one polite HTTP fetcher (crawls, page fetches). Usage:
 *
 * ```ts
 * const fetcher = createFetcher({ delayMs: 1000 });          // share one per run
 * const page = await fetcher.fetch("https://example.org/");  // 2xx only, else FetchError
 * page.decoded?.text;                                        // decoded via src/html/charset.ts
 * ```
 */
export { createFetcher } from "./fetcher.js";
export { Dispatcher, type Lane, type Pick, pickNext, type ScheduleOptions, schedule, type Timed } from "./scheduler.js";
export {
  DEFAULT_FETCHER_OPTIONS,
  type FetchCallOptions,
  type FetchedPage,
  FetchError,
  type FetchErrorKind,
  type Fetcher,
  type FetcherOptions,
} from "./types.js";

/** `accept` helper: HTML (or XHTML) responses, and responses without a Content-Type (sniffed by the caller). */
export function isHtmlContentType(contentType: string | null): boolean {
  return contentType === null || /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}
