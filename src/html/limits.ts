/**
 * Bounds on the work one page may cost. Real pages in the project's data stay far below them
 * (largest 1.1 MB, 10,656 elements, 50 levels deep); hostile or broken ones (a page nested
 * 100,000 deep, a million tiny elements, 50 MB of text, binary served as HTML) meet them and are
 * capped (nesting, as browsers do) or skipped with a typed, counted reason — never a crash.
 */

import { UserError } from "../errors.js";

/** Browsers stop nesting here (Blink's kMaximumHTMLParserDOMTreeDepth): deeper elements become siblings. */
export const MAX_DEPTH = 512;
/**
 * A page with more elements than this is skipped: about 20× the largest real page seen, so a long real glossary or
 * a page nested 100,000 deep (capped, then read) still goes through, while parse5 stays near 200 MB at the cap.
 */
export const MAX_ELEMENTS = 200_000;
/** A page larger than this (bytes, or UTF-16 code units once decoded) is skipped. */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;
/** Share of control characters above which a body is binary, not text (real HTML has none but tab, CR, LF, FF). */
const MAX_CONTROL_SHARE = 0.005;

export type PageSkipReason = "too-large" | "too-many-elements" | "binary" | "too-deep";

/**
 * A page past the caps. Callers that process many pages catch it, count `reason` and go on;
 * a command given one page lets it through as the one-line error it is (a `UserError`: the page is input).
 */
export class PageSkipped extends UserError {
  readonly reason: PageSkipReason;
  readonly detail: string;

  constructor(reason: PageSkipReason, detail: string, where?: string) {
    super(`${where ? `${where}: ` : ""}page skipped (${reason}): ${detail}`, { kind: "page-skipped" });
    this.name = "PageSkipped";
    this.reason = reason;
    this.detail = detail;
  }

  /** The same skip, its message prefixed with the file or URL it is about. */
  at(where: string): PageSkipped {
    return new PageSkipped(this.reason, this.detail, where);
  }
}

export function isPageSkipped(err: unknown): err is PageSkipped {
  return err instanceof PageSkipped;
}

/** Throw `PageSkipped` when raw page bytes are over the size cap or are binary rather than text. */
export function checkPageBytes(bytes: Uint8Array, where?: string): void {
  if (bytes.length > MAX_PAGE_BYTES) throw tooLarge(bytes.length, where);
  // UTF-16 pages are full of NULs and are text: their BOM says so (charset.ts decodes them).
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) return;
  let control = 0;
  for (let i = 0; i < bytes.length; i++) if (isControl(bytes[i]!)) control++;
  if (control > bytes.length * MAX_CONTROL_SHARE) throw binary(control, bytes.length, where);
}

/** Throw `PageSkipped` when decoded page text is over the size cap or is binary rather than text. */
export function checkPageText(text: string): void {
  if (text.length > MAX_PAGE_BYTES) throw tooLarge(text.length);
  // Real pages have no control characters: one regex scan (native, several times faster than a
  // character loop, which cost more than the parse itself on the HTTP harvest path) settles them.
  if (!CONTROL.test(text)) return;
  let control = 0;
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) control++;
  if (control > text.length * MAX_CONTROL_SHARE) throw binary(control, text.length);
}

/** The characters `isControl` counts, as a character class. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job
const CONTROL = /[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]/;

/** C0 controls other than tab, LF, FF, CR and ESC (ISO-2022 text uses ESC). */
function isControl(c: number): boolean {
  return c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d && c !== 0x1b;
}

function tooLarge(size: number, where?: string): PageSkipped {
  return new PageSkipped("too-large", `${size.toLocaleString("en")} bytes (cap ${MAX_PAGE_BYTES.toLocaleString("en")})`, where);
}

function binary(control: number, size: number, where?: string): PageSkipped {
  return new PageSkipped("binary", `${control.toLocaleString("en")} control bytes in ${size.toLocaleString("en")}: not text`, where);
}

/**
 * Why a page could not be processed, as stored beside it so later runs skip it: the cap it passed,
 * or the error its processing ended in (a stack overflow in a tree walk is a `RangeError`).
 */
export function unprocessableReason(err: unknown): string {
  if (err instanceof PageSkipped) return `${err.reason}: ${err.detail}`;
  if (err instanceof Error) return `${err.name}: ${err.message.split("\n")[0]}`;
  return String(err);
}
