import { once } from "node:events";
import { closeSync, createWriteStream, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";
import { assertWritable } from "../paths.js";

/**
 * Writing long outputs (exports, listings) as a stream with back-pressure: text is handed to the
 * stream in chunks of about 64 KB and the writer waits for `drain` whenever the stream's buffer is
 * full, so memory stays flat however many rows there are and a slow reader slows the writer down.
 */

const CHUNK = 64 * 1024;

/** Write every piece of text to `out`, waiting for the reader; resolves with the number of pieces. */
export async function writeAll(out: Writable | NodeJS.WritableStream, pieces: Iterable<string> | AsyncIterable<string>): Promise<number> {
  let buffer = "";
  let n = 0;
  for await (const piece of pieces) {
    buffer += piece;
    n++;
    if (buffer.length >= CHUNK) {
      await write(out, buffer);
      buffer = "";
    }
  }
  if (buffer) await write(out, buffer);
  return n;
}

async function write(out: Writable | NodeJS.WritableStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out as Writable, "drain");
}

/** A file written as a stream that appears under its name only when complete (temporary sibling + rename). */
export interface AtomicWriteStream {
  stream: Writable;
  /** Flush, fsync and rename over the target. */
  commit(): Promise<void>;
  /** Remove the temporary file (the target is untouched). */
  abort(): void;
}

export function openAtomicWriteStream(path: string): AtomicWriteStream {
  assertWritable(path);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const stream = createWriteStream(tmp);
  return {
    stream,
    async commit() {
      stream.end();
      await once(stream, "finish");
      const fd = openSync(tmp, "r+");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    },
    abort() {
      stream.destroy();
      rmSync(tmp, { force: true });
    },
  };
}

/** Write pieces of text to a file atomically, as a stream; nothing is left behind if it fails. */
export async function writeFileStreamed(path: string, pieces: Iterable<string> | AsyncIterable<string>): Promise<number> {
  const file = openAtomicWriteStream(path);
  try {
    const n = await writeAll(file.stream, pieces);
    await file.commit();
    return n;
  } catch (err) {
    file.abort();
    throw err;
  }
}
