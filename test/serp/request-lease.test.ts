import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { chromeIdentity } from "../../src/browser/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harvest, HttpLoader, LazyBrowser, LocalPacer, type RequestPacer, SerpDriver } from "../../src/serp/index.js";
import { bench, DEMO, FAST } from "./helpers.js";

/**
 * The engine's lease is taken right before the request leaves, not before the loader's preparation: a browser
 * that starts (seconds), a context or a tab opened between a lease and its request would let requests leased a
 * gap apart reach the engine together.
 */

// Wide enough that a request delayed by a loaded machine (550 ms seen in CI under the whole suite) still leaves a
// clear gap to the next; requests leased before the browser was up arrive together (a gap near 0).
const GAP_MS = 1500;

describe("the engine's lease, taken right before the request", () => {
  it("a browser started by the first pages: each request leaves at its lease, a slot after the one before", async () => {
    const b = await bench();
    const driver = new LazyBrowser({ timeoutMs: 10_000 });
    // The grants, as the pacer makes them.
    const local = new LocalPacer();
    const granted: number[] = [];
    const pacer: RequestPacer = {
      take: async (engine, gapMs, signal) => {
        await local.take(engine, gapMs, signal);
        granted.push(Date.now());
      },
    };
    try {
      const [setup] = b.engines("sim-div");
      const def = setup!.definition;
      const paced = { ...setup!, definition: { ...def, politeness: { minDelayMs: GAP_MS, requestsPerMinute: 0, maxConcurrent: 3 } } };
      const summary = await harvest(b.store, { queries: DEMO.slice(0, 4), pages: 1, ...FAST, engines: [paced], driver, pacer });
      expect(summary.fetched).toBe(4);
      const arrived = b.sim.log.filter((l) => l.engine === "sim-div").map((l) => l.at);
      expect(arrived).toHaveLength(4);
      expect(granted).toHaveLength(4);
      // Leased before the browser was up (1–2 s here), the first pages left together the moment it was. Leased at
      // the request, each reaches the engine within its slot: the browser's own way (57–170 ms measured), not a
      // browser start. (Not the exact gap: what else this process does between a grant and the request's bytes
      // leaving — reading another page — delays one request by up to a few hundred ms on a loaded machine: the gap
      // that follows it shrinks by as much, hence a quarter of the slot.)
      for (const [i, at] of arrived.entries()) expect(at - granted[i]!, `request ${i}`).toBeLessThan(GAP_MS);
      const gaps = arrived.slice(1).map((t, i) => t - arrived[i]!);
      expect(Math.min(...gaps), `gaps: ${gaps.join(" ")}`).toBeGreaterThan(GAP_MS / 4);
    } finally {
      await driver.close();
      await b.close();
    }
  });
});

describe("a loader stopped at the lease sends nothing", () => {
  const arrived: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    arrived.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body><p>page</p></body></html>");
  });
  let origin = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const stopped = async () => false;
  const pacerDown = async (): Promise<boolean> => {
    throw new Error("pacer unreachable");
  };

  it("over HTTP: the load fails, the server saw no request; with the lease granted, it did; a pacer's error is thrown", async () => {
    const b = await bench();
    const http = new HttpLoader({ timeoutMs: 5000, identity: chromeIdentity("120.0.0.0") });
    try {
      const def = b.engines("sim-list")[0]!.definition;
      const failed = await http.load(def, `${origin}/stopped`, { beforeSend: stopped });
      expect(failed.error).toMatch(/not sent: the run stopped/);
      let leased = 0;
      const ok = await http.load(def, `${origin}/granted`, { beforeSend: async () => ++leased > 0 });
      expect(ok.error).toBeNull();
      // The pacer's own failure is not the engine's: it reaches the caller, nothing sent.
      await expect(http.load(def, `${origin}/pacer-down`, { beforeSend: pacerDown })).rejects.toThrow("pacer unreachable");
      expect(leased).toBe(1);
      expect(arrived).toContain("/granted");
      expect(arrived).not.toContain("/stopped");
      expect(arrived).not.toContain("/pacer-down");
    } finally {
      await http.close();
      await b.close();
    }
  });

  it("in the browser: the same", async () => {
    const b = await bench();
    const driver = await SerpDriver.start({ timeoutMs: 5000 });
    try {
      const def = b.engines("sim-list")[0]!.definition;
      const failed = await driver.load(def, `${origin}/stopped-browser`, { beforeSend: stopped });
      expect(failed.error).toMatch(/not sent: the run stopped/);
      await expect(driver.load(def, `${origin}/stopped-pacer-down`, { beforeSend: pacerDown })).rejects.toThrow("pacer unreachable");
      const ok = await driver.load(def, `${origin}/granted-browser`, { beforeSend: async () => true });
      expect(ok.error).toBeNull();
      expect(arrived).toContain("/granted-browser");
      expect(arrived.filter((u) => u.startsWith("/stopped"))).toEqual([]);
    } finally {
      await driver.close();
      await b.close();
    }
  });
});
