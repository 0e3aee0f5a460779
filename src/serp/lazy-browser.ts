import { execFileSync } from "node:child_process";
import { type BrowserIdentity, chromeIdentity } from "../browser/index.js";
import { resolveChromiumPath } from "../browser/index.js";
import { type DriverOptions, type LoadedPage, SerpDriver } from "./driver.js";
import type { LoadOptions } from "./load-options.js";
import type { EngineDefinition } from "./engines.js";
import type { PageLoader } from "./page-runner.js";
import type { CookieChanges } from "./profile.js";

/**
 * The browser of a harvest or a worker, started at the first page that needs it: a run whose engines are all
 * fetched over plain HTTP (`--fetch http`, or `auto` engines that serve their results in the HTML) never
 * starts Chromium (seconds and hundreds of MB). The HTTP client still presents the identity of the installed Chromium.
 */
export class LazyBrowser implements PageLoader {
  private driver: Promise<SerpDriver> | null = null;

  constructor(private readonly o: DriverOptions & { timeoutMs: number }) {}

  get timeoutMs(): number {
    return this.o.timeoutMs;
  }

  get started(): boolean {
    return this.driver !== null;
  }

  async load(def: EngineDefinition, url: string, options: LoadOptions = {}): Promise<LoadedPage> {
    this.driver ??= SerpDriver.start(this.o);
    return (await this.driver).load(def, url, options);
  }

  /** Cookies the HTTP path received: for the engine's context if the browser is up (else the profile file has them). */
  async updateCookies(def: EngineDefinition, changes: CookieChanges): Promise<void> {
    if (this.driver) await (await this.driver).updateCookies(def, changes);
  }

  proxyBlocked(def: EngineDefinition): void {
    void this.driver?.then((d) => d.proxyBlocked(def));
  }

  /** The identity of the browser this loader would start, without starting it when its version can be asked. */
  async identity(): Promise<BrowserIdentity> {
    const path = resolveChromiumPath(this.o.executablePath);
    if (path && !this.driver) {
      try {
        const out = execFileSync(path, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 });
        const version = /(\d+\.\d+\.\d+\.\d+)/.exec(out)?.[1];
        if (version) return chromeIdentity(version);
      } catch {
        // asked below, from the browser itself
      }
    }
    this.driver ??= SerpDriver.start(this.o);
    return (await this.driver).identity;
  }

  async close(): Promise<void> {
    const d = this.driver;
    this.driver = null;
    if (d) await (await d.catch(() => null))?.close();
  }
}
