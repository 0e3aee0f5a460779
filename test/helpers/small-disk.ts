import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BITEXT_ARGS, ROOT } from "./cli.js";

/**
 * A command run on a disk that fills up under it: a tmpfs of a given size, mounted in a private mount
 * namespace (`unshare -rm`: no root needed where user namespaces are allowed), holding a copy of `from`;
 * `bitext ARGS` runs from source with `{disk}` in its arguments (and `env`'s values) replaced by the tmpfs folder, and what it
 * left on the tmpfs is copied back to `out` afterwards (the tmpfs vanishes with the namespace).
 * A full tmpfs fails SQLite's writes where a full disk does (at commit, writing the WAL), unlike
 * `PRAGMA max_page_count`, which fails while the row is written.
 */

/** Why small disks cannot be made here (no `unshare`, or user namespaces refused); null when they can. */
export function smallDiskUnavailable(): string | null {
  const r = spawnSync("unshare", ["-rm", "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs $d && umount $d"], {
    encoding: "utf8",
  });
  if (r.error) return "full-disk tests skipped: unshare(1) is not installed";
  return r.status === 0 ? null : `full-disk tests skipped: cannot mount a tmpfs in a user namespace (${r.stderr.trim().split("\n")[0]})`;
}

/** Bytes the files in `dir` take on a tmpfs, in 4 KB pages (what it must hold before the command writes anything). */
export function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((n, f) => {
    const path = join(f.parentPath, f.name);
    return n + (f.isDirectory() ? 4096 + folderBytes(path) : Math.ceil(statSync(path).size / 4096) * 4096);
  }, 0);
}

export async function onSmallDisk(
  from: string,
  sizeBytes: number,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string; out: string }> {
  const disk = mkdtempSync(join(tmpdir(), "bitext-small-disk-"));
  const out = mkdtempSync(join(tmpdir(), "bitext-small-disk-out-"));
  const kb = Math.ceil(sizeBytes / 4096) * 4;
  const cli = [process.execPath, ...BITEXT_ARGS, ...args.map((a) => a.replaceAll("{disk}", disk))].map(shellQuote).join(" ");
  const script = [
    `mount -t tmpfs -o size=${kb}k tmpfs ${shellQuote(disk)}`,
    `cp -a ${shellQuote(from)}/. ${shellQuote(disk)}/`,
    `${cli}; rc=$?`,
    `cp -a ${shellQuote(disk)}/. ${shellQuote(out)}/`,
    "exit $rc",
  ].join("\n");
  const onDisk = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v?.replaceAll("{disk}", disk)]));
  const child = spawn("unshare", ["-rm", "sh", "-c", script], { cwd: ROOT, env: { ...process.env, ...onDisk } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  return { code, stdout, stderr, out };
}

/** A copy of a folder, to run a command on several small disks from one prepared state. */
export function copyFolder(from: string): string {
  const to = mkdtempSync(join(tmpdir(), "bitext-copy-"));
  cpSync(from, to, { recursive: true });
  return to;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
