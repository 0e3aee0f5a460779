import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server as ProxyServer } from "proxy-chain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SerpDriver } from "../../src/serp/index.js";
import { harvest } from "../../src/serp/index.js";
import { HttpLoader } from "../../src/serp/index.js";
import { parseProxy, ProxyPool, readProxyList } from "../../src/serp/index.js";
import type { HarvestEvent } from "../../src/serp/index.js";
import { getFetchTransport, listFetches } from "../../src/store/index.js";
import { bench, DEMO, FAST } from "./helpers.js";

/**
 * Proxies: parsed and listed with file:line errors, rotated per engine context, rested when they fail,
 * and recorded on each fetch — against real proxies (proxy-chain) started on 127.0.0.1, in front of the
 * simulator, including its proxy-only engine.
 */

describe("proxy URLs and lists", () => {
  it("reads http, https and socks5 proxies with credentials, and names what is wrong with a bad one", () => {
    expect(parseProxy("http://ann:s%40fe@10.0.0.2:3128", { file: "--proxy" })).toEqual({
      url: "http://ann:s%40fe@10.0.0.2:3128",
      label: "http://10.0.0.2:3128",
      username: "ann",
      password: "s@fe",
    });
    expect(parseProxy("socks5://127.0.0.1:1080", { file: "--proxy" }).label).toBe("socks5://127.0.0.1:1080");
    expect(() => parseProxy("ftp://h:21", { file: "--proxy" })).toThrow("--proxy: proxy scheme ftp not supported (http, https, socks5)");
    expect(() => parseProxy("socks5://u:p@h:1080", { file: "--proxy" })).toThrow(/Chromium cannot authenticate to SOCKS proxies/);
    const dir = mkdtempSync(join(tmpdir(), "bitext-proxies-"));
    const file = join(dir, "proxies.txt");
    writeFileSync(file, "# office\nhttp://10.0.0.2:3128\n\nhttps://10.0.0.3\n");
    expect(() => readProxyList(file)).toThrow(`${file}:4: proxy https://10.0.0.3: give the port`);
    writeFileSync(file, "# office\nhttp://10.0.0.2:3128\nsocks5://10.0.0.4:1080\n");
    expect(readProxyList(file).map((p) => p.label)).toEqual(["http://10.0.0.2:3128", "socks5://10.0.0.4:1080"]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("rotates proxies over engine contexts, rests one that fails, and brings it back after its pause", () => {
    let now = 0;
    const pool = new ProxyPool(
      ["http://a:1", "http://b:2", "http://c:3"].map((u) => parseProxy(u, { file: "t" })),
      { threshold: 2, cooldownMs: 1000, maxTrips: 3 },
      () => now,
    );
    expect(["e1", "e2", "e3", "e4"].map((e) => pool.next(e).label)).toEqual(["http://a:1", "http://b:2", "http://c:3", "http://a:1"]);
    const b = pool.next("e5");
    expect(b.label).toBe("http://b:2");
    b.failed("network");
    expect(b.resting()).toBe(false);
    b.failed("network");
    expect(b.resting()).toBe(true);
    expect([pool.next("x").label, pool.next("y").label, pool.next("z").label]).toEqual(["http://c:3", "http://a:1", "http://c:3"]);
    now = 1001;
    expect(b.resting()).toBe(false);
    expect(pool.usage.get("http://b:2")).toEqual({ ok: 0, failed: 2 });
  });
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe("harvesting through proxies", async () => {
  let driverless: Awaited<ReturnType<typeof bench>>;
  const proxies: ProxyServer[] = [];
  const seen: Array<{ port: number; host: string; user: string }> = [];

  /** A proxy-chain proxy on 127.0.0.1 asking for ann/secret, forwarding the proxy-only engine's host to the simulator. */
  async function startProxy(): Promise<ProxyServer> {
    const server = new ProxyServer({
      port: 0,
      host: "127.0.0.1",
      verbose: false,
      prepareRequestFunction: ({ username, password, hostname }) => {
        seen.push({ port: server.port, host: hostname, user: username });
        if (username !== "ann" || password !== "secret") return { requestAuthentication: true };
        // The simulator answers proxy requests for its proxy-only engine's host name (which resolves nowhere).
        return hostname === "proxied.sim.invalid" ? { upstreamProxyUrl: driverless.sim.origin } : {};
      },
    });
    await server.listen();
    proxies.push(server);
    return server;
  }

  beforeAll(async () => {
    driverless = await bench();
  });
  afterAll(async () => {
    for (const p of proxies) await p.close(true);
    await driverless.close();
  });

  it("reaches the proxy-only engine through an authenticated proxy, and records the proxy on each fetch", async () => {
    const proxy = await startProxy();
    const pool = new ProxyPool([parseProxy(`http://ann:secret@127.0.0.1:${proxy.port}`, { file: "--proxy" })]);
    const driver = await SerpDriver.start({ timeoutMs: 5000, proxies: pool });
    try {
      const s = await harvest(driverless.store, { queries: DEMO.slice(0, 3), engines: driverless.engines("sim-proxied"), driver, ...FAST });
      expect(s).toMatchObject({ ok: 3, left: 0 });
      expect(
        seen.filter((r) => r.port === proxy.port && r.host === "proxied.sim.invalid" && r.user === "ann").length,
      ).toBeGreaterThanOrEqual(3);
      for (const f of await listFetches(driverless.store, { runId: s.runId })) {
        expect(await getFetchTransport(driverless.store, f.id)).toEqual({
          proxy: `http://127.0.0.1:${proxy.port}`,
          fetchedWith: "browser",
        });
      }
    } finally {
      await driver.close();
    }
  });

  it("fetch mode http goes through the same proxy, with its credentials", async () => {
    const proxy = await startProxy();
    const pool = new ProxyPool([parseProxy(`http://ann:secret@127.0.0.1:${proxy.port}`, { file: "--proxy" })]);
    const driver = await SerpDriver.start({ timeoutMs: 5000 });
    const http = new HttpLoader({ timeoutMs: 5000, identity: driver.identity, proxies: pool });
    try {
      const s = await harvest(driverless.store, {
        queries: DEMO.slice(10, 12),
        engines: driverless.engines("sim-proxied"),
        driver,
        http,
        fetchMode: "http",
        ...FAST,
      });
      expect(s).toMatchObject({ ok: 2, left: 0 });
      for (const f of await listFetches(driverless.store, { runId: s.runId })) {
        expect(await getFetchTransport(driverless.store, f.id)).toEqual({ proxy: `http://127.0.0.1:${proxy.port}`, fetchedWith: "http" });
      }
      expect(seen.filter((r) => r.port === proxy.port && r.user === "ann")).toHaveLength(2);
    } finally {
      await http.close();
      await driver.close();
    }
  });

  it("without a proxy the proxy-only engine is unreachable (DNS) and given up", async () => {
    const driver = await SerpDriver.start({ timeoutMs: 5000 });
    try {
      const s = await harvest(driverless.store, {
        queries: DEMO.slice(3, 6),
        engines: driverless.engines("sim-proxied"),
        driver,
        ...FAST,
        maxAgeMs: 0,
      });
      expect(s.engines["sim-proxied"]).toMatchObject({ ok: 0, left: 3, givenUp: true });
      expect(s.causes.dns).toBeGreaterThan(0);
    } finally {
      await driver.close();
    }
  });

  it("rests a dead proxy and goes on through the next one (loopback engines proxied too)", async () => {
    const good = await startProxy();
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, "127.0.0.1", () => r()));
    const deadPort = (dead.address() as { port: number }).port;
    await new Promise((r) => dead.close(r));
    const pool = new ProxyPool([
      parseProxy(`http://127.0.0.1:${deadPort}`, { file: "t" }),
      parseProxy(`http://ann:secret@127.0.0.1:${good.port}`, { file: "t" }),
    ]);
    const driver = await SerpDriver.start({ timeoutMs: 5000, proxies: pool });
    try {
      const s = await harvest(driverless.store, {
        queries: DEMO.slice(6, 10),
        engines: driverless.engines("sim-list"),
        driver,
        ...FAST,
        concurrency: 1,
      });
      expect(s).toMatchObject({ ok: 4, left: 0 });
      const fetches = await listFetches(driverless.store, { runId: s.runId });
      const failed = fetches.filter((f) => f.status === "error");
      expect(failed).toHaveLength(1); // a proxy that refuses is rested at once
      expect(failed[0]!.detail).toBe(`proxy: http://127.0.0.1:${deadPort} failed (net::ERR_PROXY_CONNECTION_FAILED)`);
      expect(pool.usage.get(`http://127.0.0.1:${deadPort}`)).toEqual({ ok: 0, failed: 1 });
      expect(pool.usage.get(`http://127.0.0.1:${good.port}`)).toMatchObject({ ok: 4 });
      expect(seen.some((r) => r.port === good.port && r.host === "127.0.0.1")).toBe(true);
    } finally {
      await driver.close();
    }
  });

  it("a dead proxy first, a live one second, at the default concurrency: every page fetched, the engine never blamed", async () => {
    const good = await startProxy();
    const deadPort = await closedPort();
    const pool = new ProxyPool([
      parseProxy(`http://127.0.0.1:${deadPort}`, { file: "t" }),
      parseProxy(`http://ann:secret@127.0.0.1:${good.port}`, { file: "t" }),
    ]);
    const driver = await SerpDriver.start({ timeoutMs: 5000, proxies: pool });
    const events: HarvestEvent[] = [];
    try {
      const s = await harvest(driverless.store, {
        queries: DEMO.slice(0, 6),
        engines: driverless.engines("sim-div"),
        driver,
        ...FAST,
        onEvent: (e) => events.push(e),
      });
      expect(s.engines["sim-div"]).toMatchObject({ ok: 6, left: 0, givenUp: false });
      expect(s.causes.proxy).toBeGreaterThan(0);
      expect(s.causes.network + s.causes.refused).toBe(0); // nothing counted against the engine
      const errors = events.filter((e) => e.kind === "error");
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) {
        expect(e).toMatchObject({ cause: "proxy", willRetry: true });
        expect(e.kind === "error" && e.detail).toMatch(
          new RegExp(`^proxy: http://127\\.0\\.0\\.1:${deadPort} failed \\(net::ERR_PROXY_CONNECTION_FAILED\\)$`),
        );
      }
      expect(events.some((e) => e.kind === "engine-given-up")).toBe(false);
    } finally {
      await driver.close();
    }
  });

  it("fetch mode http: the same, and the proxy named", async () => {
    const good = await startProxy();
    const deadPort = await closedPort();
    const pool = new ProxyPool([
      parseProxy(`http://127.0.0.1:${deadPort}`, { file: "t" }),
      parseProxy(`http://ann:secret@127.0.0.1:${good.port}`, { file: "t" }),
    ]);
    const driver = await SerpDriver.start({ timeoutMs: 5000 });
    const http = new HttpLoader({ timeoutMs: 5000, identity: driver.identity, proxies: pool });
    try {
      const s = await harvest(driverless.store, {
        queries: DEMO.slice(0, 6),
        engines: driverless.engines("sim-table"),
        driver,
        http,
        fetchMode: "http",
        ...FAST,
      });
      expect(s.engines["sim-table"]).toMatchObject({ left: 0, givenUp: false });
      expect(s.causes.proxy).toBeGreaterThan(0);
      expect(s.causes.refused + s.causes.network).toBe(0);
      const failed = (await listFetches(driverless.store, { runId: s.runId })).filter((f) => f.status === "error");
      expect(failed.length).toBeGreaterThan(0);
      for (const f of failed) expect(f.detail).toBe(`proxy: http://127.0.0.1:${deadPort} failed (ECONNREFUSED)`);
    } finally {
      await http.close();
      await driver.close();
    }
  });

  it("Chromium's own background traffic does not go through the harvest's proxies", async () => {
    const watched = await startProxy();
    const pool = new ProxyPool([parseProxy(`http://ann:secret@127.0.0.1:${watched.port}`, { file: "t" })]);
    const driver = await SerpDriver.start({ timeoutMs: 5000, proxies: pool });
    try {
      const s = await harvest(driverless.store, {
        queries: DEMO.slice(0, 3),
        engines: driverless.engines("sim-list"),
        driver,
        ...FAST,
        maxAgeMs: 0,
      });
      expect(s.ok).toBe(3);
      await new Promise((r) => setTimeout(r, 3000)); // what Chromium dials on its own comes in the first seconds
      const hosts = new Set(seen.filter((r) => r.port === watched.port).map((r) => r.host));
      expect([...hosts]).toEqual(["127.0.0.1"]);
    } finally {
      await driver.close();
    }
  });
});
