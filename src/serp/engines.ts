import { inputError } from "../errors.js";
import defaultMarkers from "./block-markers.json" with { type: "json" };
import defaultConsent from "./consent-markers.json" with { type: "json" };

/**
 * Engine definitions: how to ask an engine for result page n of a query, how politely, in which
 * locale, and how to recognise its block pages. They live in the `definition` section of
 * `wrappers/<engine>.json` (data, not code). Only `searchUrl` is required: adding an engine is
 * writing its URL template.
 */

export interface BlockMarkers {
  /** HTTP statuses that mean "blocked" (rate limit, forbidden). */
  httpStatus: number[];
  /** Regular expressions on the final URL (after redirects) of verification / consent / captcha pages. */
  urlPatterns: string[];
  /** CSS selectors present on block pages. */
  selectors: string[];
  /** Case-insensitive regular expressions on the page title and text, checked on pages yielding no records. */
  textPatterns: string[];
}

/** How to recognise a cookie-consent interstitial, and the words of the button that accepts it. */
export interface ConsentMarkers {
  /** Regular expressions on the URL a redirect led to. */
  urlPatterns: string[];
  /** CSS selectors present on consent pages. */
  selectors: string[];
  /** Case-insensitive regular expressions on the text of a page yielding no records. */
  textPatterns: string[];
  /** Case-insensitive texts of the accepting button (whole visible text, trimmed). */
  acceptTexts: string[];
}

export interface NoResultsMarkers {
  /** CSS selectors of the engine's "no results" message. */
  selectors: string[];
  /** Case-insensitive regular expressions on the page text of a "no results" page. */
  textPatterns: string[];
}

export interface Politeness {
  /** Minimum milliseconds between two requests to the engine. */
  minDelayMs: number;
  /** At most this many requests in any minute (0: no limit). */
  requestsPerMinute: number;
  /** At most this many requests in flight at once. */
  maxConcurrent: number;
}

export interface EngineDefinition {
  /** The engine's name (its wrapper file is `wrappers/<name>.json`). */
  engine: string;
  /** Display name. */
  label: string;
  /**
   * URL template: `{query}` (URL-encoded query), `{page}` (1-based page), `{page0}` (0-based page),
   * `{offset}` (firstOffset + (page − 1) × resultsPerPage).
   */
  searchUrl: string;
  resultsPerPage: number;
  /**
   * Longest query the engine takes, in characters of the text submitted (both sides of the pair); longer ones
   * are refused when the query list is read (engines cut, reject or answer 414 to them).
   */
  maxQueryLength: number;
  /** `{offset}` of the first page (Bing counts from 1, Baidu from 0). */
  firstOffset: number;
  /** Browser locale for the engine's context (Accept-Language, navigator.language). */
  locale: string;
  /** IANA time zone of the engine's context; null: the usual one of the locale's region. */
  timezone: string | null;
  /** User agent; null: a real Chrome user agent of the browser's version (never "HeadlessChrome"). */
  userAgent: string | null;
  politeness: Politeness;
  /**
   * How result pages are fetched: `browser` (Chromium loads the page, scripts run), `http` (a plain HTTP
   * client + parse5, many times faster; for engines that serve their results in the HTML), `auto`
   * (HTTP first, the browser when that page gives no records, is a block or consent page, or needs script).
   */
  fetch: FetchMode;
  blocks: BlockMarkers;
  consent: ConsentMarkers;
  noResults: NoResultsMarkers;
}

export type FetchMode = "browser" | "http" | "auto";
export const FETCH_MODES: readonly FetchMode[] = ["browser", "http", "auto"];

/** The default `maxQueryLength`: room for a long sentence pair, far below the URL lengths engines refuse (about 2,000). */
export const DEFAULT_MAX_QUERY_LENGTH = 1000;

const DEFAULT_POLITENESS: Politeness = { minDelayMs: 3000, requestsPerMinute: 15, maxConcurrent: 1 };

/**
 * Validate the `definition` section of a wrapper file and fill in defaults. Block markers given in the
 * file are added to the common ones (`block-markers.json`), never replace them.
 * Errors name the file and field: `wrappers/bing.json: definition.searchUrl: must contain {query}`.
 */
export function parseEngineDefinition(raw: unknown, engine: string, file: string): EngineDefinition {
  const where = (field: string) => ({ file, field: `definition.${field}` });
  if (typeof raw === "string") raw = { searchUrl: raw };
  if (raw === undefined || raw === null) {
    throw inputError({ file, field: "definition" }, `missing: engine "${engine}" needs at least a searchUrl template`);
  }
  if (typeof raw !== "object" || Array.isArray(raw)) throw inputError({ file, field: "definition" }, "must be an object");
  const d = raw as Record<string, unknown>;

  const searchUrl = d.searchUrl;
  if (typeof searchUrl !== "string" || searchUrl === "") throw inputError(where("searchUrl"), "must be a URL template string");
  if (!searchUrl.includes("{query}")) throw inputError(where("searchUrl"), "must contain {query}");
  const unknown = [...searchUrl.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).filter((p) => !PLACEHOLDERS.has(p!));
  if (unknown.length > 0) {
    throw inputError(where("searchUrl"), `unknown placeholder {${unknown[0]}} (use {query}, {page}, {page0}, {offset})`);
  }
  try {
    const u = new URL(fillTemplate(searchUrl, "q", 1, 0, 10));
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw inputError(where("searchUrl"), `not an http(s) URL: ${searchUrl}`);
  }

  const politenessRaw = optionalObject(d.politeness, where("politeness"));
  const blocksRaw = optionalObject(d.blocks, where("blocks"));
  const noResultsRaw = optionalObject(d.noResults, where("noResults"));
  const consentRaw = optionalObject(d.consent, where("consent"));
  return {
    engine,
    label: optionalString(d.label, where("label")) ?? engine,
    searchUrl,
    resultsPerPage: optionalInt(d.resultsPerPage, where("resultsPerPage"), 1) ?? 10,
    maxQueryLength: optionalInt(d.maxQueryLength, where("maxQueryLength"), 1) ?? DEFAULT_MAX_QUERY_LENGTH,
    firstOffset: optionalInt(d.firstOffset, where("firstOffset"), 0) ?? 0,
    locale: optionalString(d.locale, where("locale")) ?? "en-US",
    timezone: optionalTimezone(d.timezone, where("timezone")) ?? null,
    fetch: optionalFetchMode(d.fetch, where("fetch")) ?? "browser",
    userAgent: optionalString(d.userAgent, where("userAgent")) ?? null,
    politeness: {
      minDelayMs: optionalInt(politenessRaw.minDelayMs, where("politeness.minDelayMs"), 0) ?? DEFAULT_POLITENESS.minDelayMs,
      requestsPerMinute:
        optionalInt(politenessRaw.requestsPerMinute, where("politeness.requestsPerMinute"), 0) ?? DEFAULT_POLITENESS.requestsPerMinute,
      maxConcurrent: optionalInt(politenessRaw.maxConcurrent, where("politeness.maxConcurrent"), 1) ?? DEFAULT_POLITENESS.maxConcurrent,
    },
    blocks: {
      httpStatus: union(defaultMarkers.httpStatus, optionalIntList(blocksRaw.httpStatus, where("blocks.httpStatus"))),
      urlPatterns: union(defaultMarkers.urlPatterns, optionalRegexList(blocksRaw.urlPatterns, where("blocks.urlPatterns"))),
      selectors: union(defaultMarkers.selectors, optionalStringList(blocksRaw.selectors, where("blocks.selectors"))),
      textPatterns: union(defaultMarkers.textPatterns, optionalRegexList(blocksRaw.textPatterns, where("blocks.textPatterns"))),
    },
    consent: {
      urlPatterns: union(defaultConsent.urlPatterns, optionalRegexList(consentRaw.urlPatterns, where("consent.urlPatterns"))),
      selectors: union(defaultConsent.selectors, optionalStringList(consentRaw.selectors, where("consent.selectors"))),
      textPatterns: union(defaultConsent.textPatterns, optionalRegexList(consentRaw.textPatterns, where("consent.textPatterns"))),
      acceptTexts: union(defaultConsent.acceptTexts, optionalStringList(consentRaw.acceptTexts, where("consent.acceptTexts"))),
    },
    noResults: {
      selectors: optionalStringList(noResultsRaw.selectors, where("noResults.selectors")),
      textPatterns: optionalRegexList(noResultsRaw.textPatterns, where("noResults.textPatterns")),
    },
  };
}

/** The definition as it is written back into a wrapper file (defaults and common markers left out). */
export function definitionToJson(def: EngineDefinition): Record<string, unknown> {
  return {
    label: def.label,
    searchUrl: def.searchUrl,
    resultsPerPage: def.resultsPerPage,
    ...(def.maxQueryLength !== DEFAULT_MAX_QUERY_LENGTH ? { maxQueryLength: def.maxQueryLength } : {}),
    firstOffset: def.firstOffset,
    locale: def.locale,
    ...(def.timezone ? { timezone: def.timezone } : {}),
    ...(def.fetch !== "browser" ? { fetch: def.fetch } : {}),
    ...(def.userAgent ? { userAgent: def.userAgent } : {}),
    politeness: def.politeness,
    blocks: {
      httpStatus: def.blocks.httpStatus.filter((s) => !defaultMarkers.httpStatus.includes(s)),
      urlPatterns: def.blocks.urlPatterns.filter((s) => !defaultMarkers.urlPatterns.includes(s)),
      selectors: def.blocks.selectors.filter((s) => !defaultMarkers.selectors.includes(s)),
      textPatterns: def.blocks.textPatterns.filter((s) => !defaultMarkers.textPatterns.includes(s)),
    },
    consent: {
      urlPatterns: def.consent.urlPatterns.filter((s) => !defaultConsent.urlPatterns.includes(s)),
      selectors: def.consent.selectors.filter((s) => !defaultConsent.selectors.includes(s)),
      textPatterns: def.consent.textPatterns.filter((s) => !defaultConsent.textPatterns.includes(s)),
      acceptTexts: def.consent.acceptTexts.filter((s) => !defaultConsent.acceptTexts.includes(s)),
    },
    noResults: def.noResults,
  };
}

/** The URL of result page `page` (1-based) for a query. */
export function searchUrl(def: EngineDefinition, query: string, page: number): string {
  return fillTemplate(def.searchUrl, query, page, def.firstOffset, def.resultsPerPage);
}

/** Can the engine be asked for pages after the first (does its template carry a page or offset)? */
export function supportsPaging(def: EngineDefinition): boolean {
  return /\{(page|page0|offset)\}/.test(def.searchUrl);
}

const PLACEHOLDERS = new Set(["query", "page", "page0", "offset"]);

function fillTemplate(template: string, query: string, page: number, firstOffset: number, perPage: number): string {
  return template
    .replaceAll("{query}", encodeURIComponent(query))
    .replaceAll("{page0}", String(page - 1))
    .replaceAll("{page}", String(page))
    .replaceAll("{offset}", String(firstOffset + (page - 1) * perPage));
}

type Where = { file: string; field: string };

function optionalObject(v: unknown, where: Where): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw inputError(where, "must be an object");
  return v as Record<string, unknown>;
}

function optionalString(v: unknown, where: Where): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw inputError(where, "must be a string");
  return v;
}

function optionalFetchMode(v: unknown, where: Where): FetchMode | undefined {
  if (v === undefined || v === null) return undefined;
  if (!FETCH_MODES.includes(v as FetchMode)) throw inputError(where, `must be one of ${FETCH_MODES.map((m) => `"${m}"`).join(", ")}`);
  return v as FetchMode;
}

function optionalTimezone(v: unknown, where: Where): string | undefined {
  const tz = optionalString(v, where);
  if (tz === undefined) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
  } catch {
    throw inputError(where, `unknown time zone "${tz}" (an IANA name such as Asia/Shanghai)`);
  }
  return tz;
}

function optionalInt(v: unknown, where: Where, min: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) throw inputError(where, `must be an integer ≥ ${min}`);
  return v;
}

function optionalStringList(v: unknown, where: Where): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) throw inputError(where, "must be a list of strings");
  return v as string[];
}

function optionalIntList(v: unknown, where: Where): number[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => !Number.isInteger(s))) throw inputError(where, "must be a list of integers");
  return v as number[];
}

function optionalRegexList(v: unknown, where: Where): string[] {
  const list = optionalStringList(v, where);
  for (const p of list) {
    try {
      new RegExp(p, "i");
    } catch (err) {
      throw inputError(where, `bad regular expression ${JSON.stringify(p)}: ${(err as Error).message}`);
    }
  }
  return list;
}

function union<T>(base: readonly T[], extra: readonly T[]): T[] {
  return [...new Set([...base, ...extra])];
}
