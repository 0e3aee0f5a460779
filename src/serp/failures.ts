/**
 * Why a result page failed, by kind: what a run's summary counts, what decides whether an engine is
 * down (network-level kinds), and the words a person reads. Chromium's `net::ERR_*` codes and our
 * own verdicts map onto a few kinds a user can act on.
 */

export type FailureKind =
  /** The engine's host name does not resolve. */
  | "dns"
  /** Nothing listens at the engine's address (connection refused). */
  | "refused"
  /** No answer within the page deadline (load, or load + our work). */
  | "timeout"
  /** The TLS handshake failed or the certificate was refused. */
  | "tls"
  /** Another network failure: reset, closed, unreachable address. */
  | "network"
  /**
   * The proxy the page went through failed (refused, unreachable, tunnel refused): the proxy's failure, never
   * the engine's; the page is asked again through another proxy.
   */
  | "proxy"
  /** The engine answered with an HTTP error status that is not a block signal. */
  | "http"
  /** A block: rate limit, captcha, verification page. */
  | "blocked"
  /** A cookie-consent interstitial instead of results. */
  | "consent"
  /** A page neither the wrapper nor any record structure fits. */
  | "layout";

export const FAILURE_KINDS: readonly FailureKind[] = [
  "dns",
  "refused",
  "timeout",
  "tls",
  "network",
  "proxy",
  "http",
  "blocked",
  "consent",
  "layout",
];

/** Failures that say the engine cannot be reached at all (as opposed to an answer we did not want). */
export function isNetworkLevel(kind: FailureKind): boolean {
  return kind === "dns" || kind === "refused" || kind === "timeout" || kind === "tls" || kind === "network";
}

const NET_ERRORS: ReadonlyArray<[RegExp, FailureKind, string]> = [
  [/^net::ERR_NAME_(NOT_RESOLVED|RESOLUTION_FAILED)$/, "dns", "host name not found (DNS)"],
  [/^net::ERR_CONNECTION_REFUSED$/, "refused", "connection refused"],
  [/^net::ERR_(CONNECTION_)?TIMED_OUT$/, "timeout", "connection timed out"],
  [/^net::ERR_(SSL|CERT)_|^net::ERR_BAD_SSL_CLIENT_AUTH_CERT$/, "tls", "TLS handshake or certificate failed"],
  [/^net::ERR_PROXY_|^net::ERR_TUNNEL_CONNECTION_FAILED$|^net::ERR_SOCKS_/, "proxy", "proxy failed"],
  [/^net::ERR_CONNECTION_RESET$/, "network", "connection reset"],
  [/^net::ERR_CONNECTION_CLOSED$|^net::ERR_EMPTY_RESPONSE$/, "network", "connection closed without an answer"],
  [/^net::ERR_(INCOMPLETE_CHUNKED_ENCODING|CONTENT_LENGTH_MISMATCH)$/, "network", "connection cut in the middle of the answer"],
  [/^net::ERR_(ADDRESS|INTERNET)_(UNREACHABLE|DISCONNECTED)$/, "network", "network unreachable"],
];

/** A network failure of a page load, named: the kind and a message saying what failed and where. */
export function describeNetError(code: string, url: string): { kind: FailureKind; message: string } {
  const host = hostOf(url);
  for (const [pattern, kind, words] of NET_ERRORS) {
    if (pattern.test(code)) return { kind, message: `${kind}: ${words}: ${host} (${code})` };
  }
  return { kind: "network", message: `network: load failed: ${host} (${code})` };
}

export function describeTimeout(url: string, ms: number, what = "no answer"): { kind: FailureKind; message: string } {
  return { kind: "timeout", message: `timeout: ${what} within ${Math.round(ms / 100) / 10} s: ${hostOf(url)}` };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Counts of failures by kind (all kinds present, zero when none). */
export type FailureCounts = Record<FailureKind, number>;

export function emptyFailureCounts(): FailureCounts {
  return Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as FailureCounts;
}

/** "3 dns, 1 timeout": the non-zero counts, most frequent first. */
export function formatFailureCounts(c: FailureCounts): string {
  return FAILURE_KINDS.filter((k) => c[k] > 0)
    .sort((a, b) => c[b] - c[a])
    .map((k) => `${c[k]} ${k}`)
    .join(", ");
}
