import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { assertWritable } from "../paths.js";

/**
 * Write a file so that readers see either the old content or the new, never a torn mix:
 * write a temporary sibling, fsync it, rename it over the target (atomic on POSIX), fsync the directory.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  assertWritable(path);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w");
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw named(err, path);
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}

/** A write's error (ENOSPC from writeSync names no file) with the file it was writing: the one the user knows. */
function named(err: unknown, path: string): unknown {
  if (err instanceof Error && (err as NodeJS.ErrnoException).path === undefined) (err as NodeJS.ErrnoException).path = path;
  return err;
}

/** JSON with a trailing newline, written atomically. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
