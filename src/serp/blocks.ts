import type { BlockMarkers, ConsentMarkers, NoResultsMarkers } from "./engines.js";

/**
 * Telling a block apart from results and from a genuine "no results" page (feng2010 harvest, issue 3).
 * A block is never stored as an empty result: a page counts as empty only when the wrapper finds the
 * engine's layout without records (and the engine's "no results" markers agree, when it has any).
 *
 * Hard signals (HTTP status, a verification/consent/captcha URL after redirects, a captcha element)
 * decide before extraction. Text signals ("unusual traffic", 验证码, …) are checked only on pages
 * that yield no records, so a result that merely mentions a captcha is not a block.
 */

/** What the driver saw of a loaded result page. */
export interface PageObservation {
  requestUrl: string;
  /** URL after redirects. */
  finalUrl: string;
  httpStatus: number | null;
  title: string;
  /** The page's visible text (possibly truncated). */
  text: string;
  /** Block selectors present on the page. */
  blockSelectors: readonly string[];
  /** "No results" selectors present on the page. */
  noResultsSelectors: readonly string[];
  /** Consent-interstitial selectors present on the page (absent: none looked for). */
  consentSelectors?: readonly string[];
  /** How long the answer's `Retry-After` header asks to wait (ms); null/absent: it set none. */
  retryAfterMs?: number | null;
}

/** A `Retry-After` header's wait in ms (delay-seconds or an HTTP date, RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined | null, now: number = Date.now()): number | null {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What is known of a page before anything came back: its URL, nothing seen yet. */
export function emptyObservation(url: string): PageObservation {
  return {
    requestUrl: url,
    finalUrl: url,
    httpStatus: null,
    title: "",
    text: "",
    blockSelectors: [],
    noResultsSelectors: [],
    consentSelectors: [],
  };
}

/**
 * The reason a page is certainly a cookie-consent interstitial (a redirect to a consent URL, or a
 * consent element on the page); null if it is not.
 */
export function consentReason(obs: PageObservation, markers: ConsentMarkers): string | null {
  const where = urlWithoutQuery(obs.finalUrl);
  if (where !== urlWithoutQuery(obs.requestUrl)) {
    for (const p of markers.urlPatterns) {
      if (new RegExp(p, "i").test(where)) return `consent page: redirected to ${where} (matches /${p}/)`;
    }
  }
  const el = obs.consentSelectors?.[0];
  return el === undefined ? null : `consent page: element ${el} on the page`;
}

/** The reason a page that yielded no records reads like a consent interstitial; null if it does not. */
export function softConsentReason(obs: PageObservation, markers: ConsentMarkers): string | null {
  const text = `${obs.title}\n${obs.text}`;
  for (const p of markers.textPatterns) {
    const m = new RegExp(p, "i").exec(text);
    if (m) return `consent page: says "${m[0]}"`;
  }
  return null;
}

/** The reason a page is certainly a block, from status, URL and page elements; null if none. */
export function hardBlockReason(obs: PageObservation, markers: BlockMarkers): string | null {
  if (obs.httpStatus !== null && markers.httpStatus.includes(obs.httpStatus)) {
    const wait = obs.retryAfterMs ?? null;
    return wait === null ? `HTTP ${obs.httpStatus}` : `HTTP ${obs.httpStatus}, Retry-After ${Math.round(wait / 1000)} s`;
  }
  const where = urlWithoutQuery(obs.finalUrl);
  // Only where a redirect led: the engine's own search path never counts against it.
  if (where !== urlWithoutQuery(obs.requestUrl)) {
    for (const p of markers.urlPatterns) {
      if (new RegExp(p, "i").test(where)) return `redirected to ${where} (matches /${p}/)`;
    }
  }
  if (obs.blockSelectors.length > 0) return `block element ${obs.blockSelectors[0]} on the page`;
  return null;
}

/** The reason a page that yielded no records reads like a block page; null if it does not. */
export function softBlockReason(obs: PageObservation, markers: BlockMarkers): string | null {
  const text = `${obs.title}\n${obs.text}`;
  for (const p of markers.textPatterns) {
    const m = new RegExp(p, "i").exec(text);
    if (m) return `page says "${m[0]}"`;
  }
  return null;
}

/**
 * Does the page carry the engine's "no results" message? null when the engine defines no markers
 * (then the wrapper's verdict stands alone).
 */
export function saysNoResults(obs: PageObservation, markers: NoResultsMarkers): boolean | null {
  if (markers.selectors.length === 0 && markers.textPatterns.length === 0) return null;
  if (obs.noResultsSelectors.length > 0) return true;
  const text = `${obs.title}\n${obs.text}`;
  return markers.textPatterns.some((p) => new RegExp(p, "i").test(text));
}

/** Scheme, host and path: block URL patterns never look at the query string (which holds the user's query). */
function urlWithoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, "");
  }
}
