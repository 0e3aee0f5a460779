import { NetworkError, type NetworkErrorKind } from "../errors.js";
import type { DecodedPage } from "../html/index.js";

/** How the polite fetcher behaves. Every field has a default (`DEFAULT_FETCHER_OPTIONS`). */
export interface FetcherOptions {
  /** Sent as `User-Agent` and matched against robots.txt groups. */
  userAgent: string;
  /** Minimum milliseconds between the starts of two requests to one host (robots `Crawl-delay` can raise it). */
  delayMs: number;
  /** Upper bound on a robots.txt `Crawl-delay`, so one hostile file cannot stall a run for hours. */
  maxCrawlDelayMs: number;
  /** Milliseconds for a whole request, body included. */
  timeoutMs: number;
  /** Largest body accepted, in bytes; larger responses fail with `too-large`. */
  maxBytes: number;
  /** Redirects followed before failing with `redirects`. */
  maxRedirects: number;
  /** Obey robots.txt (fetched once per origin and cached). */
  robots: boolean;
}

export const DEFAULT_FETCHER_OPTIONS: Readonly<FetcherOptions> = Object.freeze({
  userAgent: "bitext/0.1 (parallel-text research crawler)",
  delayMs: 1000,
  maxCrawlDelayMs: 30_000,
  timeoutMs: 20_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  robots: true,
});

/** Per-call options. */
export interface FetchCallOptions {
  /**
   * Decide from the Content-Type (before the body is downloaded) whether the response is wanted;
   * a refusal fails with `content-type`. Default: accept everything.
   */
  accept?: (contentType: string | null) => boolean;
  /** Cancels the request (fails with `aborted`). */
  signal?: AbortSignal;
}

/** A successful (2xx) response. */
export interface FetchedPage {
  /** The URL asked for. */
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** Every URL visited before `finalUrl` (empty without redirects). */
  redirects: string[];
  status: number;
  contentType: string | null;
  /** The body as received. */
  bytes: Uint8Array;
  /**
   * The body decoded to text (BOM, Content-Type charset, `<meta charset>`, then UTF-8; see `src/html/charset.ts`)
   * when the Content-Type is textual (html, xml, text, json) or absent; null for binary types.
   */
  decoded: DecodedPage | null;
}

export type FetchErrorKind = NetworkErrorKind;

/** Why a fetch failed: `kind` for programs, `message` for people. */
export class FetchError extends NetworkError {
  override readonly kind: FetchErrorKind;
  readonly status: number | undefined;
  /** What went wrong, without the URL (the message is `url: reason`; after a redirect `url` is the target's). */
  readonly reason: string;

  constructor(kind: FetchErrorKind, url: string, reason: string, status?: number) {
    super(url, reason);
    this.name = "FetchError";
    this.kind = kind;
    this.status = status;
    this.reason = reason;
  }
}

/** The project's one HTTP client: polite, bounded, http(s) only. */
export interface Fetcher {
  /** GET `url`, following redirects; resolves with a 2xx page or rejects with a `FetchError`. */
  fetch(url: string, options?: FetchCallOptions): Promise<FetchedPage>;
  /** Whether robots.txt lets this fetcher's user agent get `url` (always true with `robots: false`). */
  allowed(url: string): Promise<boolean>;
  /** The `Sitemap:` URLs in the robots.txt of `url`'s origin (empty with `robots: false`). */
  sitemaps(url: string): Promise<string[]>;
  /** The options in effect (defaults filled in). */
  readonly options: Readonly<FetcherOptions>;
}
