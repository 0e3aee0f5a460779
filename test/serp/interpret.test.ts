import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeHtml } from "../../src/html/index.js";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { resourcePath } from "../../src/paths.js";
import type { PageObservation } from "../../src/serp/index.js";
import { pageText } from "../../src/serp/index.js";
import { type EngineDefinition, parseEngineDefinition, searchUrl } from "../../src/serp/index.js";
import { DEFAULT_INTERPRET, interpretPage, type LoadedResultPage } from "../../src/serp/index.js";
import { type FaultRule, type Simulator, startSimulator } from "../../src/sim/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import type { Wrapper } from "../../src/wrapper/index.js";
import { DEMO } from "./helpers.js";
import { REAL_DATA } from "../helpers/cli.js";

/** What the driver would see, built offline: the tag paths (parse5, as in the browser) and the selectors (jsdom). */
async function load(def: EngineDefinition, url: string): Promise<LoadedResultPage> {
  const res = await fetch(url);
  const html = await res.text();
  const seq = tagPathsFromHtml(html);
  const doc = new JSDOM(html).window.document;
  const has = (sels: string[]) => sels.filter((s) => doc.querySelector(s) !== null);
  const observation: PageObservation = {
    requestUrl: url,
    finalUrl: res.url,
    httpStatus: res.status,
    title: doc.title,
    text: pageText(seq),
    blockSelectors: has(def.blocks.selectors),
    noResultsSelectors: has(def.noResults.selectors),
  };
  return { observation, seq, error: null };
}

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

function engine(name: string): EngineDefinition {
  return parseEngineDefinition(sim.engines.find((e) => e.spec.name === name)!.definition, name, "sim");
}
const q = (i: number) => `${DEMO[i]!.source.text} ${DEMO[i]!.target.text}`;
async function withFault(rule: Omit<FaultRule, "from">, run: () => Promise<void>): Promise<void> {
  sim.setFaults([{ ...rule, from: sim.requests(rule.engine) + 1 }]);
  try {
    await run();
  } finally {
    sim.setFaults([]);
  }
}

describe("real pages where the engine found nothing for the exact query", () => {
  it("are empty (the engine answered another query) or keep the relaxed query's results, flagged; never blocks: 9 captures", () => {
    const dir = `${REAL_DATA}/serps/fixtures/googlescraper/no_results`;
    const files = readdirSync(dir).filter((f) => !f.includes("duckduckgo")); // DuckDuckGo's capture is its script-rendered page
    expect(files).toHaveLength(9);
    for (const f of files) {
      const name = /__(google|bing|yahoo|baidu)\.html$/.exec(f)?.[1] ?? "bing";
      const def = parseEngineDefinition(JSON.parse(readFileSync(resourcePath("wrappers", `${name}.json`), "utf8")).definition, name, f);
      const seq = tagPathsFromHtml(decodeHtml(readFileSync(join(dir, f))).text);
      const observation: PageObservation = {
        requestUrl: "https://s.example/s?q=x",
        finalUrl: "https://s.example/s?q=x",
        httpStatus: 200,
        title: "",
        text: pageText(seq),
        blockSelectors: [],
        noResultsSelectors: [],
      };
      // A page with too few result-like records to learn from is read as by an engine without a wrapper yet.
      let wrapper: Wrapper | null = null;
      try {
        wrapper = learnWrapper(seq, { engine: name });
      } catch (err) {
        expect((err as Error).message, f).toMatch(/no repeated record structure/);
      }
      const v = interpretPage({ observation, seq, error: null }, def, wrapper, { ...DEFAULT_INTERPRET, learn: wrapper === null });
      if (f === "uncompressed_no_results_serp_pages__ask.html") {
        // "Meinten Sie: food" above ten results that do mention the submitted "fooood": kept, the rewrite in the detail.
        expect(v.status, f).toBe("ok");
        expect(v.detail, f).toMatch(/rewrote/);
        continue;
      }
      if (/__google\.html$/.test(f)) {
        // No results for the quoted query, then ten results for it unquoted: kept, the rewrite in the detail.
        expect(v.status, f).toBe("ok");
        expect(v.records.length, f).toBe(10);
        expect(v.detail, f).toMatch(/relaxed query/);
        continue;
      }
      expect(v.status, f).toBe("empty");
      expect(v.detail, f).toMatch(/answered another query|found nothing for the query|no record structure to learn one from/);
    }
  });
});

describe("what a loaded result page means", () => {
  it("learns a wrapper from the first page of an engine without one, then extracts with it", async () => {
    const def = engine("sim-div");
    const first = interpretPage(await load(def, searchUrl(def, q(2), 1)), def, null);
    expect(first.status).toBe("ok");
    expect(first.learned).not.toBeNull();
    expect(first.records.length).toBe(10);
    const next = interpretPage(await load(def, searchUrl(def, q(3), 1)), def, first.learned);
    expect(next).toMatchObject({ status: "ok", learned: null, reused: null });
    expect(next.records.length).toBe(sim.log[sim.log.length - 1]!.results);
  });

  it("calls a captcha page served with HTTP 200 a block, by its element or its words", async () => {
    const def = engine("sim-list");
    const wrapper = interpretPage(await load(def, searchUrl(def, q(2), 1)), def, null).learned!;
    await withFault({ engine: "sim-list", kind: "captcha" }, async () => {
      const page = await load(def, searchUrl(def, q(3), 1));
      expect(interpretPage(page, def, wrapper)).toMatchObject({ status: "blocked", records: [] });
      // Without the element, the words alone decide, since the page yields no records.
      const wordsOnly = { ...page, observation: { ...page.observation, blockSelectors: [] } };
      expect(interpretPage(wordsOnly, def, wrapper).detail).toMatch(/^page says ".*unusual traffic"/);
    });
  });

  it("calls the engine's no-results page empty, and never learns from it", async () => {
    for (const name of ["sim-list", "sim-div", "sim-table"]) {
      const def = engine(name);
      const wrapper = interpretPage(await load(def, searchUrl(def, q(2), 1)), def, null).learned!;
      const v = interpretPage(await load(def, searchUrl(def, "zzqx florbish", 1)), def, wrapper);
      expect(v, name).toMatchObject({ status: "empty", records: [], learned: null });
    }
  });

  it("re-learns after a redesign, keeps a short page's few records, and reuses an earlier wrapper for the old layout", async () => {
    const def = engine("sim-table");
    const old = interpretPage(await load(def, searchUrl(def, q(2), 1)), def, null).learned!;
    let fresh: Wrapper | null = null;
    await withFault({ engine: "sim-table", kind: "layout-switch", to: Number.POSITIVE_INFINITY }, async () => {
      const v = interpretPage(await load(def, searchUrl(def, q(3), 1)), def, old);
      expect(v.status).toBe("ok");
      expect(v.detail).toMatch(/^wrapper re-learned: the old one gave 0 records/);
      fresh = v.learned;
      expect(fresh).not.toBeNull();
      // Without learning, the same page is unrecognised (an error to retry), never empty.
      expect(interpretPage(await load(def, searchUrl(def, q(3), 1)), def, old, { ...DEFAULT_INTERPRET, learn: false }).status).toBe(
        "error",
      );
    });
    // The old layout again (an A/B test): the earlier wrapper fits, nothing is re-learned.
    const back = interpretPage(await load(def, searchUrl(def, q(4), 1)), def, fresh, DEFAULT_INTERPRET, [old]);
    expect(back).toMatchObject({ status: "ok", learned: null, reused: old });
    // A short last page: the few records stand, no re-learning.
    const short = interpretPage(await load(def, searchUrl(def, q(4), 2)), def, old); // 14 hits: 4 on page 2
    expect(short.status).toBe("ok");
    expect(short.records.length).toBe(sim.log[sim.log.length - 1]!.results);
    expect(short.records.length).toBeLessThan(5);
    expect(short.learned).toBeNull();
  });

  it("calls a failed navigation or an HTTP error an error", () => {
    const def = engine("sim-list");
    const u = "http://engine.example/s?q=x";
    const blank: PageObservation = {
      requestUrl: u,
      finalUrl: u,
      httpStatus: null,
      title: "",
      text: "",
      blockSelectors: [],
      noResultsSelectors: [],
    };
    const reset = "network: connection reset: engine.example (net::ERR_CONNECTION_RESET)";
    expect(interpretPage({ observation: blank, seq: null, error: reset, errorKind: "network" }, def, null)).toMatchObject({
      status: "error",
      detail: reset,
      cause: "network",
    });
    const seq = tagPathsFromHtml("<html><body><h1>Internal Server Error</h1></body></html>");
    expect(interpretPage({ observation: { ...blank, httpStatus: 500 }, seq, error: null }, def, null)).toMatchObject({
      status: "error",
      detail: "HTTP 500 from engine.example",
      cause: "http",
    });
    expect(interpretPage({ observation: { ...blank, httpStatus: 429 }, seq, error: null }, def, null)).toMatchObject({
      status: "blocked",
      detail: "HTTP 429",
      cause: "blocked",
    });
  });
});
