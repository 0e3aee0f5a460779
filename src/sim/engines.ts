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
}

export const SIM_ENGINES: readonly SimEngineSpec[] = [
  {
    name: "sim-list",
    label: "Simulated list-based engine (modelled on Bing)",
    searchPath: "/list/search",
    queryParam: "q",
    offsetParam: "first",
    firstOffset: 1,
    perPage: 10,
    layout: "list",
    switchLayout: "div-2023",
    locale: "en-US",
    redirectLinks: false,
  },
  {
    name: "sim-div",
    label: "Simulated div-based engine (modelled on Baidu 2018–2019)",
    searchPath: "/div/s",
    queryParam: "wd",
    offsetParam: "pn",
    firstOffset: 0,
    perPage: 10,
    layout: "div",
    switchLayout: "div-2023",
    locale: "zh-CN",
    redirectLinks: true,
  },
  {
    name: "sim-table",
    label: "Simulated table-based engine (modelled on Baidu 2010, feng2010 Fig. 1)",
    searchPath: "/table/s",
    queryParam: "wd",
    offsetParam: "pn",
    firstOffset: 0,
    perPage: 10,
    layout: "table",
    switchLayout: "div-2023",
    locale: "zh-CN",
    redirectLinks: false,
  },
];

/**
 * The engine definition (the `definition` section of a wrapper file) for a simulated engine served at
 * `origin`. Politeness is loopback-fast; block and no-results markers are those of the pages it serves.
 */
export function simEngineDefinition(spec: SimEngineSpec, origin: string, minDelayMs = 0): Record<string, unknown> {
  return {
    label: spec.label,
    searchUrl: `${origin}${spec.searchPath}?${spec.queryParam}={query}&${spec.offsetParam}={offset}`,
    resultsPerPage: spec.perPage,
    firstOffset: spec.firstOffset,
    locale: spec.locale,
    politeness: { minDelayMs, requestsPerMinute: 0, maxConcurrent: 4 },
    blocks: { urlPatterns: ["/wappass/"], selectors: [], textPatterns: [] },
    noResults: {
      selectors: [".b_no", ".nors"],
      textPatterns: ["There are no results for", "抱歉，没有找到"],
    },
  };
}
