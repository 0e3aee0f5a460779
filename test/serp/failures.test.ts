import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SerpDriver } from "../../src/serp/index.js";
import { loadEngine, wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { harvest } from "../../src/serp/index.js";
import type { HarvestEvent } from "../../src/serp/harvest.js";
import { parseFaults } from "../../src/sim/index.js";
import { getRun, listFetches, openStore } from "../../src/store/index.js";
import { runCommand } from "../helpers/cli.js";
import { bench, DEMO, FAST } from "./helpers.js";

/**
 * Engines that fail in each way a real one does — a host name that does not resolve, a closed port, a
 * server that never answers, TLS spoken to a plain-HTTP server, HTTP 500, a consent wall, a block — and
 * what a harvest makes of them: each failure named by kind, every failed page left for the next run,
 * an unreachable engine given up after a few attempts, a run where nothing succeeded marked failed.
 */

/** The browser of the tests that expect an answer: a loaded machine (the whole suite on two cores) can take seconds to load even an error page. */
let driver: SerpDriver;
const servers: Array<Server | import("node:net").Server> = [];
const sockets = new Set<Socket>();
beforeAll(async () => {
  driver = await SerpDriver.start({ timeoutMs: 10_000 });
});
afterAll(async () => {
  await driver.close();
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function listen(server: Server | import("node:net").Server): Promise<number> {
  servers.push(server);
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return (server.address() as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A harvest of `queries` on one engine whose search URL is `searchUrl`. */
async function harvestOne(searchUrl: string, queries = 2, extra: { retries?: number; downAfter?: number; driver?: SerpDriver } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "bitext-failures-"));
  writeDefinition(wrapperFilePath(dir, "target"), "target", {
    searchUrl,
    politeness: { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 2 },
  });
  const store = await openStore(join(dir, "bitext.db"));
  const events: HarvestEvent[] = [];
  try {
    const s = await harvest(store, {
      queries: DEMO.slice(0, queries),
      engines: [loadEngine(dir, "target")],
      driver,
      ...FAST,
      ...extra,
      onEvent: (e) => events.push(e),
    });
    return { s, events, fetches: await listFetches(store), run: (await getRun(store, s.runId))! };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a page that fails is named by what failed, and left for the next run", () => {
  it("DNS: a host name that does not resolve", async () => {
    const { s, fetches } = await harvestOne("http://nowhere.invalid/s?q={query}");
    expect(fetches[0]!.detail).toBe("dns: host name not found (DNS): nowhere.invalid (net::ERR_NAME_NOT_RESOLVED)");
    expect(s.causes.dns).toBe(s.fetched);
    expect(s).toMatchObject({ status: "failed", ok: 0, left: 2, jobsDone: 2 });
  });

  it("refused: a closed port on 127.0.0.1 (named so, never 'robots.txt unreachable')", async () => {
    const port = await closedPort();
    const { s, fetches, events } = await harvestOne(`http://127.0.0.1:${port}/s?q={query}`);
    expect(fetches[0]!.detail).toBe(`refused: connection refused: 127.0.0.1:${port} (net::ERR_CONNECTION_REFUSED)`);
    expect(fetches.every((f) => !/robots/.test(f.detail ?? ""))).toBe(true);
    expect(s.causes.refused).toBe(s.fetched);
    expect(s).toMatchObject({ status: "failed", left: 2 });
    expect(events.find((e) => e.kind === "engine-given-up")).toMatchObject({
      reason: expect.stringMatching(/^unreachable: 3 network failures in a row/),
    });
  });

  it("timeout: a server that accepts the connection and never answers", async () => {
    const port = await listen(createTcpServer(() => {}));
    // A browser of its own whose page timeout is short: the server never answers, so the test waits it out.
    const quick = await SerpDriver.start({ timeoutMs: 1500 });
    try {
      const { s, fetches } = await harvestOne(`http://127.0.0.1:${port}/s?q={query}`, 2, { retries: 0, driver: quick });
      expect(fetches.map((f) => f.detail)).toEqual([
        `timeout: no answer within 1.5 s: 127.0.0.1:${port}`,
        `timeout: no answer within 1.5 s: 127.0.0.1:${port}`,
      ]);
      expect(s).toMatchObject({ status: "failed", left: 2, causes: expect.objectContaining({ timeout: 2 }) });
    } finally {
      await quick.close();
    }
  });

  it("TLS: https spoken to a plain-HTTP server", async () => {
    const port = await listen(createHttpServer((_, res) => res.end("<html><body>plain</body></html>")));
    const { s, fetches } = await harvestOne(`https://127.0.0.1:${port}/s?q={query}`);
    expect(fetches[0]!.detail).toMatch(new RegExp(`^tls: TLS handshake or certificate failed: 127\\.0\\.0\\.1:${port} \\(net::ERR_SSL_`));
    expect(s.causes.tls).toBe(s.fetched);
    expect(s).toMatchObject({ status: "failed", left: 2 });
  });

  it("HTTP 5xx: an error answer is retried, then left; it is not taken for an unreachable engine", async () => {
    const port = await listen(
      createHttpServer((_, res) => {
        res.writeHead(500, { "Content-Type": "text/html" });
        res.end("<html><body><h1>Internal Server Error</h1></body></html>");
      }),
    );
    const { s, fetches, events } = await harvestOne(`http://127.0.0.1:${port}/s?q={query}`, 2, { retries: 1 });
    expect(fetches).toHaveLength(4); // every page tried 1 + 1 times: HTTP errors do not count as "down"
    expect(fetches[0]!.detail).toBe(`HTTP 500 from 127.0.0.1:${port}`);
    expect(s).toMatchObject({ status: "failed", left: 2, causes: expect.objectContaining({ http: 4 }) });
    expect(events.some((e) => e.kind === "engine-given-up")).toBe(false);
  });

  it("HTTP 414 (and other 4xx but 408 and 429): permanent, never retried", async () => {
    const port = await listen(
      createHttpServer((_, res) => {
        res.writeHead(414, { "Content-Type": "text/html" });
        res.end("<html><body><h1>URI Too Long</h1></body></html>");
      }),
    );
    const { s, fetches, events } = await harvestOne(`http://127.0.0.1:${port}/s?q={query}`, 2, { retries: 2 });
    expect(fetches).toHaveLength(2); // one attempt each
    expect(fetches[0]!.detail).toBe(`HTTP 414 from 127.0.0.1:${port} (permanent: not retried)`);
    expect(s).toMatchObject({ left: 2, causes: expect.objectContaining({ http: 2 }) });
    expect(events.filter((e) => e.kind === "error").every((e) => e.kind === "error" && !e.willRetry)).toBe(true);
  });

  it("consent: a consent wall on every page is reported as consent, and the engine given up after a few", async () => {
    const b = await bench(parseFaults("sim-list:consent@1-"));
    try {
      const events: HarvestEvent[] = [];
      const s = await harvest(b.store, {
        queries: DEMO.slice(0, 6),
        engines: b.engines("sim-list"),
        driver,
        ...FAST,
        onEvent: (e) => events.push(e),
      });
      expect(s).toMatchObject({ status: "failed", ok: 0, left: 6 });
      expect(s.causes.consent).toBe(s.fetched);
      expect(s.fetched).toBeLessThanOrEqual(4);
      expect((await listFetches(b.store))[0]!.detail).toMatch(/^consent page: redirected to http:\/\/127\.0\.0\.1:\d+\/consent/);
      expect(events.find((e) => e.kind === "engine-given-up")).toMatchObject({
        reason: expect.stringMatching(/consent pages in a row/),
        cause: "consent",
      });
    } finally {
      await b.close();
    }
  });

  it("block: pages blocked after their retries are left, counted as blocked, and the run says which pages succeeded", async () => {
    const b = await bench(parseFaults("sim-div:429@1-:0")); // Retry-After 0: asked again after the back-off alone
    try {
      const s = await harvest(b.store, {
        queries: DEMO.slice(0, 3),
        engines: b.engines("sim-div", "sim-list"),
        driver,
        ...FAST,
        breaker: { threshold: 100, cooldownMs: 10, maxTrips: 1 },
      });
      expect(s.engines["sim-div"]).toMatchObject({ ok: 0, left: 3, blocked: 9 }); // 1 + 2 block retries each
      expect(s.engines["sim-div"]!.causes.blocked).toBe(9);
      expect(s.engines["sim-list"]).toMatchObject({ ok: 3, left: 0 });
      expect(s).toMatchObject({ status: "completed", left: 3 });
    } finally {
      await b.close();
    }
  });
});

describe("engines that cannot be reached", () => {
  it("gives an unreachable engine up after a few attempts, leaving every page, while a working engine goes on", async () => {
    const b = await bench();
    const dir = b.dir;
    writeDefinition(wrapperFilePath(dir, "down"), "down", {
      searchUrl: "http://down.invalid/s?q={query}",
      politeness: { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 2 },
    });
    try {
      const s = await harvest(b.store, {
        queries: DEMO.slice(0, 6),
        engines: [loadEngine(dir, "down"), ...b.engines("sim-list")],
        driver,
        ...FAST,
      });
      expect(s.engines.down).toMatchObject({ givenUp: true, ok: 0, left: 6 });
      expect(s.engines.down!.fetched).toBeLessThanOrEqual(4);
      expect(s.engines["sim-list"]).toMatchObject({ ok: 6, left: 0 });
      expect(s).toMatchObject({ status: "completed", left: 6, jobsDone: 12 });
    } finally {
      await b.close();
    }
  });

  it("stops at once when every engine is down: a few attempts per engine, every page left, exit 75 (the command line)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-down-"));
    try {
      for (const name of ["down-a", "down-b"]) {
        writeDefinition(wrapperFilePath(dir, name), name, {
          searchUrl: `http://${name}.invalid/s?q={query}`,
          politeness: { minDelayMs: 0, requestsPerMinute: 0, maxConcurrent: 2 },
        });
      }
      const queries = join(dir, "queries.tsv");
      writeFileSync(
        queries,
        DEMO.slice(0, 6)
          .map((q) => `${q.source.text}\t${q.target.text}`)
          .join("\n"),
      );
      const r = await runCommand(
        ["harvest", queries, "--engines", "down-a,down-b", "--wrappers", dir, "--db", join(dir, "bitext.db"), "--no-classify", "--json"],
        {
          env: { BITEXT_HOME: dir },
        },
      );
      expect(r.code, r.stderr).toBe(75);
      const summary = JSON.parse(r.stdout);
      expect(summary).toMatchObject({ status: "failed", ok: 0, left: 12, jobsDone: 12 });
      for (const name of ["down-a", "down-b"]) {
        expect(summary.engines[name]).toMatchObject({ givenUp: true, left: 6 });
        expect(summary.engines[name].fetched).toBeLessThanOrEqual(4);
      }
      expect(r.stderr).toMatch(/down-a: given up for this run \(unreachable: 3 network failures in a row/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
