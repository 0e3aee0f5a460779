import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resourcePath } from "../paths.js";
import { readQueryFile } from "../serp/index.js";
import { type SimPair, SimCollection } from "./collection.js";
import { PROXY_ONLY_HOST, SIM_ENGINES, type SimEngineSpec, simEngineDefinition } from "./engines.js";
import { type FaultRule, faultsFor } from "./faults.js";
import { renderCaptcha, renderConsent, renderTooManyRequests, renderVerification } from "./layouts/blocks.js";
import { renderDiv, renderDiv2023 } from "./layouts/div.js";
import { renderList } from "./layouts/list.js";
import { renderTable } from "./layouts/table.js";
import type { Layout, LayoutName, SerpAd, SerpView } from "./layouts/types.js";
import { escapeHtml } from "../html/index.js";
import { hashString } from "../random.js";
import { type SearchHit, SimSearchIndex } from "./search.js";
import { sleep } from "../sleep.js";

/**
 * The local engine simulator: an HTTP server on 127.0.0.1 imitating three search engines (list-,
 * div- and table-based result pages modelled on real captures), answering from a small collection
 * of bilingual and monolingual pages that it also serves, with injectable faults (429, captcha,
 * verification redirect, consent, slow and reset connections, empty results, layout switch).
 * For tests and `bitext demo`; it never listens beyond loopback.
 */

export interface SimulatorOptions {
  /** Port to listen on (0: any free port). */
  port?: number;
  /** Sentence pairs to build pages from (default: the shipped `queries/tatoeba-cmn-eng.tsv`). */
  pairs?: readonly SimPair[];
  faults?: readonly FaultRule[];
  /** Milliseconds every search answer takes (server think time). */
  latencyMs?: number;
  /** Minimum delay between requests written into the engine definitions it hands out. */
  definitionMinDelayMs?: number;
  seed?: number;
}

export interface SimulatorEngine {
  spec: SimEngineSpec;
  /** The `definition` section for this engine's wrapper file. */
  definition: Record<string, unknown>;
}

export interface SimRequestLog {
  engine: string;
  /** The engine's search-request counter. */
  n: number;
  query: string;
  page: number;
  faults: string[];
  /** Layout rendered, or null when a fault answered instead. */
  layout: LayoutName | null;
  results: number;
  /** When the request arrived (epoch ms), e.g. to check the request rate an engine sees. */
  at: number;
}

export interface Simulator {
  readonly origin: string;
  readonly engines: readonly SimulatorEngine[];
  readonly collection: SimCollection;
  /** Every search request answered so far (in order). */
  readonly log: readonly SimRequestLog[];
  setFaults(rules: readonly FaultRule[]): void;
  /** Search requests received by an engine so far. */
  requests(engine: string): number;
  close(): Promise<void>;
}

const LAYOUTS: Record<LayoutName, Layout> = { list: renderList, div: renderDiv, "div-2023": renderDiv2023, table: renderTable };

export function defaultSimPairs(): SimPair[] {
  return readQueryFile(resourcePath("queries", "tatoeba-cmn-eng.tsv")).map((q) => ({
    en: q.source.text,
    zh: q.target.text,
    attribution: q.note,
  }));
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const state = new SimState(options);
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((req, res) => {
    state.handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, `internal error: ${(err as Error).message}`, "text/plain");
      else res.destroy();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.origin = origin;
  const engines = SIM_ENGINES.map((spec) => ({
    spec,
    definition: simEngineDefinition(spec, origin, options.definitionMinDelayMs ?? 0),
  }));

  return {
    origin,
    engines,
    collection: state.collection,
    log: state.log,
    setFaults(rules) {
      state.faults = rules;
    },
    requests(engine) {
      return state.counters.get(engine) ?? 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const NOT_FOUND = "<!DOCTYPE html><title>404 Not Found</title><h1>Not Found</h1>";
const HTML = "text/html; charset=utf-8";

/** The simulator's state (collection, search index, faults, counters, log) and its request handlers. */
class SimState {
  readonly collection: SimCollection;
  private readonly index: SimSearchIndex;
  faults: readonly FaultRule[];
  readonly counters = new Map<string, number>();
  readonly log: SimRequestLog[] = [];
  private readonly cache = new Map<string, SearchHit[]>();
  origin = "";

  constructor(private readonly options: SimulatorOptions) {
    this.collection = SimCollection.fromPairs(options.pairs ?? defaultSimPairs(), options.seed);
    this.index = new SimSearchIndex(this.collection);
    this.faults = options.faults ?? [];
  }

  private search(q: string): SearchHit[] {
    let hits = this.cache.get(q);
    if (!hits) {
      hits = this.index.search(q);
      if (this.cache.size > 500) this.cache.clear();
      this.cache.set(q, hits);
    }
    return hits;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { collection, origin } = this;
    const url = new URL(req.url ?? "/", origin);
    const path = url.pathname;
    // Asked as a proxy for the proxy-only engine's host (absolute-form request line): answer for it alone.
    const viaProxy = url.hostname === PROXY_ONLY_HOST;
    const proxied = SIM_ENGINES.find((e) => e.trait === "proxy-only")!;
    if (viaProxy) {
      if (path === proxied.searchPath) return this.answerSearch(proxied, url, req, res);
      return send(res, 404, NOT_FOUND, HTML);
    }
    if (path === "/consent/save" && req.method === "POST") return this.saveConsent(req, res);
    if (path === "/robots.txt") return send(res, 200, "User-agent: *\nAllow: /\n", "text/plain; charset=utf-8");
    if (path === "/" || path === "/index.html") return send(res, 200, indexPage(origin), HTML);
    if (path.startsWith("/p/")) {
      const page = collection.page(path);
      if (!page) return send(res, 404, NOT_FOUND, HTML);
      return send(res, 200, collection.renderPage(page), HTML);
    }
    if (path.startsWith("/wappass/")) return send(res, 200, renderVerification(), HTML);
    if (path === "/consent") return send(res, 200, renderConsent(url.searchParams.get("continue") ?? "/"), HTML);
    const spec = SIM_ENGINES.find((e) => e.searchPath === path && e.trait !== "proxy-only");
    if (spec) return this.answerSearch(spec, url, req, res);
    const link = SIM_ENGINES.find((e) => path === `/${e.name.replace(/^sim-/, "")}/link`);
    if (link) {
      const target = decodeLink(url.searchParams.get("url") ?? "");
      if (target && collection.page(target)) {
        res.writeHead(302, { Location: `${origin}${target}` });
        res.end();
        return;
      }
    }
    send(res, 404, NOT_FOUND, HTML);
  }

  private async answerSearch(spec: SimEngineSpec, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const n = (this.counters.get(spec.name) ?? 0) + 1;
    this.counters.set(spec.name, n);
    const query = url.searchParams.get(spec.queryParam) ?? "";
    const offset = Math.max(0, Number(url.searchParams.get(spec.offsetParam) ?? spec.firstOffset) - spec.firstOffset);
    const page = Math.floor(offset / spec.perPage) + 1;
    const active = faultsFor(this.faults, spec.name, n);
    const entry: SimRequestLog = {
      engine: spec.name,
      n,
      query,
      page,
      faults: active.map((f) => f.kind),
      layout: null,
      results: 0,
      at: Date.now(),
    };
    this.log.push(entry);
    const slow = active.find((f) => f.kind === "slow");
    const wait = (slow ? (slow.delayMs ?? 10_000) : 0) + (this.options.latencyMs ?? 0);
    if (wait > 0) await sleep(wait);
    if (res.destroyed) return;
    if (this.answerFault(spec, active, { url, query, page }, req, res)) return;
    const empty = active.some((f) => f.kind === "empty");
    const layout = active.some((f) => f.kind === "layout-switch") ? spec.switchLayout : spec.layout;
    const hits = empty ? [] : this.search(query);
    const view = buildView(spec, this.origin, query, page, hits, this.collection);
    entry.layout = layout;
    entry.results = view.results.length;
    const html = LAYOUTS[layout](view);
    send(res, 200, spec.trait === "script" ? writtenByScript(html) : html, HTML);
  }

  /** Answers a search with its fault or the engine's block (reset, 429, captcha, redirects); false if none applies. */
  private answerFault(
    spec: SimEngineSpec,
    active: readonly FaultRule[],
    asked: { url: URL; query: string; page: number },
    req: IncomingMessage,
    res: ServerResponse,
  ): boolean {
    const { url, query, page } = asked;
    const origin = this.origin;
    if (active.some((f) => f.kind === "reset")) {
      // Reset mid-response: the status line and headers, a little of the body, then the connection dies.
      // (A reset before any byte is retried by Chromium itself, invisibly; this one reaches the driver.)
      const body = Buffer.from(LAYOUTS[spec.layout](buildView(spec, origin, query, page, this.search(query), this.collection)));
      res.writeHead(200, { "Content-Type": HTML });
      res.write(body.subarray(0, 512));
      setTimeout(() => req.socket.destroy(), 20);
      return true;
    }
    const tooMany = active.find((f) => f.kind === "429");
    if (tooMany) {
      // Retry-After: the rule's delay (ENGINE:429@N:MS), else 30 s.
      send(res, 429, renderTooManyRequests(), HTML, { "Retry-After": String(Math.ceil((tooMany.delayMs ?? 30_000) / 1000)) });
      return true;
    }
    if (active.some((f) => f.kind === "captcha")) {
      send(res, 200, renderCaptcha(query), HTML);
      return true;
    }
    if (active.some((f) => f.kind === "verify-redirect")) {
      // Another host name for the same loopback server, as wappass.baidu.com is for www.baidu.com.
      const host = origin.replace("127.0.0.1", "localhost");
      redirect(res, `${host}/wappass/static/captcha/tuxing.html?ak=sim&backurl=${encodeURIComponent(url.href)}`);
      return true;
    }
    if (this.wantsConsent(spec, active, req)) {
      redirect(res, `${origin}/consent?continue=${encodeURIComponent(url.href)}`);
      return true;
    }
    if (spec.trait === "strict-agent" && announcesHeadless(req)) {
      send(res, 200, renderCaptcha(query), HTML);
      return true;
    }
    return false;
  }

  /** A consent fault, or a consent engine asked without its cookie. */
  private wantsConsent(spec: SimEngineSpec, active: readonly FaultRule[], req: IncomingMessage): boolean {
    return (
      active.some((f) => f.kind === "consent") || (spec.trait === "consent" && !/(?:^|;\s*)SIMCONSENT=/.test(req.headers.cookie ?? ""))
    );
  }

  /** The consent form's answer: a year-long cookie (either button), then back to the search. */
  private async saveConsent(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of req) {
      body += String(chunk);
      if (body.length > 10_000) break;
    }
    const form = new URLSearchParams(body);
    const target = form.get("continue") ?? "/";
    const back = target.startsWith(this.origin) ? target : `${this.origin}/`;
    res.writeHead(302, {
      Location: back,
      "Set-Cookie": `SIMCONSENT=${form.get("set") === "reject" ? "no" : "yes"}; Path=/; Max-Age=31536000; SameSite=Lax`,
    });
    res.end();
  }
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location });
  res.end();
}

function buildView(
  spec: SimEngineSpec,
  origin: string,
  query: string,
  page: number,
  hits: SearchHit[],
  collection: SimCollection,
): SerpView {
  const start = (page - 1) * spec.perPage;
  const shown = hits.slice(start, start + spec.perPage);
  const base = `${origin}${spec.searchPath}?${spec.queryParam}=`;
  const host = origin.replace(/^https?:\/\//, "");
  const related = [
    ...new Set(
      hits
        .slice(1, 12)
        .map((h) => collection.pairs[h.page.pairs[0]!]!.en)
        .filter((en) => !query.includes(en)),
    ),
  ].slice(0, 6);
  const ads: SerpAd[] =
    page === 1 && hits.length > 0
      ? [
          {
            title: "Learn English Online - 在线英语课程",
            href: `${origin}/ads/click?ad=1`,
            displayUrl: "www.english-course.example",
            text: "Native teachers, 1-on-1 lessons. 外教一对一，免费试听。",
          },
          {
            title: "英汉词典 - Free Dictionary App",
            href: `${origin}/ads/click?ad=2`,
            displayUrl: "dict-app.example",
            text: "Translate words and sentences instantly. 离线词典，随查随用。",
          },
        ]
      : [];
  return {
    query,
    page,
    perPage: spec.perPage,
    total: hits.length,
    results: shown.map((h) => {
      const pageUrl = `${origin}${h.page.path}`;
      const d = hashString(h.page.path);
      return {
        titleHtml: h.titleHtml,
        href: spec.redirectLinks ? `${origin}/${spec.name.replace(/^sim-/, "")}/link?url=${encodeLink(h.page.path)}` : pageUrl,
        displayUrl: spec.layout === "list" ? `${origin} › p › ${h.page.site.id}` : `${host}${h.page.path}`,
        snippetHtml: h.snippetHtml,
        date:
          spec.locale === "zh-CN"
            ? `${2012 + (d % 8)}年${1 + (d % 12)}月${1 + (d % 28)}日`
            : `${["Jan", "Mar", "May", "Aug", "Nov"][d % 5]} ${1 + (d % 28)}, ${2012 + (d % 8)}`,
      };
    }),
    ads,
    related,
    pageHref: (n) =>
      escapeHtml(
        `${spec.searchPath}?${spec.queryParam}=${encodeURIComponent(query)}&${spec.offsetParam}=${spec.firstOffset + (n - 1) * spec.perPage}`,
      ),
    searchHref: (q) => escapeHtml(`${base.slice(origin.length)}${encodeURIComponent(q)}`),
  };
}

/** Does the request come from a browser that says it is headless (user agent or client hints)? */
function announcesHeadless(req: IncomingMessage): boolean {
  return /HeadlessChrome/i.test(`${req.headers["user-agent"] ?? ""} ${req.headers["sec-ch-ua"] ?? ""}`);
}

/**
 * The same result page, but with the body written by the page's script: the HTML as served holds
 * the results only inside a script string (as single-page engines do), the DOM after the script has them.
 */
function writtenByScript(html: string): string {
  const start = html.indexOf("<body");
  const open = html.indexOf(">", start) + 1;
  const close = html.lastIndexOf("</body>");
  if (start < 0 || close < open) return html;
  const inner = JSON.stringify(html.slice(open, close)).replace(/</g, "\\u003c");
  return `${html.slice(0, open)}<div id="app"></div><script>document.getElementById("app").innerHTML = ${inner};</script>${html.slice(close)}`;
}

function encodeLink(path: string): string {
  return Buffer.from(path, "utf8").toString("base64url");
}

function decodeLink(token: string): string | null {
  try {
    return Buffer.from(token, "base64url").toString("utf8");
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: string, type: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), Connection: "close", ...headers });
  res.end(body);
}

function indexPage(origin: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>bitext engine simulator</title></head><body>
<h1>bitext engine simulator</h1><ul>${SIM_ENGINES.map(
    (e) =>
      `<li>${escapeHtml(e.label)}: <a href="${e.searchPath}?${e.queryParam}=${encodeURIComponent("I see. 我明白了。")}">${escapeHtml(origin + e.searchPath)}</a></li>`,
  ).join("")}</ul></body></html>`;
}
