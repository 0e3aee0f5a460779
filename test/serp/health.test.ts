import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tagPathsFromHtml } from "../../src/html/index.js";
import type { HarvestEvent } from "../../src/serp/index.js";
import { harvest } from "../../src/serp/index.js";
import type { LoadedPage } from "../../src/serp/index.js";
import type { PageLoader } from "../../src/serp/index.js";
import { renderList } from "../../src/sim/layouts/list.js";
import type { SerpView } from "../../src/sim/layouts/types.js";
import { listDriftEvents, listRecords, loadEngineHealth } from "../../src/store/index.js";
import { runCommand } from "../helpers/cli.js";
import { type Bench, bench, DEMO, FAST } from "./helpers.js";

/**
 * A harvest watching its engines' health (issue 30), on generated result pages (a mechanism test: the accuracy
 * figures are the replay of real pages in bench/health.bench.ts). The first pages build the engine's profile;
 * then the engine changes its page under the wrapper, silently: the results move to new markup and the old
 * list holds a few "trending" links the wrapper still reads (a wrong list). With the results still on the page,
 * a wrapper re-learned on it reads them within the profile: the drift is fixed. Without them, every page drifts,
 * and after three in a row the engine is stopped with the reason.
 */

const SNIPPETS = [
  "He was accused of murder, and the court heard the case for three days before the jury returned.",
  "I see. The translation of this sentence keeps the meaning of the original and reads naturally.",
  "A short example sentence with its Chinese translation, taken from a bilingual dictionary.",
  "Examples of the phrase in context, with English and Chinese side by side, for learners.",
];

function view(query: string, n: number): SerpView {
  return {
    query,
    page: 1,
    perPage: 10,
    total: n,
    results: Array.from({ length: n }, (_, i) => ({
      titleHtml: `<em>${query}</em> — example sentences ${i + 1} and their translation`,
      href: `http://site${i}.example/${encodeURIComponent(query)}/${i}`,
      displayUrl: `site${i}.example`,
      snippetHtml: `${SNIPPETS[i % SNIPPETS.length]} <em>${query}</em>`,
      date: "2 days ago",
    })),
    ads: [],
    related: [],
    pageHref: (p) => `/search?q=x&page=${p}`,
    searchHref: (q) => `/search?q=${encodeURIComponent(q)}`,
  };
}

const TRENDING = (k: number) =>
  Array.from(
    { length: k },
    (_, i) =>
      `<li class="b_algo"><h2><a href="/trending/${i}">Trending now ${i + 1}</a></h2><div class="b_caption"><div class="b_attribution"><cite>news</cite></div><p>Popular today among the readers of our news pages</p></div></li>`,
  ).join("");

/** The engine's page after the change: results in new markup after the list, the list holding `k` trending links. */
function changed(query: string, withResults: boolean, k: number): string {
  const html = renderList(view(query, 10));
  const start = html.indexOf('<ol id="b_results">');
  const end = html.indexOf("</ol>", start) + "</ol>".length;
  const results = view(query, 10)
    .results.map((r) => `<div class="res"><h3><a href="${r.href}">${r.titleHtml}</a></h3><span class="desc">${r.snippetHtml}</span></div>`)
    .join("");
  return `${html.slice(0, start)}<ol id="b_results">${TRENDING(k)}</ol>${withResults ? `<section id="rs">${results}</section>` : ""}${html.slice(end)}`;
}

/** Serves generated pages: the first `normal` searches the engine's usual page, later ones `after(query)`. */
function loader(normal: number, after: (query: string) => string): PageLoader & { close(): Promise<void> } {
  let n = 0;
  return {
    timeoutMs: 10_000,
    async load(_def, url) {
      const query = new URL(url).searchParams.get("q") ?? "";
      const html = ++n <= normal ? renderList(view(query, 10)) : after(query);
      const body = Buffer.from(html);
      const page: LoadedPage = {
        observation: {
          requestUrl: url,
          finalUrl: url,
          httpStatus: 200,
          title: `${query} - Search`,
          text: "",
          blockSelectors: [],
          noResultsSelectors: [],
        },
        seq: tagPathsFromHtml(html),
        body,
        contentSha256: createHash("sha256").update(body).digest("hex"),
        error: null,
        errorKind: null,
        timings: { navigateMs: 1, evaluateMs: 1, bodyMs: 1, totalMs: 3 },
      };
      return page;
    },
    async close() {},
  };
}

describe("a harvest watching its engines' health", () => {
  let b: Bench;
  beforeEach(async () => {
    b = await bench();
  });
  afterEach(async () => b.close());

  it("fixes a wrapper that silently reads the wrong list by re-learning it on the page, and stores the page's real records", async () => {
    const events: HarvestEvent[] = [];
    const queries = DEMO.slice(0, 8);
    const s = await harvest(b.store, {
      queries,
      engines: b.engines("sim-list"),
      driver: loader(4, (q) => changed(q, true, 4)),
      pages: 1,
      concurrency: 1,
      onEvent: (e) => events.push(e),
      ...FAST,
    });
    expect(s.status).toBe("completed");
    const drifts = await listDriftEvents(b.store, { runId: s.runId });
    expect(drifts.map((d) => d.action)).toEqual(["relearned"]);
    expect(events.some((e) => e.kind === "drift" && e.action === "relearned")).toBe(true);
    expect(s.engines["sim-list"]!.drifts).toBe(1);
    // Every page after the change was stored with its ten real results, none of the trending links.
    const records = await listRecords(b.store, {});
    expect(records.filter((r) => r.url.includes("/trending/"))).toEqual([]);
    expect(records).toHaveLength(queries.length * 10);
    expect((await loadEngineHealth(b.store, "sim-list"))!.pages).toBeGreaterThanOrEqual(queries.length - 1);
  });

  it("stops the engine after three drifted pages in a row that no re-learned wrapper reads better, and counts them in `bitext runs`", async () => {
    const events: HarvestEvent[] = [];
    const s = await harvest(b.store, {
      queries: DEMO.slice(0, 8),
      engines: b.engines("sim-list"),
      driver: loader(4, (q) => changed(q, false, 2)),
      pages: 1,
      concurrency: 1,
      onEvent: (e) => events.push(e),
      ...FAST,
    });
    const e = s.engines["sim-list"]!;
    expect((await listDriftEvents(b.store, { runId: s.runId })).map((d) => d.action)).toEqual(["drift", "drift", "stopped"]);
    expect(e.givenUp).toBe(true);
    expect(e.givenUpBecause).toMatch(/^wrapper drift: 3 pages in a row outside its health profile, none fixed by re-learning \(last: /);
    expect(e.left).toBe(1);
    expect(events.filter((x) => x.kind === "drift").map((x) => (x as { streak: number }).streak)).toEqual([1, 2, 3]);
    const runs = await runCommand(["runs", "--db", b.store.path, "--json"]);
    expect(JSON.parse(runs.stdout)).toEqual([expect.objectContaining({ id: s.runId, drifts: 3 })]);
  });

  it("leaves the engine's pages alone while they stay within its profile", async () => {
    const s = await harvest(b.store, {
      queries: DEMO.slice(0, 8),
      engines: b.engines("sim-list"),
      driver: loader(100, () => ""),
      pages: 1,
      concurrency: 1,
      ...FAST,
    });
    expect(s.engines["sim-list"]!.drifts).toBe(0);
    expect(await listDriftEvents(b.store)).toEqual([]);
    expect((await loadEngineHealth(b.store, "sim-list"))!.pages).toBe(8);
  });
});
