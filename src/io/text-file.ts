import { readFileSync } from "node:fs";
import { inputError, UserError } from "../errors.js";

/**
 * Reading a user's text file (JSON, JSONL, TSV) so that whatever it holds, the answer is either its
 * text or one line `file:line: problem`: not UTF-8 (the line of the first bad byte), a NUL byte (binary,
 * not text), a line longer than the reader allows. A byte-order mark is dropped.
 */
export interface TextFileOptions {
  /** What the file should be, for messages ("wrapper file", "annotations", …). */
  what: string;
  /** Longest line accepted, in characters (line-based formats set it; one-line JSON does not). */
  maxLineLength?: number;
  /** Largest file accepted, in bytes (default 256 MiB). */
  maxBytes?: number;
  /** Appended to the "cannot read" message (e.g. a command to run). */
  hint?: string;
}

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

export function readUserTextFile(path: string, options: TextFileOptions): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a folder, not a file" : (code ?? String(err));
    throw new UserError(`${path}: cannot read ${options.what} (${why})${options.hint ?? ""}`);
  }
  return checkedText(bytes, path, options);
}

/** The UTF-8 text of `bytes` read from `path`, or the one-line error for its first problem. */
export function checkedText(bytes: Uint8Array, path: string, options: TextFileOptions): string {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes) {
    throw new UserError(
      `${path}: ${options.what} of ${bytes.length.toLocaleString("en")} bytes is larger than the ${maxBytes.toLocaleString("en")} accepted`,
    );
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw inputError({ file: path, line: lineAt(bytes, nul) }, `contains a NUL byte: binary, not a text ${options.what}`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw inputError({ file: path, line: lineAt(bytes, firstInvalidUtf8(bytes)) }, "not valid UTF-8");
  }
  if (options.maxLineLength !== undefined) {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || text.charCodeAt(i) === 10) {
        if (i - start > options.maxLineLength) {
          throw inputError(
            { file: path, line },
            `line of ${(i - start).toLocaleString("en")} characters is longer than the ${options.maxLineLength.toLocaleString("en")} accepted`,
          );
        }
        line++;
        start = i + 1;
      }
    }
  }
  return text;
}

/** 1-based line number of byte offset `at`. */
function lineAt(bytes: Uint8Array, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < bytes.length; i++) if (bytes[i] === 10) line++;
  return line;
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    // Overlong 3/4-byte forms, surrogates and code points past U+10FFFF.
    const c1 = bytes[i + 1] ?? 0;
    if ((b === 0xe0 && c1 < 0xa0) || (b === 0xed && c1 > 0x9f) || (b === 0xf0 && c1 < 0x90) || (b === 0xf4 && c1 > 0x8f)) return i;
    i += n + 1;
  }
  return bytes.length;
}
