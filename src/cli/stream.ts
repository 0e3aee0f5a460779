import { writeAll, writeFileStreamed } from "../io/index.js";

/**
 * Standard output as commands use it for long outputs, and the one place a closed pipe is handled.
 */

let installed = false;

/**
 * A reader that stops early (`bitext export records | head -3`) closes the pipe: the next write fails with
 * EPIPE. That is the reader's choice, not an error: the command ends quietly with status 0.
 */
export function handleClosedPipes(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE" || err.code === "ERR_STREAM_DESTROYED") process.exit(0);
      throw err;
    });
  }
}

/** Write lines (each piece already ends with "\n") to `out` (atomically) or to standard output, with back-pressure. */
export async function writeLinesTo(out: string | undefined, pieces: Iterable<string> | AsyncIterable<string>): Promise<number> {
  if (out) return writeFileStreamed(out, pieces);
  return writeAll(process.stdout, pieces);
}
