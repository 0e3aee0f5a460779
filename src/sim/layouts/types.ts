/** What a simulated result page shows; each layout renders it in its own markup. */
export interface SerpView {
  /** The query as typed (unescaped). */
  query: string;
  /** 1-based page number. */
  page: number;
  perPage: number;
  /** Total hits for the query (all pages). */
  total: number;
  results: SerpResult[];
  ads: SerpAd[];
  /** Related searches (query strings). */
  related: string[];
  /** Link to page n of the same query, and to a search for another query (both already escaped for attributes). */
  pageHref(n: number): string;
  searchHref(query: string): string;
}

export interface SerpResult {
  /** Title with the query terms in <em> (already escaped). */
  titleHtml: string;
  /** The result link (an engine redirect link or the page URL). */
  href: string;
  /** The URL shown under the title. */
  displayUrl: string;
  snippetHtml: string;
  /** A date line some engines show. */
  date: string;
}

export interface SerpAd {
  title: string;
  href: string;
  displayUrl: string;
  text: string;
}

export type LayoutName = "list" | "div" | "div-2023" | "table";

export type Layout = (view: SerpView) => string;
