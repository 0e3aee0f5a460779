/**
 * What the site methods need from one HTML page: its structural tag sequence (liu2014 S_struct), its
 * visible text (language, content similarity, size), its hyperlinks (the link graph of liu2014) and the
 * URLs a spider should also visit (`<link rel=alternate hreflang>`, meta refresh, sitemaps).
 * Pure: HTML and the page URL in, features out.
 */
import { parse } from "parse5";
import { collectTagPaths, type MinimalNode, PATH_SEPARATOR, TEXT_TAG } from "../html/tagpaths.js";

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
export const VISUAL_TAGS: ReadonlySet<string> = new Set([
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

export function pageFeatures(html: string, pageUrl: string): PageFeatures {
  // One parse: the tag-path walk and the attribute-only link tags both read the same parse5 tree.
  const tree = parse(html) as unknown as MinimalNode;
  const seq = collectTagPaths(tree);
  const base = resolveUrl(seq.baseHref ?? "", pageUrl) ?? pageUrl;
  const tags: string[] = [];
  const textParts: string[] = [];
  const proseParts: string[] = [];
  const links: string[] = [];
  let title = "";
  for (let p = 0; p < seq.pathIds.length; p++) {
    const path = seq.paths[seq.pathIds[p]!]!;
    const cut = path.lastIndexOf(PATH_SEPARATOR);
    const tag = cut < 0 ? path : path.slice(cut + 1);
    const text = seq.texts[p];
    if (tag === TEXT_TAG && text != null) {
      if (tags[tags.length - 1] !== TEXT_TAG) tags.push(TEXT_TAG);
      const parentTags = path.split(PATH_SEPARATOR);
      if (parentTags.includes("title") && parentTags.includes("head")) {
        title = title || collapse(text);
        continue; // the title is metadata, not body text
      }
      textParts.push(text);
      if (!parentTags.some((t) => CODE_TAGS.has(t))) proseParts.push(text);
      continue;
    }
    if (!VISUAL_TAGS.has(tag)) tags.push(tag);
    const href = seq.hrefs[p];
    if (href != null) {
      const abs = resolveUrl(href, base);
      if (abs) links.push(abs);
    }
  }
  const extra = attributeTargets(tree, base);
  return {
    title,
    tags,
    text: collapse(textParts.join(" ")),
    proseText: collapse(proseParts.join(" ")),
    links: links.concat(extra.links),
    discover: extra.discover,
    sitemaps: extra.sitemaps,
  };
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
