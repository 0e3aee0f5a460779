import { existsSync } from "node:fs";
import { type Browser, chromium, type LaunchOptions } from "playwright";
import { UserError } from "../errors.js";

/** Where Debian (and most Linux distributions) put Chromium. */
export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/**
 * Flags for Chromium on a closed network, looking like a person's: without the background ones, Chromium keeps
 * dialling Google services (component and safe-browsing updates, autofill, metrics, translation, domain
 * reliability, hyperlink pings) that this environment refuses and a harvest's proxies must not carry; without
 * AutomationControlled, `navigator.webdriver` stays false as in a browser nobody drives.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-blink-features=AutomationControlled",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-breakpad",
  "--safebrowsing-disable-auto-update",
  "--no-pings",
  "--no-default-browser-check",
  "--no-first-run",
  "--disable-quic",
];

/** Playwright's defaults that tell a page it is driven (`--enable-automation` sets navigator.webdriver, shows the infobar). */
export const CHROMIUM_DROPPED_DEFAULTS = ["--enable-automation"];

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
      ignoreDefaultArgs: CHROMIUM_DROPPED_DEFAULTS,
      ...(executablePath ? { executablePath } : {}),
      ...options.extra,
    });
  } catch (err) {
    const first = (err as Error).message.split("\n")[0];
    if (/Missing X server|\$DISPLAY|cannot open display/i.test((err as Error).message))
      throw new UserError(`Chromium (${executablePath ?? "Playwright's bundled browser"}) found no display to show its window on`, {
        kind: "no-display",
      });
    throw new UserError(
      `cannot start Chromium (${executablePath ?? "Playwright's bundled browser"}): ${first}. ` +
        "Install it (apt-get install chromium) or point BITEXT_CHROMIUM at a Chromium binary",
      { kind: "browser-missing" },
    );
  }
}
