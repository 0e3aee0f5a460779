import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { MAX_ELEMENTS } from "../../src/html/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SerpDriver } from "../../src/serp/index.js";
import { harvest } from "../../src/serp/index.js";
import { HttpLoader } from "../../src/serp/index.js";
import { parseEngineDefinition } from "../../src/serp/index.js";
import { parseFaults } from "../../src/sim/index.js";
import { NEEDS_BROWSER_MEMORY_MS } from "../../src/serp/index.js";
import { engineNeedsBrowser, getFetchTransport, listFetches, listRecords, type Store } from "../../src/store/index.js";
import { bench, DEMO, FAST } from "./helpers.js";

/**
 * The HTTP fast path beside the browser: the same records from the same pages, the path recorded on
 * each fetch, `auto` falling back to the browser where the HTML alone does not do, failures named the
 * same way, and one download per page.
 */

let driver: SerpDriver;
let http: HttpLoader;
beforeAll(async () => {
  driver = await SerpDriver.start({ timeoutMs: 5000 });
  http = new HttpLoader({ timeoutMs: 5000, identity: driver.identity });
});
afterAll(async () => {
  await http.close();
  await driver.close();
});

const recordsOf = async (store: Store) =>
  (await listRecords(store)).map((r) => `${r.engine}|${r.query.source.text}|${r.rank}|${r.url}|${r.title}|${r.snippet}`).sort();

describe("fetch mode http", async () => {
  it("names a page past the parse caps a layout failure, not a network one (it must not make the engine look down)", async () => {
    const b = await bench();
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<html><body>${"<i>x</i>".repeat(MAX_ELEMENTS + 1)}</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const def = b.engines("sim-list")[0]!.definition;
      const page = await http.load(def, `http://127.0.0.1:${port}/search?q=x`);
      expect(page.errorKind).toBe("layout");
      expect(page.error).toMatch(/^layout: page skipped \(too-many-elements\)/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await b.close();
    }
  });

  it("stores the same records as the browser on the three layouts, one download per page, fetched_with http", async () => {
    const viaBrowser = await bench();
    const viaHttp = await bench();
    try {
      const engines = ["sim-list", "sim-div", "sim-table"];
      const opts = { queries: DEMO.slice(0, 4), pages: 2, ...FAST };
      const a = await harvest(viaBrowser.store, { ...opts, engines: viaBrowser.engines(...engines), driver });
      const b = await harvest(viaHttp.store, { ...opts, engines: viaHttp.engines(...engines), driver, http, fetchMode: "http" });
      expect(b).toMatchObject({ ok: a.ok, empty: a.empty, errors: 0, newRecords: a.newRecords, fetched: a.fetched });
      // The two simulators differ only by their port, which is part of URLs and display URLs.
      const portless = async (b: Awaited<ReturnType<typeof bench>>) =>
        (await recordsOf(b.store)).map((r) => r.replaceAll(b.sim.origin.replace("http://", ""), "HOST"));
      expect(await portless(viaHttp)).toEqual(await portless(viaBrowser));
      expect(viaHttp.sim.log).toHaveLength(b.fetched); // one request per page
      for (const f of await listFetches(viaHttp.store))
        expect(await getFetchTransport(viaHttp.store, f.id)).toEqual({ proxy: null, fetchedWith: "http" });
      for (const f of await listFetches(viaBrowser.store))
        expect((await getFetchTransport(viaBrowser.store, f.id))?.fetchedWith).toBe("browser");
    } finally {
      await viaBrowser.close();
      await viaHttp.close();
    }
  });

  it("follows a redirect once and reads the page it leads to (a verification page: blocked)", async () => {
    const b = await bench(parseFaults("sim-div:verify-redirect@2"));
    try {
      const s = await harvest(b.store, {
        queries: DEMO.slice(0, 2),
        engines: b.engines("sim-div"),
        driver,
        http,
        fetchMode: "http",
        keepHtml: true,
        concurrency: 1,
        ...FAST,
      });
      expect(s).toMatchObject({ ok: 2, blocked: 1, left: 0 });
      const blocked = (await listFetches(b.store, { status: "blocked" }))[0]!;
      expect(blocked.detail).toMatch(/^redirected to http:\/\/localhost:\d+\/wappass\//);
      expect(blocked.finalUrl).toMatch(/\/wappass\/static\/captcha\/tuxing\.html/);
    } finally {
      await b.close();
    }
  });

  it("names failures as the browser does: refused, DNS", async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    const def = parseEngineDefinition({ searchUrl: `http://127.0.0.1:${port}/s?q={query}` }, "closed", "t");
    expect(await http.load(def, `http://127.0.0.1:${port}/s?q=x`)).toMatchObject({
      error: `refused: connection refused: 127.0.0.1:${port} (ECONNREFUSED)`,
      errorKind: "refused",
    });
    const dns = await http.load(def, "http://nowhere.invalid/s?q=x");
    expect(dns).toMatchObject({
      errorKind: "dns",
      error: expect.stringMatching(/^dns: host name not found \(DNS\): nowhere\.invalid \(E/),
    });
  });

  it("cannot read an engine whose results only its script writes: an unrecognised page, not records", async () => {
    const b = await bench();
    try {
      const s = await harvest(b.store, {
        queries: DEMO.slice(0, 1),
        engines: b.engines("sim-script"),
        driver,
        http,
        fetchMode: "http",
        retries: 0,
        ...FAST,
      });
      expect(s).toMatchObject({ ok: 0, left: 1, causes: expect.objectContaining({ layout: 1 }) });
    } finally {
      await b.close();
    }
  });
});

describe("fetch mode auto", () => {
  it("uses HTTP where the HTML holds the records, the browser where it does not (script, consent), and says so", async () => {
    const b = await bench();
    try {
      const s = await harvest(b.store, {
        queries: DEMO.slice(0, 3),
        engines: b.engines("sim-list", "sim-script", "sim-eu"),
        driver,
        http,
        fetchMode: "auto",
        blockRetries: 0,
        ...FAST,
      });
      const paths = async (engine: string) =>
        Promise.all((await listFetches(b.store, { engine })).map(async (f) => (await getFetchTransport(b.store, f.id))!.fetchedWith));
      // sim-list: the first page teaches the wrapper in the browser, the others are read from HTTP.
      expect((await paths("sim-list")).filter((p) => p === "http").length).toBeGreaterThanOrEqual(1);
      expect(s.engines["sim-list"]).toMatchObject({ ok: 3, left: 0 });
      expect(await paths("sim-script")).toEqual(["browser", "browser", "browser"]);
      expect(s.engines["sim-script"]).toMatchObject({ ok: 3, left: 0 });
      expect((await listFetches(b.store, { engine: "sim-script" }))[0]!.detail).toMatch(/^by browser, as HTTP gave no records \(/);
      // The consent wall is met in HTTP and again in the browser (no --accept-consent): reported as consent.
      expect(s.engines["sim-eu"]!.causes.consent).toBe(3);
      expect(countServed(b)).toBe((await listRecords(b.store)).length);
    } finally {
      await b.close();
    }
  });
});

describe("fetch mode auto, run after run", () => {
  it("remembers in the store that an engine needs the browser: later pages and runs download each page once", async () => {
    const b = await bench();
    try {
      const opts = { queries: DEMO.slice(0, 3), engines: b.engines("sim-script"), driver, http, fetchMode: "auto" as const, ...FAST };
      await harvest(b.store, opts);
      expect(await engineNeedsBrowser(b.store, "sim-script", NEEDS_BROWSER_MEMORY_MS)).toMatch(/./);
      const before = b.sim.log.filter((l) => l.engine === "sim-script").length;
      const again = await harvest(b.store, { ...opts, maxAgeMs: 0 });
      expect(again.engines["sim-script"]).toMatchObject({ ok: 3, left: 0 });
      expect(b.sim.log.filter((l) => l.engine === "sim-script").length - before).toBe(3); // one download a page, not two
      const latest = (await listFetches(b.store, { engine: "sim-script" })).slice(-3);
      for (const f of latest) expect((await getFetchTransport(b.store, f.id))!.fetchedWith).toBe("browser");
      // Remembered for a while only: engines change, and HTTP is tried again after it.
      expect(
        await engineNeedsBrowser(b.store, "sim-script", NEEDS_BROWSER_MEMORY_MS, Date.now() + NEEDS_BROWSER_MEMORY_MS + 1000),
      ).toBeNull();
    } finally {
      await b.close();
    }
  });
});

function countServed(b: Awaited<ReturnType<typeof bench>>): number {
  return b.served("sim-list") + b.served("sim-script");
}
