/**
 * What the site methods need from one HTML page: its structural tag sequence (liu2014 S_struct), its
 * visible text (language, content similarity, size), its hyperlinks (the link graph of liu2014) and the
 * URLs a spider should also visit (`<link rel=alternate hreflang>`, meta refresh, sitemaps).
 * Pure: HTML and the page URL in, features out.
 */
import { parseHtml } from "../html/index.js";
import { type MinimalNode, TEXT_TAG } from "../html/index.js";

export interface PageFeatures {
  title: string;
  /** Tag names in document order, visual tags removed, each run of text as one `#text` (liu2014 §3.2). */
  tags: string[];
  /** All visible text (scripts and styles excluded), whitespace collapsed. */
  text: string;
  /** Visible text outside `<pre>`/`<code>`: the natural-language part, used to tell the page's language. */
  proseText: string;
  /** Absolute URLs of `<a href>`, `<area href>`, `<frame src>` and `<iframe src>`, fragments removed, in order. */
  links: string[];
  /** Other URLs a spider should visit: hreflang alternates and a meta refresh target. Not hyperlinks. */
  discover: string[];
  /** Sitemaps the page points to (`<link rel="sitemap">`). */
  sitemaps: string[];
}

/**
 * Visual (presentational) tags: STRAND and liu2014 leave them out of the structural sequence, since a
 * translator restyles words freely while the block structure stays.
 */
export const PRESENTATION_TAGS: ReadonlySet<string> = new Set([
  "b",
  "big",
  "blink",
  "br",
  "center",
  "em",
  "font",
  "i",
  "mark",
  "nobr",
  "s",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "sup",
  "tt",
  "u",
  "wbr",
]);

const CODE_TAGS = new Set(["pre", "code", "kbd", "samp", "tt"]);
/** Elements whose content is not visible text (their tag still counts in the structure). */
const HIDDEN_CONTENT_TAGS = new Set(["script", "style", "noscript", "template"]);

export function pageFeatures(html: string, pageUrl: string): PageFeatures {
  // The one capped parse entry: past the caps it throws PageSkipped; the walk never meets a tree deeper than the cap.
  const tree = parseHtml(html).document as unknown as MinimalNode;
  const walked = walkPage(tree);
  const base = resolveUrl(walked.baseHref ?? "", pageUrl) ?? pageUrl;
  const links: string[] = [];
  for (const href of walked.hrefs) {
    const abs = resolveUrl(href, base);
    if (abs) links.push(abs);
  }
  const extra = attributeTargets(tree, base);
  return {
    title: walked.title,
    tags: walked.tags,
    text: collapse(walked.textParts.join(" ")),
    proseText: collapse(walked.proseParts.join(" ")),
    links: links.concat(extra.links),
    discover: extra.discover,
    sitemaps: extra.sitemaps,
  };
}

/**
 * One pre-order walk of the parsed page: the structural tags, the text (with whether it is inside the
 * head's title or inside code), the raw `<a href>`s and the first `<base href>`. Iterative, with counters
 * for the ancestors that matter instead of tag-path strings, so work and memory stay linear in the page
 * however deep it nests (a page nested 100,000 elements deep must not overflow the stack or build
 * depth² paths). Blank text, comments and the content of script/style/noscript/template are skipped.
 */
function walkPage(root: MinimalNode): {
  tags: string[];
  textParts: string[];
  proseParts: string[];
  hrefs: string[];
  title: string;
  baseHref: string | null;
} {
  const tags: string[] = [];
  const textParts: string[] = [];
  const proseParts: string[] = [];
  const hrefs: string[] = [];
  let title = "";
  let baseHref: string | null = null;
  // Open ancestors of interest: how many head, title and code elements enclose the current node.
  let inHead = 0;
  let inTitle = 0;
  let inCode = 0;
  // The stack holds nodes to visit and, as strings, the closing of an element that changed a counter.
  const stack: Array<MinimalNode | string> = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === "string") {
      if (item === "head") inHead--;
      else if (item === "title") inTitle--;
      else inCode--;
      continue;
    }
    const name = item.nodeName.toLowerCase();
    if (name === "#text") {
      const text = item.value ?? item.nodeValue ?? "";
      if (!/\S/.test(text)) continue;
      if (tags[tags.length - 1] !== TEXT_TAG) tags.push(TEXT_TAG);
      if (inTitle > 0 && inHead > 0) {
        title = title || collapse(text); // the title is metadata, not body text
        continue;
      }
      textParts.push(text);
      if (inCode === 0) proseParts.push(text);
      continue;
    }
    const kids = item.childNodes;
    if (name === "#document" || name === "#document-fragment") {
      if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
      continue;
    }
    if (name.charAt(0) === "#" || name === "!doctype" || item.nodeType === 10 || item.nodeType === 8) continue;
    if (!PRESENTATION_TAGS.has(name)) tags.push(name);
    if (name === "a" || name === "base") {
      const href = item.attrs?.find((a) => a.name === "href")?.value ?? null;
      if (href !== null && name === "a") hrefs.push(href);
      else if (href !== null && baseHref === null) baseHref = href;
    }
    if (HIDDEN_CONTENT_TAGS.has(name) || !kids) continue;
    if (name === "head" || name === "title" || CODE_TAGS.has(name)) {
      if (name === "head") inHead++;
      else if (name === "title") inTitle++;
      else inCode++;
      stack.push(name);
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return { tags, textParts, proseParts, hrefs, title, baseHref };
}

/** Resolve `href` against `base`, dropping the fragment; null for unusable references (javascript:, mailto:, …). */
export function resolveUrl(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (!trimmed || trimmed.startsWith("#")) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "file:") return null;
  url.hash = "";
  return url.href;
}

/** Elements whose link targets live in attributes the tag-path walk does not keep. */
const ATTRIBUTE_LINK_TAGS = new Set(["frame", "iframe", "area", "link", "meta"]);
/** Elements whose content is not part of the page (parse5 keeps `<noscript>` content as text anyway). */
const OPAQUE_TAGS = new Set(["script", "style", "template"]);

/**
 * Frames, image-map areas, hreflang alternates, sitemaps and meta refresh, read from the parsed tree
 * (attribute values already entity-decoded by the parser).
 */
function attributeTargets(root: MinimalNode, base: string): { links: string[]; discover: string[]; sitemaps: string[] } {
  const links: string[] = [];
  const discover: string[] = [];
  const sitemaps: string[] = [];
  const stack: MinimalNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const tag = node.nodeName.toLowerCase();
    if (ATTRIBUTE_LINK_TAGS.has(tag)) {
      const attr = (name: string) => node.attrs?.find((a) => a.name === name)?.value ?? "";
      if (tag === "frame" || tag === "iframe") {
        const abs = resolveUrl(attr("src"), base);
        if (abs) links.push(abs);
      } else if (tag === "area") {
        const abs = resolveUrl(attr("href"), base);
        if (abs) links.push(abs);
      } else if (tag === "link") {
        const rel = attr("rel").toLowerCase().split(/\s+/);
        const abs = resolveUrl(attr("href"), base);
        if (abs && rel.includes("alternate") && attr("hreflang")) discover.push(abs);
        else if (abs && rel.includes("sitemap")) sitemaps.push(abs);
      } else if (attr("http-equiv").toLowerCase() === "refresh") {
        const target = /url\s*=\s*['"]?([^'"]+)/i.exec(attr("content"))?.[1];
        const abs = target ? resolveUrl(target, base) : null;
        if (abs) discover.push(abs);
      }
    }
    if (OPAQUE_TAGS.has(tag) || !node.childNodes) continue;
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return { links, discover, sitemaps };
}

function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
