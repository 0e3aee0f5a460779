/**
 * What the site methods need from one HTML page: its structural tag sequence (liu2014 S_struct), its
 * visible text (language, content similarity, size), its hyperlinks (the link graph of liu2014) and the
 * URLs a spider should also visit (`<link rel=alternate hreflang>`, meta refresh, sitemaps).
 * Pure: HTML and the page URL in, features out.
 */
import { tagPathsFromHtml } from "../html/parse.js";
import { PATH_SEPARATOR, TEXT_TAG } from "../html/tagpaths.js";

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
  const seq = tagPathsFromHtml(html);
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
  const extra = scanTags(html, base);
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

const COMMENT_OR_SCRIPT = /<!--[\s\S]*?-->|<script\b[\s\S]*?<\/script\s*>|<style\b[\s\S]*?<\/style\s*>/gi;
const TAG_OF_INTEREST = /<(frame|iframe|area|link|meta)\b([^>]*)>/gi;
const ATTR = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g;

/**
 * Frames, image-map areas, hreflang alternates and meta refresh live in attributes the tag-path walk
 * does not keep; their tags are attribute-only, so a scan of the tags themselves finds them.
 */
function scanTags(html: string, base: string): { links: string[]; discover: string[]; sitemaps: string[] } {
  const links: string[] = [];
  const discover: string[] = [];
  const sitemaps: string[] = [];
  const source = html.replace(COMMENT_OR_SCRIPT, "");
  for (const m of source.matchAll(TAG_OF_INTEREST)) {
    const tag = m[1]!.toLowerCase();
    const attrs = new Map<string, string>();
    for (const a of m[2]!.matchAll(ATTR)) attrs.set(a[1]!.toLowerCase(), decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""));
    if (tag === "frame" || tag === "iframe") {
      const abs = resolveUrl(attrs.get("src") ?? "", base);
      if (abs) links.push(abs);
    } else if (tag === "area") {
      const abs = resolveUrl(attrs.get("href") ?? "", base);
      if (abs) links.push(abs);
    } else if (tag === "link") {
      const rel = (attrs.get("rel") ?? "").toLowerCase().split(/\s+/);
      if (rel.includes("alternate") && attrs.has("hreflang")) {
        const abs = resolveUrl(attrs.get("href") ?? "", base);
        if (abs) discover.push(abs);
      } else if (rel.includes("sitemap")) {
        const abs = resolveUrl(attrs.get("href") ?? "", base);
        if (abs) sitemaps.push(abs);
      }
    } else if ((attrs.get("http-equiv") ?? "").toLowerCase() === "refresh") {
      const target = /url\s*=\s*['"]?([^'"]+)/i.exec(attrs.get("content") ?? "")?.[1];
      const abs = target ? resolveUrl(target, base) : null;
      if (abs) discover.push(abs);
    }
  }
  return { links, discover, sitemaps };
}

function decodeEntities(s: string): string {
  return s.replace(/&(amp|#38|#x26);/gi, "&");
}

function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
