import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page, Response } from "playwright";
import { acceptLanguage, type BrowserIdentity, browserLanguages, chromeIdentity, timezoneForLocale } from "../browser/index.js";
import { launchChromium } from "../browser/index.js";
import { collectTagPaths, type TagPathSequence } from "../html/index.js";
import { consentReason, emptyObservation, type PageObservation, parseRetryAfter } from "./blocks.js";
import type { EngineDefinition } from "./engines.js";
import { describeNetError, describeTimeout, type FailureKind } from "./failures.js";
import { type CookieChanges, engineStateFile } from "./profile.js";
import { isLeaseError, leaseBeforeSend, type LoadOptions } from "./load-options.js";
import type { ProxyChoice, ProxyPool } from "./proxies.js";

/**
 * The Playwright driver: one Chromium, one browser context per engine (its locale, time zone, a real
 * Chrome user agent and client hints, its own cookies — saved in a profile folder between runs — and
 * its proxy), a small pool of reusable tabs per context. `load` navigates to a result page and, in the
 * page itself (already parsed by the browser), collects the tag-path sequence and the block / consent /
 * no-results signals in a single evaluation: the page is never re-parsed in Node on the hot path.
 */

export interface DriverOptions {
  /** Chromium executable (else $BITEXT_CHROMIUM, else /usr/bin/chromium). */
  executablePath?: string;
  headless?: boolean;
  /** The deadline of one page (load, evaluation in the page, reading the body). */
  timeoutMs?: number;
  /** Folder of per-engine browser state (cookies, local storage), loaded at start and saved at close; null: none kept. */
  profileDir?: string | null;
  /** Accept a consent interstitial through the page's own button (then the profile remembers it). */
  acceptConsent?: boolean;
  /** Folder for a Playwright trace (zip) of every failed page; null: no tracing. */
  traceDir?: string | null;
  /** Proxies, rotated per engine context; null: direct. */
  proxies?: ProxyPool | null;
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
  /** The text of the consent button clicked on the way to this page (null: none). */
  consentAccepted?: string | null;
  /** The proxy that served the page (its URL without credentials); null: direct. */
  proxy?: string | null;
  /** The path the page took: the browser (default) or a plain HTTP client. */
  fetchedWith?: "browser" | "http";
  /** With tracing on: keep (failed page) or drop this page's trace; returns the zip written, if any. */
  finishTrace?: (keep: boolean) => Promise<string | null>;
  timings: { navigateMs: number; evaluateMs: number; bodyMs: number; totalMs: number };
}

/** A page whose load failed: nothing came back but what was observed before, the failure named (and its proxy). */
export function failedLoad(
  observation: PageObservation,
  failure: { message: string; kind: FailureKind },
  proxy: string | null,
  timings: LoadedPage["timings"],
): LoadedPage {
  return {
    observation,
    seq: null,
    body: null,
    contentSha256: null,
    error: !proxy
      ? failure.message
      : failure.kind === "proxy"
        ? proxyFailure(proxy, failure.message)
        : `${failure.message} via proxy ${proxy}`,
    errorKind: failure.kind,
    proxy,
    timings,
  };
}

/** A proxy's own failure, named by the proxy: `proxy: http://10.0.0.2:3128 failed (net::ERR_PROXY_CONNECTION_FAILED)`. */
function proxyFailure(proxy: string, message: string): string {
  const why = /\(([^()]+)\)$/.exec(message)?.[1] ?? message.replace(/^proxy: /, "");
  return `proxy: ${proxy} failed (${why})`;
}

interface EngineSlot {
  context: BrowserContext;
  idle: Page[];
  script: string;
  stateFile: string | null;
  proxy: ProxyChoice | null;
  /** With tracing on, pages of a context are traced one at a time (a trace chunk is context-wide). */
  traceQueue: Promise<void>;
  /** Pages loading in it now; a retired slot (its proxy rested) closes when the last one ends. */
  inFlight: number;
  retired: boolean;
}

/** Where a tab goes after its load: reused (it loaded), handed to the caller (`keepPage`), or closed (it failed). */
type TabAfterLoad = "idle" | "caller" | "close";

/** Characters of page text kept for block / no-results text checks. */
const TEXT_CHARS = 6000;

interface Seen {
  seq: TagPathSequence;
  title: string;
  block: string[];
  none: string[];
  consent: string[];
}

export class SerpDriver {
  private readonly slots = new Map<string, Promise<EngineSlot>>();
  private closed = false;
  /** What the browser says about itself (the HTTP fast path presents the same). */
  readonly identity: BrowserIdentity;

  private constructor(
    readonly browser: Browser,
    /** The deadline of one page: load, evaluation in the page, and our interpretation of it. */
    readonly timeoutMs: number,
    private readonly o: DriverOptions,
  ) {
    this.identity = chromeIdentity(browser.version());
  }

  static async start(options: DriverOptions = {}): Promise<SerpDriver> {
    const browser = await launchChromium({
      ...(options.executablePath ? { executablePath: options.executablePath } : {}),
      headless: options.headless ?? true,
      // The harvest handles Ctrl-C itself (finish writes, mark the run, close the browser, exit 130).
      extra: { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false },
    });
    if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
    if (options.traceDir) mkdirSync(options.traceDir, { recursive: true });
    return new SerpDriver(browser, options.timeoutMs ?? 30_000, options);
  }

  /** The user agent pages see (for reports and tests). */
  get userAgent(): string {
    return this.identity.userAgent;
  }

  /** Load one result page of `def`'s engine and observe it. Never throws for network trouble: see `error`. */
  async load(def: EngineDefinition, url: string, options: LoadOptions = {}): Promise<LoadedPage> {
    return (await this.loadPage(def, url, { ...options, keepPage: false })).loaded;
  }

  /**
   * Like `load`, but with `keepPage` the tab stays open on the loaded page and is handed to the
   * caller (who closes it): `wrapper learn --preview` outlines the records on it.
   */
  async loadPage(
    def: EngineDefinition,
    url: string,
    options: LoadOptions & { keepPage: boolean },
  ): Promise<{ loaded: LoadedPage; page: Page | null }> {
    const slot = await this.currentSlot(def);
    slot.inFlight++;
    const finishTrace = this.o.traceDir ? await this.startTrace(slot, def, url) : undefined;
    const page = slot.idle.pop() ?? (await this.newPage(slot, def));
    let t0 = performance.now();
    let sent = !options.beforeSend;
    const timings = { navigateMs: 0, evaluateMs: 0, bodyMs: 0 };
    const observation: PageObservation = emptyObservation(url);
    const proxy = slot.proxy?.label ?? null;
    let tab: TabAfterLoad = "close";
    try {
      // The engine's lease last, once the context and the tab are ready: nothing lies between it and the request.
      await leaseBeforeSend(options, url);
      t0 = performance.now();
      sent = true;
      const v = await this.visit(page, slot, def, url, observation, t0, timings);
      tab = options.keepPage ? "caller" : "idle";
      slot.proxy?.succeeded();
      const loaded: LoadedPage = {
        observation,
        seq: v.seq,
        body: options.keepBody ? v.body : null,
        contentSha256: v.contentSha256,
        error: null,
        errorKind: null,
        consentAccepted: v.consentAccepted,
        proxy,
        ...(finishTrace ? { finishTrace } : {}),
        timings: { ...timings, totalMs: performance.now() - t0 },
      };
      return { loaded, page: options.keepPage ? page : null };
    } catch (err) {
      if (this.closed) throw new Error("driver closed");
      if (isLeaseError(err, sent)) throw err;
      const failure = navigationError(err, url, this.timeoutMs);
      if (sent) slot.proxy?.failed(failure.kind); // not a request stopped before it left
      const failedTimings = { ...timings, navigateMs: performance.now() - t0, totalMs: performance.now() - t0 };
      const loaded: LoadedPage = { ...failedLoad(observation, failure, proxy, failedTimings), ...(finishTrace ? { finishTrace } : {}) };
      return { loaded, page: null };
    } finally {
      this.release(slot, page, tab);
    }
  }

  /**
   * Navigate to `url`, observe the page (through its consent interstitial, if asked to accept it) and read
   * the body, all within one deadline; `timings` gets each phase as it ends (a failed load keeps those).
   */
  private async visit(
    page: Page,
    slot: EngineSlot,
    def: EngineDefinition,
    url: string,
    observation: PageObservation,
    t0: number,
    timings: { navigateMs: number; evaluateMs: number; bodyMs: number },
  ): Promise<{ seq: TagPathSequence; consentAccepted: string | null; body: Buffer | null; contentSha256: string | null }> {
    // One deadline for the whole page: navigation, the evaluation in the page and reading the body.
    const deadline = t0 + this.timeoutMs;
    let response = await gotoOrFail(page, url, this.timeoutMs);
    timings.navigateMs = performance.now() - t0;
    const t1 = performance.now();
    let seen = await this.observe(page, slot, observation, response, deadline);
    let consentAccepted: string | null = null;
    if (this.o.acceptConsent && consentReason(observation, def.consent)) {
      const accepted = await acceptConsent(page, def, deadline);
      if (accepted) {
        consentAccepted = accepted.text;
        response = accepted.response ?? response;
        seen = await this.observe(page, slot, observation, response, deadline);
        await this.saveState(slot);
      }
    }
    timings.evaluateMs = performance.now() - t1;
    let body: { body: Buffer | null; contentSha256: string | null } = { body: null, contentSha256: null };
    if (response) {
      const t2 = performance.now();
      body = await readBody(response, deadline);
      timings.bodyMs = performance.now() - t2;
    }
    return { seq: seen.seq, consentAccepted, ...body };
  }

  /** A tab after its load: back to the idle tabs, kept by the caller, or closed; a retired slot closes with its last tab. */
  private release(slot: EngineSlot, page: Page, tab: TabAfterLoad): void {
    // A tab whose navigation failed may be in any state: close it rather than reuse it.
    if (tab === "idle" && !this.closed && !slot.retired) slot.idle.push(page);
    else if (tab !== "caller") page.close().catch(() => {});
    slot.inFlight--;
    if (slot.retired && slot.inFlight === 0) slot.context.close().catch(() => {});
  }

  /**
   * Cookies the HTTP path received for the engine: an open context takes them at once (a context opened
   * later reads them from the profile file, where the HTTP path wrote them first).
   */
  async updateCookies(def: EngineDefinition, changes: CookieChanges): Promise<void> {
    const pending = this.slots.get(def.engine);
    if (!pending || this.closed) return;
    const { context } = await pending;
    for (const c of changes.removed) await context.clearCookies({ name: c.name, domain: c.domain, path: c.path });
    if (changes.set.length > 0) {
      await context.addCookies(changes.set.map(({ expires, ...c }) => (expires === -1 ? c : { ...c, expires })));
    }
  }

  /** A page through the engine's proxy was blocked: the proxy's breaker counts it. */
  proxyBlocked(def: EngineDefinition): void {
    void this.slots.get(def.engine)?.then((slot) => slot.proxy?.failed("blocked"));
  }

  /** The engine's context, or a fresh one through another proxy when its proxy is resting and another is not. */
  private async currentSlot(def: EngineDefinition): Promise<EngineSlot> {
    const slot = await this.slot(def);
    const pool = this.o.proxies;
    if (!slot.proxy?.resting() || !pool || pool.allResting()) return slot;
    this.slots.delete(def.engine);
    await this.saveState(slot).catch(() => {});
    slot.retired = true;
    for (const p of slot.idle.splice(0)) p.close().catch(() => {});
    if (slot.inFlight === 0) slot.context.close().catch(() => {});
    return this.slot(def);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Keep each engine's cookies (a consent given, a session) for the next run.
    for (const slot of this.slots.values()) await this.saveState(await slot).catch(() => {});
    this.closed = true;
    await this.browser.close().catch(() => {});
  }

  /** The page's observation, collected in the page in one evaluation (within the page's deadline). */
  private async observe(
    page: Page,
    slot: EngineSlot,
    observation: PageObservation,
    response: Response | null,
    deadline: number,
  ): Promise<Seen> {
    observation.finalUrl = page.url();
    observation.httpStatus = response?.status() ?? null;
    observation.retryAfterMs = parseRetryAfter(response?.headers()["retry-after"]);
    const seen = (await beforeDeadline(page.evaluate(slot.script), deadline, "reading the page")) as Seen;
    observation.title = seen.title;
    observation.blockSelectors = seen.block;
    observation.noResultsSelectors = seen.none;
    observation.consentSelectors = seen.consent;
    observation.text = pageText(seen.seq);
    return seen;
  }

  private async newPage(slot: EngineSlot, def: EngineDefinition): Promise<Page> {
    const page = await slot.context.newPage();
    // The client hints and navigator.userAgentData of a headed Chrome, not "HeadlessChrome"; the languages as a
    // plain list, from which Chromium makes Accept-Language (page and sub-requests) and navigator.languages.
    const cdp = await slot.context.newCDPSession(page);
    await cdp.send("Emulation.setUserAgentOverride", {
      userAgent: def.userAgent ?? this.identity.userAgent,
      acceptLanguage: browserLanguages(def.locale).join(","),
      platform: this.identity.platform,
      ...(def.userAgent ? {} : { userAgentMetadata: this.identity.metadata }),
    });
    return page;
  }

  private async saveState(slot: EngineSlot): Promise<void> {
    if (slot.stateFile) await slot.context.storageState({ path: slot.stateFile });
  }

  /** Begin tracing one page (waiting for the context's previous traced page); the returned function ends it. */
  private async startTrace(slot: EngineSlot, def: EngineDefinition, url: string): Promise<(keep: boolean) => Promise<string | null>> {
    let release!: () => void;
    const previous = slot.traceQueue;
    slot.traceQueue = new Promise<void>((r) => {
      release = r;
    });
    await previous;
    await slot.context.tracing.startChunk({ title: url });
    let done = false;
    return async (keep) => {
      if (done) return null;
      done = true;
      try {
        const path = keep ? join(this.o.traceDir!, `${def.engine}-${new Date().toISOString().replace(/[:.]/g, "-")}.zip`) : null;
        await slot.context.tracing.stopChunk(path ? { path } : {});
        return path;
      } finally {
        release();
      }
    };
  }

  private slot(def: EngineDefinition): Promise<EngineSlot> {
    let slot = this.slots.get(def.engine);
    if (!slot) {
      slot = (async () => {
        const stateFile = this.o.profileDir ? engineStateFile(this.o.profileDir, def.engine) : null;
        const proxy = this.o.proxies?.next(def.engine) ?? null;
        const settings = {
          locale: def.locale,
          timezoneId: def.timezone ?? timezoneForLocale(def.locale),
          userAgent: def.userAgent ?? this.identity.userAgent,
          // Playwright's locale would send the bare locale: the header Chromium makes from the languages, on every request.
          extraHTTPHeaders: { "Accept-Language": acceptLanguage(def.locale) },
          ...(proxy ? { proxy: proxy.playwright } : {}),
        };
        let context: BrowserContext;
        try {
          context = await this.browser.newContext({
            ...settings,
            ...(stateFile && existsSync(stateFile) ? { storageState: stateFile } : {}),
          });
        } catch {
          context = await this.browser.newContext(settings); // an unreadable saved state: start afresh (it is rewritten at close)
        }
        if (this.o.traceDir) await context.tracing.start({ screenshots: true, snapshots: true });
        return {
          context,
          idle: [],
          script: observerScript(def),
          stateFile,
          proxy,
          traceQueue: Promise.resolve(),
          inFlight: 0,
          retired: false,
        };
      })();
      this.slots.set(def.engine, slot);
    }
    return slot;
  }
}

/**
 * Click the consent interstitial's accepting button (the first of the engine's accept texts found on
 * the page, as a person would) and wait for the page it leads to. Null when no such button is found.
 */
async function acceptConsent(
  page: Page,
  def: EngineDefinition,
  deadline: number,
): Promise<{ text: string; response: Response | null } | null> {
  const timeout = Math.max(1, deadline - performance.now());
  const navigation = page.waitForNavigation({ waitUntil: "domcontentloaded", timeout });
  navigation.catch(() => {});
  const text = (await page.evaluate((texts: string[]) => {
    const candidates = [...document.querySelectorAll("button, input[type=submit], input[type=button], [role=button], a")] as HTMLElement[];
    const label = (el: HTMLElement) => (el.innerText || (el as HTMLInputElement).value || "").trim().toLowerCase();
    for (const t of texts) {
      const el = candidates.find((c) => label(c) === t.toLowerCase());
      if (el) {
        el.click();
        return t;
      }
    }
    return null;
  }, def.consent.acceptTexts)) as string | null;
  if (text === null) return null;
  return { text, response: await navigation };
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
 * The response body and its hash. Some responses (e.g. after a client-side redirect) have no retrievable
 * body: then both are null and the page is still observed; only the page's deadline fails the load.
 */
async function readBody(response: Response, deadline: number): Promise<{ body: Buffer | null; contentSha256: string | null }> {
  try {
    const body = await beforeDeadline(response.body(), deadline, "reading the body");
    return { body, contentSha256: createHash("sha256").update(body).digest("hex") };
  } catch (err) {
    if (err instanceof PageDeadline) throw err;
    return { body: null, contentSha256: null };
  }
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
