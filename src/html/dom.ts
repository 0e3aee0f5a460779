import { JSDOM, VirtualConsole } from "jsdom";

/**
 * Parse HTML into a full DOM (jsdom) — for code that needs the DOM API (the page analyser of
 * sentence-pair extraction). Scripts never run; `url` sets the document URL so relative links resolve.
 * jsdom is ~14× slower than parse5 alone: code that only needs tag paths uses `tagPathsFromHtml`.
 */
export function parseDocument(html: string, url?: string): Document {
  // Real pages carry CSS jsdom cannot parse; its complaints are noise, not errors of ours.
  const virtualConsole = new VirtualConsole();
  return new JSDOM(html, { virtualConsole, ...(url ? { url } : {}) }).window.document;
}
