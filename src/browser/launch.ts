import { existsSync } from "node:fs";
import { type Browser, chromium, type LaunchOptions } from "playwright";
import { UserError } from "../errors.js";

/** Where Debian (and most Linux distributions) put Chromium. */
export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/**
 * Flags for a headless Chromium on a closed network: without the background-networking ones,
 * Chromium keeps dialling Google services that this environment refuses.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * The Chromium executable to drive: an explicit path, else `$BITEXT_CHROMIUM`, else Debian's
 * `/usr/bin/chromium`, else `undefined` (Playwright's own browser, for users who ran
 * `npx playwright install chromium`).
 */
export function resolveChromiumPath(explicit?: string): string | undefined {
  const chosen = explicit ?? process.env.BITEXT_CHROMIUM;
  if (chosen) {
    if (!existsSync(chosen)) throw new UserError(`chromium executable not found: ${chosen}`);
    return chosen;
  }
  return existsSync(DEFAULT_CHROMIUM) ? DEFAULT_CHROMIUM : undefined;
}

export async function launchChromium(
  options: { executablePath?: string; headless?: boolean; extra?: LaunchOptions } = {},
): Promise<Browser> {
  const executablePath = resolveChromiumPath(options.executablePath);
  try {
    return await chromium.launch({
      headless: options.headless ?? true,
      args: CHROMIUM_ARGS,
      ...(executablePath ? { executablePath } : {}),
      ...options.extra,
    });
  } catch (err) {
    const first = (err as Error).message.split("\n")[0];
    throw new UserError(
      `cannot start Chromium (${executablePath ?? "Playwright's bundled browser"}): ${first}. ` +
        "Install it (apt-get install chromium) or point BITEXT_CHROMIUM at a Chromium binary",
      { kind: "browser-missing" },
    );
  }
}
