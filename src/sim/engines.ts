import type { LayoutName } from "./layouts/types.js";

/** One engine the simulator imitates: where it answers, how it pages, which layout it renders. */
export interface SimEngineSpec {
  name: string;
  label: string;
  /** Path of its search endpoint, e.g. `/list/search`. */
  searchPath: string;
  queryParam: string;
  offsetParam: string;
  firstOffset: number;
  perPage: number;
  layout: LayoutName;
  /** The layout it switches to on a "layout-switch" fault. */
  switchLayout: LayoutName;
  locale: string;
  /** Result links go through the engine's redirector (`/div/link?url=…`), as Baidu's do. */
  redirectLinks: boolean;
  /** IANA time zone the engine's definition asks for (null: the locale's usual one). */
  timezone?: string;
  /**
   * What makes the engine hard to harvest, as real engines are:
   * - `plain`: nothing (the three engines of the demo);
   * - `consent`: a cookie-consent interstitial until its "Accept all" (or "Reject all") button sets a cookie;
   * - `script`: the results are in the page only once its script has run (no records in the HTML);
   * - `strict-agent`: a captcha for a browser announcing itself as `HeadlessChrome` (user agent or client hints);
   * - `proxy-only`: reachable only through a proxy — its host name does not resolve, and the simulator
   *   answers for it only when asked as a proxy (`GET http://proxied.sim.invalid/…`).
   */
  trait: "plain" | "consent" | "script" | "strict-agent" | "proxy-only";
}

/** The host name of the proxy-only engine: it resolves nowhere, so only a proxy can reach it. */
export const PROXY_ONLY_HOST = "proxied.sim.invalid";

/** Paging by the first result's 1-based number (`first=11`), as the list-based engines do. */
const FIRST_PAGING = { queryParam: "q", offsetParam: "first", firstOffset: 1, perPage: 10 } as const;
/** Paging by a 0-based result offset (`pn=10`), as the div- and table-based engines do. */
const PN_PAGING = { queryParam: "wd", offsetParam: "pn", firstOffset: 0, perPage: 10 } as const;

export const SIM_ENGINES: readonly SimEngineSpec[] = [
  {
    name: "sim-list",
    label: "Simulated list-based engine (modelled on Bing)",
    searchPath: "/list/search",
    ...FIRST_PAGING,
    layout: "list",
    switchLayout: "div-2023",
    locale: "en-US",
    redirectLinks: false,
    trait: "plain",
  },
  {
    name: "sim-div",
    label: "Simulated div-based engine (modelled on Baidu 2018–2019)",
    searchPath: "/div/s",
    ...PN_PAGING,
    layout: "div",
    switchLayout: "div-2023",
    locale: "zh-CN",
    redirectLinks: true,
    trait: "plain",
  },
  {
    name: "sim-table",
    label: "Simulated table-based engine (modelled on Baidu 2010, feng2010 Fig. 1)",
    searchPath: "/table/s",
    ...PN_PAGING,
    layout: "table",
    switchLayout: "div-2023",
    locale: "zh-CN",
    redirectLinks: false,
    trait: "plain",
  },
  {
    name: "sim-eu",
    label: "Simulated engine behind a cookie-consent interstitial (as Google, Bing and Yandex in the EU)",
    searchPath: "/eu/search",
    queryParam: "q",
    offsetParam: "start",
    firstOffset: 0,
    perPage: 10,
    layout: "list",
    switchLayout: "div-2023",
    locale: "en-GB",
    timezone: "Europe/Dublin",
    redirectLinks: false,
    trait: "consent",
  },
  {
    name: "sim-script",
    label: "Simulated engine whose results are written by the page's script",
    searchPath: "/script/search",
    ...FIRST_PAGING,
    layout: "list",
    switchLayout: "div-2023",
    locale: "en-US",
    redirectLinks: false,
    trait: "script",
  },
  {
    name: "sim-strict",
    label: "Simulated engine that serves a captcha to HeadlessChrome",
    searchPath: "/strict/s",
    ...PN_PAGING,
    layout: "div",
    switchLayout: "div-2023",
    locale: "zh-CN",
    redirectLinks: false,
    trait: "strict-agent",
  },
  {
    name: "sim-proxied",
    label: "Simulated engine reachable only through a proxy",
    searchPath: "/proxied/s",
    ...PN_PAGING,
    layout: "table",
    switchLayout: "div-2023",
    locale: "zh-CN",
    redirectLinks: false,
    trait: "proxy-only",
  },
];

/**
 * The engine definition (the `definition` section of a wrapper file) for a simulated engine served at
 * `origin`. Politeness is loopback-fast; block and no-results markers are those of the pages it serves.
 */
export function simEngineDefinition(spec: SimEngineSpec, origin: string, minDelayMs = 0): Record<string, unknown> {
  const base = spec.trait === "proxy-only" ? `http://${PROXY_ONLY_HOST}` : origin;
  return {
    label: spec.label,
    searchUrl: `${base}${spec.searchPath}?${spec.queryParam}={query}&${spec.offsetParam}={offset}`,
    resultsPerPage: spec.perPage,
    firstOffset: spec.firstOffset,
    locale: spec.locale,
    ...(spec.timezone ? { timezone: spec.timezone } : {}),
    politeness: { minDelayMs, requestsPerMinute: 0, maxConcurrent: 4 },
    blocks: { urlPatterns: ["/wappass/"], selectors: [], textPatterns: [] },
    noResults: {
      selectors: [".b_no", ".nors"],
      textPatterns: ["There are no results for", "抱歉，没有找到"],
    },
  };
}
