import robotsParserModule from "robots-parser";

// robots-parser is CommonJS (`module.exports = fn`) with a typing that declares an ES default export:
// under NodeNext the default import is the function itself, which the typing does not know.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** What one origin's robots.txt says, in the fetcher's terms. */
export interface RobotsRules {
  allowed(url: string): boolean;
  /** `Crawl-delay` for our user agent, in milliseconds (undefined when absent). */
  crawlDelayMs: number | undefined;
  /** `Sitemap:` URLs the file lists. */
  sitemaps: string[];
  /** How the file was obtained, for diagnostics. */
  source: "file" | "missing" | "unreachable";
}

/**
 * Interpret a robots.txt fetch the way RFC 9309 §2.3.1 asks: a file (2xx) is parsed; "unavailable"
 * (4xx, including 401/403) means no restriction; "unreachable" (5xx or a network failure) means the
 * whole site is disallowed until the file can be read.
 */
export function robotsRules(robotsUrl: string, userAgent: string, result: { status: number; body: string } | "unreachable"): RobotsRules {
  if (result === "unreachable" || result.status >= 500) {
    return { allowed: () => false, crawlDelayMs: undefined, sitemaps: [], source: "unreachable" };
  }
  if (result.status < 200 || result.status >= 300) {
    return { allowed: () => true, crawlDelayMs: undefined, sitemaps: [], source: "missing" };
  }
  const robot = robotsParser(robotsUrl, result.body);
  const delay = robot.getCrawlDelay(userAgent);
  return {
    // isAllowed is undefined for URLs of another origin; the fetcher only asks about its own origin.
    allowed: (url) => robot.isAllowed(url, userAgent) !== false,
    crawlDelayMs: typeof delay === "number" && Number.isFinite(delay) && delay > 0 ? delay * 1000 : undefined,
    sitemaps: robot.getSitemaps(),
    source: "file",
  };
}

/** The robots.txt URL of the origin of `url`. */
export function robotsUrlFor(url: URL): string {
  return `${url.protocol}//${url.host}/robots.txt`;
}
