import { createRequire } from "node:module";
import { cappedHtml } from "./parse.js";

// jsdom takes seconds to load: loaded on the first parse, so importing the html layer stays cheap.
type Jsdom = typeof import("jsdom");
let jsdom: Jsdom | undefined;
const loadJsdom = (): Jsdom => (jsdom ??= createRequire(import.meta.url)("jsdom") as Jsdom);

/**
 * Parse HTML into a full DOM (jsdom) — for code that needs the DOM API (the page analyser of
 * sentence-pair extraction). Scripts never run; `url` sets the document URL so relative links resolve.
 * jsdom is ~14× slower than parse5 alone: code that only needs tag paths uses `tagPathsFromHtml`.
 * The page first goes through the capped parse (`parse.ts`): past the caps it throws `PageSkipped`,
 * and jsdom only ever sees a tree nested at most `MAX_DEPTH` deep.
 */
export function parseDocument(html: string, url?: string): Document {
  const safe = cappedHtml(html);
  // Real pages carry CSS jsdom cannot parse; its complaints are noise, not errors of ours.
  const { JSDOM, VirtualConsole } = loadJsdom();
  const virtualConsole = new VirtualConsole();
  return new JSDOM(safe, { virtualConsole, ...(url ? { url } : {}) }).window.document;
}
