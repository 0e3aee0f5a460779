import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tagPathsFromHtml } from "../../src/html/index.js";
import { parseEngineDefinition, searchUrl } from "../../src/serp/index.js";
import { readQueryFile } from "../../src/serp/index.js";
import { resourcePath } from "../../src/paths.js";
import { parseFaults, type Simulator, startSimulator } from "../../src/sim/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";

const DEMO = readQueryFile(resourcePath("queries", "demo.tsv"));
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

function url(engine: string, query: string, page = 1): string {
  const e = sim.engines.find((x) => x.spec.name === engine)!;
  return searchUrl(parseEngineDefinition(e.definition, engine, "sim"), query, page);
}

describe("the simulator's page collection", () => {
  it("puts every sentence pair on a bilingual, an English and a Chinese page, with Tatoeba attribution", () => {
    const { collection } = sim;
    expect(collection.pairs).toHaveLength(2000);
    const kinds = new Map<number, Set<string>>();
    for (const p of collection.pages) for (const i of p.pairs) kinds.set(i, (kinds.get(i) ?? new Set()).add(p.kind));
    for (let i = 0; i < collection.pairs.length; i++) expect([...kinds.get(i)!].sort()).toEqual(["bilingual", "chinese", "english"]);
    const styles = new Set(collection.pages.filter((p) => p.kind === "bilingual").map((p) => p.style));
    expect([...styles].sort()).toEqual(["alternating", "dialogue", "glossary", "paragraphs"]);
  });

  it("serves bilingual pages with each sentence beside its translation, and robots.txt", async () => {
    const glossary = sim.collection.pages.find((p) => p.style === "glossary")!;
    const res = await fetch(sim.origin + glossary.path);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    const pair = sim.collection.pairs[glossary.pairs[0]!]!;
    expect(html).toContain(`<tr><td>${pair.en.replace(/'/g, "&#39;")}</td><td>${pair.zh}</td></tr>`);
    expect(html).toMatch(
      /Tatoeba \(<a href="https:\/\/tatoeba\.org">tatoeba\.org<\/a>\), licensed CC-BY 2\.0 FR\. tatoeba\.org #\d+ \([^)]+\) &#38; #\d+/,
    );
    expect(await (await fetch(`${sim.origin}/robots.txt`)).text()).toContain("Allow: /");
    expect((await fetch(`${sim.origin}/p/nowhere.html`)).status).toBe(404);
  });
});

describe("the simulated engines", () => {
  it("answer a parallel-pair query with the pages holding the pair first, bilingual and monolingual", async () => {
    const q = DEMO[4]!;
    const html = await (await fetch(url("sim-table", `${q.source.text} ${q.target.text}`))).text();
    const last = sim.log[sim.log.length - 1]!;
    expect(last).toMatchObject({ engine: "sim-table", page: 1, layout: "table" });
    expect(last.results).toBeGreaterThanOrEqual(3);
    expect(html).toContain("<em>");
  });

  it("render three layouts (list, div, table) that a wrapper learned on one query extracts on others", async () => {
    for (const engine of ["sim-list", "sim-div", "sim-table"]) {
      const first = `${DEMO[2]!.source.text} ${DEMO[2]!.target.text}`;
      const sample = await (await fetch(url(engine, first))).text();
      const wrapper = learnWrapper(tagPathsFromHtml(sample), { engine, pageUrl: url(engine, first) });
      for (const q of DEMO.slice(3, 8)) {
        const u = url(engine, `${q.source.text} ${q.target.text}`);
        const page = await (await fetch(u)).text();
        const shown = sim.log[sim.log.length - 1]!.results;
        const got = extractRecords(wrapper, tagPathsFromHtml(page), { pageUrl: u });
        expect(got.records, `${engine}: ${q.source.text}`).toHaveLength(shown);
      }
    }
  });

  it("page through results and say so when there are none", async () => {
    const q = DEMO[2]!; // a query with more than 10 hits
    await fetch(url("sim-list", `${q.source.text} ${q.target.text}`, 2));
    expect(sim.log[sim.log.length - 1]).toMatchObject({ page: 2 });
    expect(sim.log[sim.log.length - 1]!.results).toBeGreaterThan(0);
    const none = await (await fetch(url("sim-list", "zzqx florbish"))).text();
    expect(none).toContain("There are no results for");
    const noneDiv = await (await fetch(url("sim-div", "zzqx florbish"))).text();
    expect(noneDiv).toContain("抱歉，没有找到与");
  });

  it("send result links through the engine's redirector where the real engine does (Baidu)", async () => {
    const q = DEMO[0]!;
    const html = await (await fetch(url("sim-div", `${q.source.text} ${q.target.text}`))).text();
    const link = /href="(http:\/\/127\.0\.0\.1:\d+\/div\/link\?url=[^"]+)"/.exec(html)![1]!;
    const res = await fetch(link, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/\/p\/[\w-]+\/[\w-]+\.html$/);
  });
});

describe("fault injection", () => {
  it("parses a fault spec and rejects a bad one", () => {
    expect(parseFaults("sim-div:429@3-4,sim-list:slow@2:8000,*:layout-switch@5-")).toEqual([
      { engine: "sim-div", kind: "429", from: 3, to: 4 },
      { engine: "sim-list", kind: "slow", from: 2, delayMs: 8000 },
      { engine: "*", kind: "layout-switch", from: 5, to: Number.POSITIVE_INFINITY },
    ]);
    expect(() => parseFaults("sim-div:teapot@1")).toThrow(/unknown fault "teapot"/);
    expect(() => parseFaults("sim-div@1")).toThrow(/cannot read "sim-div@1"/);
  });

  it("answers the n-th search of an engine with the injected fault, and the rest normally", async () => {
    const local = await startSimulator({
      pairs: sim.collection.pairs.slice(0, 200),
      faults: parseFaults(
        "sim-list:429@1,sim-list:captcha@2,sim-list:verify-redirect@3,sim-list:consent@4,sim-list:empty@5,sim-list:reset@6,sim-list:slow@7:300,sim-list:layout-switch@8",
      ),
    });
    try {
      const q = `${local.collection.pairs[0]!.en} ${local.collection.pairs[0]!.zh}`;
      const e = local.engines.find((x) => x.spec.name === "sim-list")!;
      const u = searchUrl(parseEngineDefinition(e.definition, "sim-list", "sim"), q, 1);
      const r1 = await fetch(u);
      expect(r1.status).toBe(429);
      expect(await (await fetch(u)).text()).toContain("Our systems have detected unusual traffic");
      const r3 = await fetch(u, { redirect: "manual" });
      expect(r3.status).toBe(302);
      expect(r3.headers.get("location")).toMatch(/^http:\/\/localhost:\d+\/wappass\//);
      expect((await fetch(u, { redirect: "manual" })).headers.get("location")).toMatch(/\/consent\?continue=/);
      expect(await (await fetch(u)).text()).toContain("There are no results for");
      await expect(fetch(u).then((r) => r.text())).rejects.toThrow();
      const t = performance.now();
      expect((await fetch(u)).status).toBe(200);
      expect(performance.now() - t).toBeGreaterThanOrEqual(290);
      await fetch(u);
      expect(local.log.map((l) => l.layout)).toEqual([null, null, null, null, "list", null, "list", "div-2023"]);
      expect(local.requests("sim-list")).toBe(8);
    } finally {
      await local.close();
    }
  });
});
