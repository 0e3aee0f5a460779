/**
 * Test helper: an HTTP server on 127.0.0.1 (random port) whose answers a test scripts per path,
 * recording every request (path and arrival time). Also serves a folder as a static site.
 */
import { readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface LocalServer {
  origin: string;
  url(path: string): string;
  requests: Array<{ path: string; at: number; userAgent: string | undefined }>;
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Handler>, fallback?: Handler): Promise<LocalServer> {
  const requests: LocalServer["requests"] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push({ path, at: performance.now(), userAgent: req.headers["user-agent"] });
    const handler = routes[path] ?? fallback;
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => origin + path,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".css": "text/css",
  ".js": "text/javascript",
  ".txt": "text/plain",
  ".png": "image/png",
};

/**
 * Serve `root` like a static web host: `/a/b/` → `a/b/index.html`, `/a/b` → 301 to `/a/b/` when it is a folder.
 * `extra` routes (e.g. `/robots.txt`) take precedence.
 */
export function startStaticServer(root: string, extra: Record<string, Handler> = {}): Promise<LocalServer> {
  return startServer(extra, (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = normalize(join(root, path));
    if (!file.startsWith(normalize(root))) {
      res.writeHead(403).end();
      return;
    }
    let target = file;
    try {
      if (statSync(target).isDirectory()) {
        if (!path.endsWith("/")) {
          res.writeHead(301, { location: `${path}/` }).end();
          return;
        }
        target = join(target, "index.html");
      }
      const body = readFileSync(target);
      res.writeHead(200, { "content-type": TYPES[extname(target)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/html" }).end("<html><body>not found</body></html>");
    }
  });
}
