import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { defaultWrappersDir, listEngineNames, loadEngine } from "../../src/serp/index.js";
import { parseEngineDefinition, searchUrl, supportsPaging } from "../../src/serp/index.js";

/** Page-2 links found on real result pages (../shared/data/serps), one per shipped engine. */
const PAGE2 = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/serp/pagination-links.json"), "utf8")) as Array<{
  engine: string;
  page2: string;
}>;

describe("shipped engine definitions", () => {
  it("cover bing, baidu, google, sogou, so (360), yahoo and duckduckgo, and all validate", () => {
    const names = listEngineNames(defaultWrappersDir());
    expect(names).toEqual(expect.arrayContaining(["baidu", "bing", "duckduckgo", "google", "so", "sogou", "yahoo"]));
    for (const name of names) {
      const e = loadEngine(defaultWrappersDir(), name);
      expect(supportsPaging(e.definition)).toBe(true);
      expect(e.definition.blocks.httpStatus).toContain(429);
      expect(new URL(searchUrl(e.definition, "I see. 我明白了。", 1)).protocol).toBe("https:");
    }
  });

  it("ask for page 2 with the same parameter (and value) as the engine's own page-2 link", () => {
    for (const real of PAGE2) {
      const ours = new URL(searchUrl(loadEngine(defaultWrappersDir(), real.engine).definition, "I see. 我明白了。", 2));
      const theirs = new URL(real.page2, "https://example.invalid/");
      const param = ["first", "pn", "start", "page", "b", "s"].find((p) => theirs.searchParams.has(p) && ours.searchParams.has(p));
      expect(param, real.engine).toBeDefined();
      if (real.engine === "duckduckgo") expect(Number(ours.searchParams.get(param!))).toBeGreaterThan(0);
      else expect(ours.searchParams.get(param!), real.engine).toBe(theirs.searchParams.get(param!));
    }
  });

  it("encode the query pair as UTF-8 in the URL", () => {
    const bing = loadEngine(defaultWrappersDir(), "bing").definition;
    const url = new URL(searchUrl(bing, "I see. 我明白了。", 1));
    expect(url.searchParams.get("q")).toBe("I see. 我明白了。");
    expect(url.searchParams.get("first")).toBe("1");
  });
});

describe("adding an engine", () => {
  it("takes nothing but a URL template; everything else has a default", () => {
    const d = parseEngineDefinition({ searchUrl: "https://search.example.org/?q={query}&p={page}" }, "example", "wrappers/example.json");
    expect(d).toMatchObject({ engine: "example", resultsPerPage: 10, locale: "en-US", politeness: { maxConcurrent: 1 } });
    expect(d.blocks.textPatterns).toContain("unusual traffic");
    expect(searchUrl(d, "a b", 3)).toBe("https://search.example.org/?q=a%20b&p=3");
    expect(parseEngineDefinition("https://x.example/s?q={query}", "x", "f").searchUrl).toBe("https://x.example/s?q={query}");
    expect(supportsPaging(parseEngineDefinition("https://x.example/s?q={query}", "x", "f"))).toBe(false);
  });

  it("rejects a bad definition with the file and field at fault", () => {
    const bad = (raw: unknown) => () => parseEngineDefinition(raw, "x", "wrappers/x.json");
    expect(bad(undefined)).toThrow(UserError);
    expect(bad(undefined)).toThrow(/wrappers\/x\.json: definition: missing/);
    expect(bad({ searchUrl: "https://x.example/s" })).toThrow("wrappers/x.json: definition.searchUrl: must contain {query}");
    expect(bad({ searchUrl: "https://x.example/s?q={query}&n={num}" })).toThrow(/definition\.searchUrl: unknown placeholder \{num\}/);
    expect(bad({ searchUrl: "ftp://x.example/{query}" })).toThrow(/definition\.searchUrl: not an http\(s\) URL/);
    expect(bad({ searchUrl: "https://x/?q={query}", resultsPerPage: 0 })).toThrow(/definition\.resultsPerPage: must be an integer ≥ 1/);
    expect(bad({ searchUrl: "https://x/?q={query}", blocks: { textPatterns: ["(unclosed"] } })).toThrow(
      /definition\.blocks\.textPatterns: bad regular expression/,
    );
  });
});
