/**
 * The annotation web server: 127.0.0.1 only, a random access token in the URL (and required on every
 * API call, as a header, so another site open in the browser cannot post labels), the Host header checked
 * against DNS rebinding. It serves one page and a small JSON API over an `AnnotationSession`.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { annotationPage } from "./page.js";
import { StaleDecisionError } from "./queue.js";
import type { AnnotationSession } from "./session.js";

export interface AnnotationServer {
  /** The URL to open, token included. */
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": typeof body === "string" ? "text/html; charset=utf-8" : "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    ...headers,
  });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : {};
}

export async function startAnnotationServer(
  session: AnnotationSession,
  options: { port?: number; host?: string } = {},
): Promise<AnnotationServer> {
  const host = options.host ?? "127.0.0.1";
  const token = randomBytes(18).toString("base64url");
  let port = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: err instanceof Error ? err.message : String(err) });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://${host}:${port}`);
    const allowedHosts = [`${host}:${port}`, `localhost:${port}`];
    if (!allowedHosts.includes(req.headers.host ?? "")) return send(res, 421, { error: "unexpected Host header" });
    if (url.pathname === "/" && req.method === "GET") {
      if (url.searchParams.get("token") !== token)
        return send(res, 403, "<!doctype html><p>Forbidden: open the URL bitext annotate printed (it carries the access token).</p>");
      const nonce = randomBytes(16).toString("base64");
      return send(res, 200, annotationPage(nonce), {
        "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      });
    }
    if (!url.pathname.startsWith("/api/")) return send(res, 404, { error: "not found" });
    if (req.headers["x-bitext-token"] !== token) return send(res, 403, { error: "missing or wrong access token" });
    if (url.pathname === "/api/state" && req.method === "GET") return send(res, 200, session.state());
    if (req.method !== "POST") return send(res, 405, { error: "method not allowed" });
    if (!String(req.headers["content-type"] ?? "").startsWith("application/json"))
      return send(res, 415, { error: "expected application/json" });
    let body: Record<string, unknown>;
    try {
      body = (await readJson(req)) as Record<string, unknown>;
    } catch (err) {
      return send(res, 400, { error: err instanceof Error ? err.message : "bad request" });
    }
    if (url.pathname === "/api/decision") {
      const decision = body.decision;
      if (typeof body.key !== "string" || (decision !== "bilingual" && decision !== "monolingual" && decision !== "skip")) {
        return send(res, 400, { error: 'expected {"key": …, "decision": "bilingual" | "monolingual" | "skip"}' });
      }
      try {
        await session.decide(body.key, decision);
      } catch (err) {
        if (err instanceof StaleDecisionError) return send(res, 409, { error: err.message, ...session.state() });
        throw err;
      }
      return send(res, 200, session.state());
    }
    if (url.pathname === "/api/undo") {
      await session.undo();
      return send(res, 200, session.state());
    }
    return send(res, 404, { error: "not found" });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/?token=${token}`,
    token,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
