import { existsSync } from "node:fs";

/** Debian's xvfb-run (package xvfb): a command run with a virtual display of its own. */
export const XVFB_RUN = "/usr/bin/xvfb-run";
export const hasXvfb = existsSync(XVFB_RUN);

/**
 * xvfb-run's options for a display searched from `first` (`-n first -a`). With `-a` alone every search starts at
 * :99, and two tests starting at once (one per vitest worker) can pick the same number: the second Chromium then
 * draws on the first test's Xvfb, which goes away with that test (seen in CI: the headed harvest read a page with
 * nothing on it). Each test that uses a display passes a `first` of its own, far from the others'.
 */
export function xvfbDisplayArgs(first: number): string[] {
  return ["-n", String(first), "-a"];
}
