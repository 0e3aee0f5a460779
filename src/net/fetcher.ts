import { decodeHtml } from "../html/index.js";
import { HostDelay } from "./host-delay.js";
import { type RobotsRules, robotsRules, robotsUrlFor } from "./robots.js";
import {
  DEFAULT_FETCHER_OPTIONS,
  type FetchCallOptions,
  type FetchedPage,
  FetchError,
  type Fetcher,
  type FetcherOptions,
} from "./types.js";

/** robots.txt files are read up to this size (RFC 9309 asks for at least 500 KiB). */
const ROBOTS_MAX_BYTES = 512 * 1024;

const TEXTUAL_TYPE = /^\s*(text\/|application\/(xhtml\+xml|xml|json|[\w.+-]+\+xml|[\w.+-]+\+json)\b)/i;

/**
 * Create the polite fetcher: robots.txt obeyed (cached per origin), requests to one host spaced by
 * `delayMs` (or the site's `Crawl-delay`, capped), http/https only, redirects followed (each hop checked
 * against robots.txt and spaced like any request), bodies bounded in size and time, text decoded by
 * `src/html/charset.ts`. One fetcher should be shared by everything that talks to the same hosts,
 * so the spacing holds across callers.
 */
export function createFetcher(options: Partial<FetcherOptions> = {}): Fetcher {
  return new PoliteFetcher({ ...DEFAULT_FETCHER_OPTIONS, ...dropUndefined(options) });
}

interface FollowOptions extends FetchCallOptions {
  maxBytes: number;
  checkRobots: boolean;
  /** Crawl-delay already known for the origin (0 while robots.txt itself is being read). */
  robotsDelay?: number;
}

class PoliteFetcher implements Fetcher {
  private readonly delay = new HostDelay();
  /** robots.txt rules per origin, read once (the promise, so concurrent first requests share one read). */
  private readonly robots = new Map<string, Promise<RobotsRules>>();

  constructor(readonly options: Readonly<FetcherOptions>) {}

  async fetch(url: string, callOptions: FetchCallOptions = {}): Promise<FetchedPage> {
    return this.follow(parseHttpUrl(url), { ...callOptions, maxBytes: this.options.maxBytes, checkRobots: true });
  }

  async allowed(url: string): Promise<boolean> {
    const parsed = parseHttpUrl(url);
    if (!this.options.robots) return true;
    return (await this.rulesFor(parsed)).allowed(parsed.href);
  }

  async sitemaps(url: string): Promise<string[]> {
    const parsed = parseHttpUrl(url);
    if (!this.options.robots) return [];
    return (await this.rulesFor(parsed)).sitemaps;
  }

  private rulesFor(url: URL): Promise<RobotsRules> {
    const key = `${url.protocol}//${url.host}`;
    let rules = this.robots.get(key);
    if (!rules) {
      rules = this.loadRobots(url);
      this.robots.set(key, rules);
    }
    return rules;
  }

  private async loadRobots(url: URL): Promise<RobotsRules> {
    const robotsUrl = robotsUrlFor(url);
    const agent = this.options.userAgent;
    try {
      const res = await this.follow(new URL(robotsUrl), { maxBytes: ROBOTS_MAX_BYTES, checkRobots: false, robotsDelay: 0 });
      return robotsRules(robotsUrl, agent, { status: res.status, body: new TextDecoder().decode(res.bytes) });
    } catch (err) {
      if (err instanceof FetchError && err.kind === "status" && err.status !== undefined) {
        return robotsRules(robotsUrl, agent, { status: err.status, body: "" });
      }
      // Too many redirects counts as "unavailable" (RFC 9309 §2.3.1.2); anything else as "unreachable".
      if (err instanceof FetchError && (err.kind === "redirects" || err.kind === "scheme")) {
        return robotsRules(robotsUrl, agent, { status: 404, body: "" });
      }
      // A host that cannot be reached at all (refused, DNS, timeout) is that, not a robots.txt verdict: the
      // page fails with what failed, as it would with robots off.
      if (err instanceof FetchError && (err.kind === "network" || err.kind === "timeout")) throw err;
      return robotsRules(robotsUrl, agent, "unreachable");
    }
  }

  /** GET `start`, following redirects: every hop checked against robots.txt and spaced like any request. */
  private async follow(start: URL, fo: FollowOptions): Promise<FetchedPage> {
    const redirects: string[] = [];
    let current = start;
    for (let hop = 0; ; hop++) {
      await this.waitTurn(current, fo);
      const res = await request(current, this.options, fo.signal);
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        await discard(res);
        const next = redirectTarget(res, current);
        if (hop >= this.options.maxRedirects)
          throw new FetchError("redirects", start.href, `more than ${this.options.maxRedirects} redirects`);
        redirects.push(current.href);
        current = next;
        continue;
      }
      if (res.status < 200 || res.status >= 300) {
        await discard(res);
        throw new FetchError("status", current.href, `HTTP ${res.status}`, res.status);
      }
      const contentType = res.headers.get("content-type");
      if (fo.accept && !fo.accept(contentType)) {
        await discard(res);
        throw new FetchError("content-type", current.href, `unwanted content type ${contentType ?? "(none)"}`);
      }
      const bytes = await readBody(res, current.href, fo.maxBytes);
      const decoded = contentType === null || TEXTUAL_TYPE.test(contentType) ? decodeHtml(bytes, { contentType }) : null;
      return { url: start.href, finalUrl: current.href, redirects, status: res.status, contentType, bytes, decoded };
    }
  }

  /** robots.txt says yes (else `robots`), then the host's spacing (the delay or its Crawl-delay) lets the request go. */
  private async waitTurn(url: URL, fo: FollowOptions): Promise<void> {
    let crawlDelay = fo.robotsDelay ?? 0;
    if (fo.checkRobots && this.options.robots) {
      const rules = await this.rulesFor(url).catch((err: unknown) => {
        throw err instanceof FetchError
          ? new FetchError(err.kind, url.href, `${err.reason} (reading ${robotsUrlFor(url)})`, err.status)
          : err;
      });
      if (!rules.allowed(url.href)) {
        const why = rules.source === "unreachable" ? "robots.txt unreachable, site treated as disallowed" : "disallowed by robots.txt";
        throw new FetchError("robots", url.href, why);
      }
      crawlDelay = Math.min(rules.crawlDelayMs ?? 0, this.options.maxCrawlDelayMs);
    }
    try {
      await this.delay.wait(url.host, Math.max(this.options.delayMs, crawlDelay), fo.signal);
    } catch {
      throw new FetchError("aborted", url.href, "aborted");
    }
  }
}

/** Where a redirect leads (an http(s) URL), or a `redirects` error naming what is wrong with it. */
function redirectTarget(res: Response, current: URL): URL {
  const location = res.headers.get("location");
  if (!location) throw new FetchError("redirects", current.href, `HTTP ${res.status} without a Location header`);
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new FetchError("redirects", current.href, `bad redirect Location "${location}"`);
  }
  assertHttp(next);
  return next;
}

type TimedResponse = Response & { timeoutSignal: AbortSignal };

/** One GET without following redirects, bounded by the timeout (the body is read under the same clock). */
async function request(url: URL, opts: Readonly<FetcherOptions>, signal?: AbortSignal): Promise<TimedResponse> {
  const timeoutSignal = AbortSignal.timeout(opts.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeoutSignal]) : timeoutSignal;
  const get = () =>
    fetch(url, {
      redirect: "manual",
      signal: combined,
      headers: { "user-agent": opts.userAgent, accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    });
  try {
    let res: Response;
    try {
      res = await get();
    } catch (err) {
      // A kept-alive connection the server closed while this process was busy (a long parse): the GET never
      // reached the server, so it is sent once more on a fresh connection, not reported as an outage.
      if (!isStaleConnection(err) || combined.aborted) throw err;
      res = await get();
    }
    return Object.assign(res, { timeoutSignal });
  } catch (err) {
    throw failure(url.href, err, timeoutSignal, signal);
  }
}

/** The body, up to `maxBytes` (declared or received: more fails with `too-large`), under the request's timeout. */
async function readBody(res: TimedResponse, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await discard(res);
    throw new FetchError("too-large", url, `body of ${declared} bytes exceeds the limit of ${maxBytes}`);
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new FetchError("too-large", url, `body exceeds the limit of ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw failure(url, err, res.timeoutSignal);
  }
  return Buffer.concat(chunks);
}

function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FetchError("scheme", url, "not an absolute URL");
  }
  assertHttp(parsed);
  return parsed;
}

function assertHttp(url: URL): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchError("scheme", url.href, `only http and https are fetched, not ${url.protocol}`);
  }
}

function failure(url: string, err: unknown, timeoutSignal: AbortSignal, callerSignal?: AbortSignal): FetchError {
  if (timeoutSignal.aborted) return new FetchError("timeout", url, "timed out");
  if (callerSignal?.aborted) return new FetchError("aborted", url, "aborted");
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  const what = NETWORK_FAILURES[cause?.code ?? ""];
  return new FetchError("network", url, `network error (${what ? `${what}: ` : ""}${detail})`);
}

/** What a system error code means, in words (the code stays in the message for searching). */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "DNS lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed",
};

/** undici's errors for a pooled connection found closed when a request was written to it. */
function isStaleConnection(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } }).cause?.code;
  return code === "UND_ERR_SOCKET" || code === "ECONNRESET" || code === "EPIPE";
}

async function discard(res: Response): Promise<void> {
  try {
    await res.body?.cancel();
  } catch {
    // the connection is going away anyway
  }
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
