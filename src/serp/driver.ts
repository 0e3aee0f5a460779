import { createHash } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright";
import { launchChromium } from "../browser/launch.js";
import { collectTagPaths, type TagPathSequence } from "../html/tagpaths.js";
import type { PageObservation } from "./blocks.js";
import type { EngineDefinition } from "./engines.js";
import { describeNetError, describeTimeout, type FailureKind } from "./failures.js";

/**
 * The Playwright driver: one Chromium, one browser context per engine (its locale and user agent,
 * its own cookies), a small pool of reusable tabs per context. `load` navigates to a result page and,
 * in the page itself (already parsed by the browser), collects the tag-path sequence and the block /
 * no-results signals in a single evaluation: the page is never re-parsed in Node on the hot path.
 */

export interface DriverOptions {
  /** Chromium executable (else $BITEXT_CHROMIUM, else /usr/bin/chromium). */
  executablePath?: string;
  headless?: boolean;
  /** Navigation timeout per page. */
  timeoutMs?: number;
}

export interface LoadedPage {
  observation: PageObservation;
  /** The tag-path sequence, collected in the page; null when the navigation failed. */
  seq: TagPathSequence | null;
  /** The response body as received (for the content hash and, if asked, the stored HTML). */
  body: Buffer | null;
  contentSha256: string | null;
  /** Navigation failure, named (`refused: connection refused: host:port (net::ERR_CONNECTION_REFUSED)`); null when a response arrived. */
  error: string | null;
  /** The kind of that failure; null when a response arrived. */
  errorKind: FailureKind | null;
  timings: { navigateMs: number; evaluateMs: number; bodyMs: number; totalMs: number };
}

interface EngineSlot {
  context: BrowserContext;
  idle: Page[];
  script: string;
}

/** Characters of page text kept for block / no-results text checks. */
const TEXT_CHARS = 6000;

export class SerpDriver {
  private readonly slots = new Map<string, Promise<EngineSlot>>();
  private closed = false;

  private constructor(
    readonly browser: Browser,
    /** The deadline of one page: load, evaluation in the page, and our interpretation of it. */
    readonly timeoutMs: number,
  ) {}

  static async start(options: DriverOptions = {}): Promise<SerpDriver> {
    const browser = await launchChromium({
      ...(options.executablePath ? { executablePath: options.executablePath } : {}),
      headless: options.headless ?? true,
      // The harvest handles Ctrl-C itself (finish writes, mark the run, close the browser, exit 130).
      extra: { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false },
    });
    return new SerpDriver(browser, options.timeoutMs ?? 30_000);
  }

  /** Load one result page of `def`'s engine and observe it. Never throws for network trouble: see `error`. */
  async load(def: EngineDefinition, url: string, options: { keepBody?: boolean } = {}): Promise<LoadedPage> {
    return (await this.loadPage(def, url, { ...options, keepPage: false })).loaded;
  }

  /**
   * Like `load`, but with `keepPage` the tab stays open on the loaded page and is handed to the
   * caller (who closes it): `wrapper learn --preview` outlines the records on it.
   */
  async loadPage(
    def: EngineDefinition,
    url: string,
    options: { keepBody?: boolean; keepPage: boolean },
  ): Promise<{ loaded: LoadedPage; page: Page | null }> {
    const slot = await this.slot(def);
    const page = slot.idle.pop() ?? (await slot.context.newPage());
    const t0 = performance.now();
    // One deadline for the whole page: navigation, the evaluation in the page and reading the body.
    const deadline = t0 + this.timeoutMs;
    let navigateMs = 0;
    let evaluateMs = 0;
    let bodyMs = 0;
    const observation: PageObservation = {
      requestUrl: url,
      finalUrl: url,
      httpStatus: null,
      title: "",
      text: "",
      blockSelectors: [],
      noResultsSelectors: [],
      consentSelectors: [],
    };
    let reusable = false;
    let handedOver = false;
    try {
      const response = await gotoOrFail(page, url, this.timeoutMs);
      navigateMs = performance.now() - t0;
      observation.finalUrl = page.url();
      observation.httpStatus = response?.status() ?? null;
      const t1 = performance.now();
      const seen = (await beforeDeadline(page.evaluate(slot.script), deadline, "reading the page")) as {
        seq: TagPathSequence;
        title: string;
        block: string[];
        none: string[];
        consent: string[];
      };
      evaluateMs = performance.now() - t1;
      observation.title = seen.title;
      observation.blockSelectors = seen.block;
      observation.noResultsSelectors = seen.none;
      observation.consentSelectors = seen.consent;
      observation.text = pageText(seen.seq);
      let body: Buffer | null = null;
      let contentSha256: string | null = null;
      if (response) {
        const t2 = performance.now();
        try {
          body = await beforeDeadline(response.body(), deadline, "reading the body");
          contentSha256 = createHash("sha256").update(body).digest("hex");
        } catch (err) {
          if (err instanceof PageDeadline) throw err;
          // Some responses (e.g. after a client-side redirect) have no retrievable body; the page is still observed.
        }
        bodyMs = performance.now() - t2;
      }
      reusable = true;
      const loaded: LoadedPage = {
        observation,
        seq: seen.seq,
        body: options.keepBody ? body : null,
        contentSha256,
        error: null,
        errorKind: null,
        timings: { navigateMs, evaluateMs, bodyMs, totalMs: performance.now() - t0 },
      };
      if (options.keepPage) {
        handedOver = true;
        return { loaded, page };
      }
      return { loaded, page: null };
    } catch (err) {
      if (this.closed) throw new Error("driver closed");
      const failure = navigationError(err, url, this.timeoutMs);
      const loaded: LoadedPage = {
        observation,
        seq: null,
        body: null,
        contentSha256: null,
        error: failure.message,
        errorKind: failure.kind,
        timings: { navigateMs: performance.now() - t0, evaluateMs, bodyMs, totalMs: performance.now() - t0 },
      };
      return { loaded, page: null };
    } finally {
      // A tab whose navigation failed may be in any state: close it rather than reuse it.
      if (handedOver) {
        // the caller closes it
      } else if (reusable && !this.closed) slot.idle.push(page);
      else page.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.browser.close().catch(() => {});
  }

  private slot(def: EngineDefinition): Promise<EngineSlot> {
    let slot = this.slots.get(def.engine);
    if (!slot) {
      slot = (async () => {
        const context = await this.browser.newContext({
          locale: def.locale,
          ...(def.userAgent ? { userAgent: def.userAgent } : {}),
          extraHTTPHeaders: { "Accept-Language": acceptLanguage(def.locale) },
        });
        return { context, idle: [], script: observerScript(def) };
      })();
      this.slots.set(def.engine, slot);
    }
    return slot;
  }
}

/**
 * The expression evaluated in each result page: the tag-path sequence (the same `collectTagPaths`
 * that runs offline) plus the title and which block / no-results selectors match — one round trip.
 */
export function observerScript(def: EngineDefinition): string {
  return `(() => {
  const collect = ${collectTagPaths.toString()};
  const has = (selectors) => selectors.filter((s) => { try { return document.querySelector(s) !== null; } catch (e) { return false; } });
  return {
    seq: collect(document),
    title: document.title || "",
    block: has(${JSON.stringify(def.blocks.selectors)}),
    none: has(${JSON.stringify(def.noResults.selectors)}),
    consent: has(${JSON.stringify(def.consent.selectors)}),
  };
})()`;
}

/** The page's text, from the text positions of its tag-path sequence (scripts and styles excluded). */
export function pageText(seq: TagPathSequence, max = TEXT_CHARS): string {
  let out = "";
  for (const t of seq.texts) {
    if (t === null) continue;
    out += `${t.trim()} `;
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

/**
 * `page.goto`, but failing as soon as the main document's request fails: a connection reset in the
 * middle of the body commits a half page that never reaches DOMContentLoaded, and goto would only
 * notice at its timeout.
 */
async function gotoOrFail(page: Page, url: string, timeoutMs: number) {
  let onFailed: ((req: import("playwright").Request) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    onFailed = (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) {
        reject(new Error(req.failure()?.errorText ?? "net::ERR_FAILED"));
      }
    };
    page.on("requestfailed", onFailed);
  });
  failed.catch(() => {});
  try {
    return await Promise.race([page.goto(url, { waitUntil: "domcontentloaded", timeout: timeoutMs }), failed]);
  } finally {
    page.off("requestfailed", onFailed!);
  }
}

function acceptLanguage(locale: string): string {
  const lang = locale.split("-")[0];
  return lang && lang !== locale ? `${locale},${lang};q=0.9,en;q=0.5` : `${locale},en;q=0.5`;
}

/** A failed load, named: which kind of failure, at which host. */
export function navigationError(err: unknown, url: string, timeoutMs: number): { kind: FailureKind; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  const net = /net::[A-Z_0-9]+/.exec(message);
  if (net) return describeNetError(net[0], url);
  if (err instanceof PageDeadline) return describeTimeout(url, timeoutMs, `page not processed (${err.phase})`);
  if (/Timeout \d+ms exceeded/i.test(message)) return describeTimeout(url, timeoutMs);
  return { kind: "network", message: `network: ${message.split("\n")[0]!.slice(0, 200)}` };
}

/** The page's deadline passed in a phase after the navigation (evaluation in the page, reading the body). */
export class PageDeadline extends Error {
  constructor(readonly phase: string) {
    super(`page deadline passed during ${phase}`);
  }
}

/** `work`, or a PageDeadline when `deadline` (performance.now() time) comes first. */
async function beforeDeadline<T>(work: Promise<T>, deadline: number, phase: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageDeadline(phase)), Math.max(0, deadline - performance.now()));
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
