import { type LocalServer, startServer } from "../net/local-server.js";

/**
 * A page on 127.0.0.1 that reports what a script in it sees of the browser (navigator, client hints, time zone,
 * locale) and the headers the server got for the page and for one of its sub-requests: the fingerprint an engine
 * can take of a visitor, for the identity tests.
 */

export interface Seen {
  webdriver: unknown;
  languages: string[];
  language: string;
  userAgent: string;
  platform: string;
  brands: Array<{ brand: string; version: string }> | null;
  mobile: boolean | null;
  uaPlatform: string | null;
  timeZone: string;
  locale: string;
}

export interface Report {
  seen: Seen;
  /** Request headers of the page itself, and of an image it loads. */
  page: Record<string, string>;
  sub: Record<string, string>;
}

export interface FingerprintPage {
  server: LocalServer;
  /** The page's URL; `tag` tells reports apart. */
  url(tag: string): string;
  /** The report of the page loaded with `tag` (waits for it). */
  report(tag: string): Promise<Report>;
  /** The headers the page loaded with `tag` came with (undefined: not loaded). */
  headersOf(tag: string): Record<string, string> | undefined;
  close(): Promise<void>;
}

const SCRIPT = `
  const d = navigator.userAgentData || null;
  const seen = {
    webdriver: navigator.webdriver,
    languages: [...navigator.languages],
    language: navigator.language,
    userAgent: navigator.userAgent,
    platform: navigator.platform,
    brands: d ? d.brands.map((b) => ({ brand: b.brand, version: b.version })) : null,
    mobile: d ? d.mobile : null,
    uaPlatform: d ? d.platform : null,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
  };
  const tag = new URLSearchParams(location.search).get("tag");
  new Image().src = "/sub.gif?tag=" + tag;
  fetch("/report?tag=" + tag, { method: "POST", body: JSON.stringify(seen) });
`;

export async function startFingerprintPage(): Promise<FingerprintPage> {
  const reports = new Map<string, Partial<Report>>();
  const waiting = new Map<string, () => void>();
  const entry = (tag: string) => {
    const r = reports.get(tag) ?? {};
    reports.set(tag, r);
    return r;
  };
  const settle = (tag: string) => {
    const r = reports.get(tag);
    if (r?.seen && r.page && r.sub) waiting.get(tag)?.();
  };
  const headers = (h: Record<string, string | string[] | undefined>) =>
    Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
  const server = await startServer({}, (req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const tag = u.searchParams.get("tag") ?? "";
    if (u.pathname === "/report") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        entry(tag).seen = JSON.parse(body) as Seen;
        res.writeHead(204);
        res.end();
        settle(tag);
      });
      return;
    }
    if (u.pathname === "/sub.gif") {
      entry(tag).sub = headers(req.headers);
      res.writeHead(204);
      res.end();
      settle(tag);
      return;
    }
    if (u.pathname === "/favicon.ico") {
      res.writeHead(404);
      res.end();
      return;
    }
    entry(tag).page = headers(req.headers);
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "accept-ch": "Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List",
    });
    res.end(`<!DOCTYPE html><title>probe</title><body><p>probe</p><script>${SCRIPT}</script></body>`);
  });
  return {
    server,
    url: (tag) => `${server.origin}/s?q=probe&tag=${encodeURIComponent(tag)}`,
    report: (tag) =>
      new Promise<Report>((resolve) => {
        const done = () => resolve(reports.get(tag) as Report);
        waiting.set(tag, done);
        settle(tag);
      }),
    headersOf: (tag) => reports.get(tag)?.page,
    close: () => server.close(),
  };
}
