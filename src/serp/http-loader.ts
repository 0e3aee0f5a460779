import { createHash } from "node:crypto";
import { type Dispatcher, ProxyAgent, request } from "undici";
import { acceptLanguage, type BrowserIdentity } from "../browser/index.js";
import { isPageSkipped } from "../html/index.js";
import { emptyObservation, type PageObservation, parseRetryAfter } from "./blocks.js";
import { failedLoad, type LoadedPage, pageText } from "./driver.js";
import { isLeaseError, leaseBeforeSend, type LoadOptions } from "./load-options.js";
import type { EngineDefinition } from "./engines.js";
import { describeTimeout, type FailureKind } from "./failures.js";
import { observeHtml } from "./http-page.js";
import {
  applyCookieChanges,
  type CookieChanges,
  cookieHeader,
  engineStateFile,
  type ProfileCookie,
  parseSetCookie,
  readProfileCookies,
  saveProfileCookies,
} from "./profile.js";
import type { ProxyChoice, ProxyPool } from "./proxies.js";

/**
 * The HTTP fast path: a result page fetched with a plain HTTP client — the browser's headers (user
 * agent, client hints, Accept-Language), the cookies of the engine's profile, its proxy — and read
 * with parse5 + the wrapper instead of a browser load. Redirects are followed once, by us, so the
 * page observed, hashed and stored is the one download. Pages that need script, consent or a
 * captcha are for the browser: fetch mode `auto` falls back to it (see the page runner).
 */

export interface HttpLoaderOptions {
  /** The deadline of one page (request, body and our reading of it). */
  timeoutMs: number;
  /** The identity the browser presents (same user agent and client hints). */
  identity: BrowserIdentity;
  /** Per-engine browser state folder: its cookies are sent; null: none. */
  profileDir?: string | null;
  proxies?: ProxyPool | null;
  /** Largest body read (bytes); a larger page is cut there. */
  maxBytes?: number;
  /**
   * Cookies set or removed by a response, after they are in the profile file: the browser's context for the
   * engine, if it is open, takes them too (`SerpDriver.updateCookies`), so both paths see the same session.
   */
  onCookies?: (def: EngineDefinition, changes: CookieChanges) => void | Promise<void>;
}

const MAX_REDIRECTS = 5;
/** Chromium's Accept for a page navigation. */
const NAVIGATION_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
const MAX_BYTES = 5 * 1024 * 1024;

interface EngineHttp {
  cookies: ProfileCookie[];
  /** The engine's profile file (null: no profile kept). */
  stateFile: string | null;
  proxy: ProxyChoice | null;
  dispatcher: Dispatcher | undefined;
}

export class HttpLoader {
  private readonly engines = new Map<string, EngineHttp>();
  /** Cookie updates handed to the browser and not yet taken (awaited at close, before the browser saves its state). */
  private readonly handing = new Set<Promise<void>>();

  constructor(private readonly o: HttpLoaderOptions) {
    for (const p of o.proxies?.specs ?? []) {
      if (p.label.startsWith("socks5:"))
        throw new Error(`fetch mode http: socks5 proxy ${p.label} is for the browser only (use http(s) proxies, or fetch "browser")`);
    }
  }

  get timeoutMs(): number {
    return this.o.timeoutMs;
  }

  async load(def: EngineDefinition, url: string, options: LoadOptions = {}): Promise<LoadedPage> {
    const state = this.engine(def);
    let t0 = performance.now();
    const observation: PageObservation = emptyObservation(url);
    const proxy = state.proxy?.label ?? null;
    let current = url;
    let sent = false;
    try {
      await leaseBeforeSend(options, url); // the engine's lease, right before the request
      t0 = performance.now();
      sent = true;
      const signal = AbortSignal.timeout(this.o.timeoutMs);
      let res: Dispatcher.ResponseData | null = null;
      for (let hop = 0; ; hop++) {
        res = await request(current, {
          method: "GET",
          headers: this.headers(def, current, state),
          signal,
          ...(state.dispatcher ? { dispatcher: state.dispatcher } : {}),
        });
        this.remember(def, state, current, res.headers["set-cookie"]);
        const location = res.headers.location;
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === "string" && hop < MAX_REDIRECTS) {
          await res.body.dump();
          current = new URL(location, current).href;
          continue;
        }
        break;
      }
      const body = await readCapped(res.body, this.o.maxBytes ?? MAX_BYTES);
      const navigateMs = performance.now() - t0;
      const t1 = performance.now();
      const contentType = typeof res.headers["content-type"] === "string" ? res.headers["content-type"] : null;
      const seen = observeHtml(body, contentType, def);
      observation.finalUrl = current;
      observation.httpStatus = res.statusCode;
      observation.retryAfterMs = parseRetryAfter(res.headers["retry-after"]);
      observation.title = seen.title;
      observation.blockSelectors = seen.block;
      observation.noResultsSelectors = seen.none;
      observation.consentSelectors = seen.consent;
      observation.text = pageText(seen.seq);
      state.proxy?.succeeded();
      if (performance.now() - t0 > this.o.timeoutMs)
        throw describeTimeout(current, this.o.timeoutMs, "page not processed (reading the page)");
      return {
        observation,
        seq: seen.seq,
        body: options.keepBody ? body : null,
        contentSha256: createHash("sha256").update(body).digest("hex"),
        error: null,
        errorKind: null,
        proxy,
        fetchedWith: "http",
        timings: { navigateMs, evaluateMs: performance.now() - t1, bodyMs: 0, totalMs: performance.now() - t0 },
      };
    } catch (err) {
      if (isLeaseError(err, sent)) throw err;
      const failure = isNamed(err) ? err : httpError(err, current, this.o.timeoutMs, state.proxy?.label ?? null);
      if (sent && failure.kind !== "http") state.proxy?.failed(failure.kind); // not a request stopped before it left
      const timings = { navigateMs: performance.now() - t0, evaluateMs: 0, bodyMs: 0, totalMs: performance.now() - t0 };
      return { ...failedLoad(observation, failure, proxy, timings), fetchedWith: "http" };
    }
  }

  /**
   * Keep the cookies a response sets (an expired one removes it) for the rest of the run, in the engine's
   * profile for later runs and in the browser's context: the HTTP path and the browser share one session.
   */
  private remember(def: EngineDefinition, state: EngineHttp, url: string, header: string | string[] | undefined): void {
    const changes = parseSetCookie(url, header);
    if (changes.set.length === 0 && changes.removed.length === 0) return;
    applyCookieChanges(state.cookies, changes);
    if (state.stateFile) saveProfileCookies(state.stateFile, changes);
    if (!this.o.onCookies) return;
    const p: Promise<void> = Promise.resolve(this.o.onCookies(def, changes))
      .catch(() => {}) // a browser closing meanwhile: the profile file has them
      .finally(() => this.handing.delete(p));
    this.handing.add(p);
  }

  proxyBlocked(def: EngineDefinition): void {
    this.engines.get(def.engine)?.proxy?.failed("blocked");
  }

  async close(): Promise<void> {
    await Promise.all(this.handing);
    for (const e of this.engines.values()) await e.dispatcher?.close().catch(() => {});
  }

  private headers(def: EngineDefinition, url: string, state: EngineHttp): Record<string, string> {
    const cookie = cookieHeader(state.cookies, url);
    // What the browser sends for a navigation typed into its address bar (same values, the browser's order).
    return {
      ...(def.userAgent ? {} : this.o.identity.clientHints),
      "upgrade-insecure-requests": "1",
      "user-agent": def.userAgent ?? this.o.identity.userAgent,
      "accept-language": acceptLanguage(def.locale),
      accept: NAVIGATION_ACCEPT,
      "sec-fetch-site": "none",
      "sec-fetch-mode": "navigate",
      "sec-fetch-user": "?1",
      "sec-fetch-dest": "document",
      ...(cookie ? { cookie } : {}),
    };
  }

  /** The engine's cookies and proxy; a fresh proxy when its proxy is resting and another is not. */
  private engine(def: EngineDefinition): EngineHttp {
    let e = this.engines.get(def.engine);
    const pool = this.o.proxies;
    if (e?.proxy?.resting() && pool && !pool.allResting()) {
      void e.dispatcher?.close().catch(() => {});
      e = { ...e, ...proxied(pool.next(def.engine)) };
      this.engines.set(def.engine, e);
    }
    if (!e) {
      const file = this.o.profileDir ? engineStateFile(this.o.profileDir, def.engine) : null;
      e = {
        cookies: file ? readProfileCookies(file) : [],
        stateFile: file,
        ...(pool ? proxied(pool.next(def.engine)) : { proxy: null, dispatcher: undefined }),
      };
      this.engines.set(def.engine, e);
    }
    return e;
  }
}

function proxied(choice: ProxyChoice): { proxy: ProxyChoice; dispatcher: Dispatcher } {
  const u = new URL(choice.spec.url);
  const token =
    choice.spec.username !== null
      ? `Basic ${Buffer.from(`${choice.spec.username}:${choice.spec.password ?? ""}`).toString("base64")}`
      : undefined;
  // Plain-HTTP targets are asked in absolute form (as browsers do); https ones through a CONNECT tunnel.
  return {
    proxy: choice,
    dispatcher: new ProxyAgent({ uri: `${u.protocol}//${u.host}`, ...(token ? { token } : {}), proxyTunnel: false }),
  };
}

type Named = { kind: FailureKind; message: string };

function isNamed(err: unknown): err is Named {
  return typeof err === "object" && err !== null && "kind" in err && "message" in err && !(err instanceof Error);
}

const CODES: ReadonlyArray<[RegExp, FailureKind, string]> = [
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/, "dns", "host name not found (DNS)"],
  [/^ECONNREFUSED$/, "refused", "connection refused"],
  [/^(UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT|ETIMEDOUT)$/, "timeout", "connection timed out"],
  [
    /^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)/,
    "tls",
    "TLS handshake or certificate failed",
  ],
  [/^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/, "network", "connection reset"],
];

/**
 * A failed HTTP request, named like the browser's failures (`refused: connection refused: host (ECONNREFUSED)`);
 * a failure to reach `proxy` (scheme://host:port) itself is the proxy's (`proxy: proxy failed: …`).
 */
export function httpError(err: unknown, url: string, timeoutMs: number, proxy: string | null = null): Named {
  // A page past the parse caps answered: it is not a network failure (and must not count towards "engine down").
  if (isPageSkipped(err)) return { kind: "layout", message: `layout: ${err.message}` };
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError" || e.code === "UND_ERR_ABORTED") return describeTimeout(url, timeoutMs);
  const code = e.code ?? e.cause?.code ?? "";
  const host = new URL(url).host;
  const proxyHost = proxy ? new URL(proxy).host : null;
  if (proxyHost && atAddress(err, proxyHost))
    return { kind: "proxy", message: `proxy: proxy failed: ${proxyHost} (${code || "no answer"})` };
  for (const [pattern, kind, words] of CODES) if (pattern.test(code)) return { kind, message: `${kind}: ${words}: ${host} (${code})` };
  const text = (e.message ?? e.cause?.message ?? String(err)).split("\n")[0]!.slice(0, 200);
  if (/proxy/i.test(text)) return { kind: "proxy", message: `proxy: proxy failed: ${proxyHost ?? host} (${text})` };
  return { kind: "network", message: `network: request failed: ${host} (${code || text})` };
}

/** Did the connection that failed go to `hostPort` (the error's address and port, on it or its cause)? */
function atAddress(err: unknown, hostPort: string): boolean {
  for (let e = err as { address?: string; port?: number; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.address !== undefined && `${e.address}:${e.port}` === hostPort) return true;
    e = e.cause as typeof e;
  }
  return false;
}

async function readCapped(body: Dispatcher.ResponseData["body"], max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = chunk as Buffer;
    chunks.push(size + b.length > max ? b.subarray(0, max - size) : b);
    size += b.length;
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks);
}
