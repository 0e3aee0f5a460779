import { type Command, Option } from "commander";

/**
 * The flags of the browser that fetches result pages, one definition for every command that drives it
 * (`harvest`, `worker`, `daemon`); they are read into `BrowserSettings` by each command's flags.
 */
export function withBrowserOptions(command: Command): Command {
  return command
    .addOption(new Option("--chromium <path>", "Chromium executable").env("BITEXT_CHROMIUM"))
    .option(
      "--profile <dir>",
      "per-engine browser profiles, cookies kept between runs (default: $BITEXT_HOME/profiles or ~/.local/share/bitext/profiles)",
    )
    .option("--no-profile", "keep no cookies between runs")
    .option("--accept-consent", "accept cookie-consent interstitials through the page's own button (remembered in the profile)")
    .option("--trace <dir>", "write a Playwright trace (zip; npx playwright show-trace FILE) of every failed page into DIR")
    .addOption(
      new Option("--proxy <url>", "proxy (http, https or socks5; http://user:pass@host:port); repeat for several")
        .argParser(collect)
        .default([], "none"),
    )
    .option("--proxies <file>", "proxy list file, one URL a line; proxies are rotated per engine and rested when they fail");
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
