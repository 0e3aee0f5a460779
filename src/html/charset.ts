/**
 * Turning the bytes of a saved or fetched page into text.
 *
 * Order of evidence, as browsers do it: byte-order mark, then the HTTP Content-Type header,
 * then a `<meta charset>` / `<meta http-equiv="Content-Type">` declaration near the top of
 * the document, then UTF-8. One correction for archived pages: a page whose bytes are valid
 * UTF-8 and contain multi-byte sequences is UTF-8, whatever a legacy declaration says
 * (archives often re-encode pages and keep the old `<meta>`); real GBK/Big5 text is
 * practically never valid UTF-8.
 */

export type CharsetSource = "override" | "bom" | "header" | "meta" | "utf8-valid" | "fallback" | "default";

export interface DecodedPage {
  text: string;
  /** WHATWG encoding name actually used, e.g. "utf-8", "gbk", "big5". */
  charset: string;
  source: CharsetSource;
}

/** How far into the document a `<meta>` charset declaration is looked for. */
const META_SCAN_BYTES = 64 * 1024;

export function decodeHtml(bytes: Uint8Array, options: { contentType?: string | null; override?: string } = {}): DecodedPage {
  if (options.override) {
    const enc = normaliseLabel(options.override);
    if (!enc) throw new Error(`unknown charset "${options.override}"`);
    return { text: decode(bytes, enc), charset: enc, source: "override" };
  }
  const bom = sniffBom(bytes);
  if (bom) return { text: decode(bytes.subarray(bom.length), bom.charset), charset: bom.charset, source: "bom" };

  const fromHeader = options.contentType ? charsetFromContentType(options.contentType) : null;
  const declared = fromHeader ?? charsetFromMeta(bytes);
  const source: CharsetSource = fromHeader ? "header" : "meta";

  if (declared && declared !== "utf-8") {
    if (isValidUtf8WithMultibyte(bytes)) return { text: decode(bytes, "utf-8"), charset: "utf-8", source: "utf8-valid" };
    return { text: decode(bytes, declared), charset: declared, source };
  }
  if (declared === "utf-8") return { text: decode(bytes, "utf-8"), charset: "utf-8", source };
  if (isValidUtf8(bytes)) return { text: decode(bytes, "utf-8"), charset: "utf-8", source: "default" };
  // Undeclared and not UTF-8: in the web this project mines, GB18030 (a superset of GBK/GB2312) is the likeliest.
  return { text: decode(bytes, "gb18030"), charset: "gb18030", source: "fallback" };
}

/** Map a charset label (as written in pages: "GB2312", "x-gbk", "UTF8", …) to the WHATWG encoding name. */
export function normaliseLabel(label: string): string | null {
  try {
    return new TextDecoder(label.trim().toLowerCase()).encoding;
  } catch {
    return null;
  }
}

export function charsetFromContentType(contentType: string): string | null {
  const m = /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return m?.[1] ? normaliseLabel(m[1]) : null;
}

/** Find a `<meta charset>` or `<meta http-equiv=content-type content="…charset=…">` in the document head. */
export function charsetFromMeta(bytes: Uint8Array): string | null {
  // Declarations are ASCII, so a latin1 view of the first bytes is enough to read them.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_SCAN_BYTES)).toString("latin1");
  const metaRe = /<meta\b[^>]*>/gi;
  for (let m = metaRe.exec(head); m; m = metaRe.exec(head)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct?.[1]) {
      const enc = normaliseLabel(direct[1]);
      if (enc) return enc === "utf-16le" || enc === "utf-16be" ? "utf-8" : enc; // as the HTML spec requires
    }
  }
  return null;
}

function sniffBom(bytes: Uint8Array): { charset: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: "utf-8", length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: "utf-16be", length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: "utf-16le", length: 2 };
  return null;
}

function decode(bytes: Uint8Array, charset: string): string {
  return new TextDecoder(charset).decode(bytes);
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function isValidUtf8WithMultibyte(bytes: Uint8Array): boolean {
  let hasHigh = false;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0x80) {
      hasHigh = true;
      break;
    }
  }
  return hasHigh && isValidUtf8(bytes);
}
