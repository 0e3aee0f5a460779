import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../helpers/cli.js";
import { startStaticServer } from "../net/local-server.js";
import { generateSite, readSentencePairs, SCHEMES, writeSite } from "./site-generator.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const sentences = readSentencePairs(join(ROOT, "test/fixtures/sites/tatoeba-sample.tsv"));
const tmp = mkdtempSync(join(tmpdir(), "bitext-site-cli-"));
const mirror = join(tmp, "mirror");
let gold: Array<{ en: string; zh: string }>;

const bitext = (args: string[]) => runCommand(args);

beforeAll(() => {
  const generated = generateSite({ seed: 9, scheme: SCHEMES["(null):c"]!, pairs: 24, unpatterned: 5, onlyEn: 2, sentences });
  writeSite(generated, mirror);
  gold = generated.gold;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("bitext site and eval site", () => {
  it("site pair --json prints one line per pair with en, zh (paths in the folder) and score", async () => {
    const r = await bitext(["site", "pair", mirror, "--method", "urls", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(gold.length - 5);
    for (const l of lines) {
      expect(typeof l.en).toBe("string");
      expect(typeof l.zh).toBe("string");
      expect(l.score).toBeGreaterThan(0);
      expect(l.key).toBe("file (null):c");
    }
    const goldKeys = new Set(gold.map((g) => `${g.en} ${g.zh}`));
    expect(lines.every((l) => goldKeys.has(`${l.en} ${l.zh}`))).toBe(true);
  });

  it("site pair shows the URL keys with their linking power, then the pairs", async () => {
    const r = await bitext(["site", "pair", mirror, "--method", "urls"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/URL keys \(τ = [\d.]+\): 1\nfield\s+key\s+power\s+pairs/);
    expect(r.stdout).toMatch(/file\s+\(null\):c\s+\d+/);
    expect(r.stdout).toContain(`${gold.length - 5} pairs (urls)`);
    expect(r.stdout).toMatch(/\nindex\.htm\s+index_c\.htm\s+[\d.]+\s+file \(null\):c\n/);
  });

  it("eval site scores every method against the gold pairs", async () => {
    const goldFile = join(mirror, "gold.json");
    const r = await bitext(["eval", "site", mirror, "--gold", goldFile, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      goldPairs: number;
      results: Array<{ method: string; scores: { f1: number; precision: number; recall: number } }>;
    };
    expect(out.goldPairs).toBe(gold.length);
    const by = Object.fromEntries(out.results.map((x) => [x.method, x.scores]));
    expect(by.urls!.precision).toBe(1);
    expect(by.urls!.recall).toBeCloseTo((gold.length - 5) / gold.length, 6);
    expect(by.both!.f1).toBe(1);
    const text = await bitext(["eval", "site", mirror, "--gold", goldFile, "--method", "urls"]);
    expect(text.stdout).toMatch(/method\s+pairs\s+P\s+R\s+F1/);
    expect(text.stdout.trim().split("\n")).toHaveLength(3);
  });

  it("crawls a site served on 127.0.0.1 and pairs it by URL", async () => {
    const server = await startStaticServer(mirror);
    try {
      const out = join(tmp, "crawl");
      const r = await bitext(["site", "crawl", server.url("/index.htm"), "--out", out, "--delay", "0", "--json"]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ pages: gold.length * 2 + 2, interrupted: false });
      const load = await bitext(["site", "load", out]);
      expect(load.stdout).toContain(`crawl ${out}: ${gold.length * 2 + 2} pages (en ${gold.length + 2}, zh ${gold.length})`);
      const pairs = await bitext(["site", "pair", out, "--method", "urls", "--json"]);
      const first = JSON.parse(pairs.stdout.split("\n")[0]!) as { en: string; zh: string };
      expect(first.en.startsWith(server.origin)).toBe(true);
      expect(first.zh).toMatch(/_c\.htm$/);
    } finally {
      await server.close();
    }
  });

  it("names the flags in what it tells the user: the page limit, the folder of an earlier crawl", async () => {
    const server = await startStaticServer(mirror);
    try {
      const out = join(tmp, "crawl-limited");
      const r = await bitext(["site", "crawl", server.url("/index.htm"), "--out", out, "--delay", "0", "--max-pages", "3", "--json"]);
      expect(r.code).toBe(0);
      const summary = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(summary).toMatchObject({ pages: 3, stopReason: "page limit reached (--max-pages 3)" });
      expect(summary).not.toHaveProperty("pageLimitReached");
      const again = await bitext(["site", "crawl", server.url("/index.htm"), "--out", out, "--delay", "0"]);
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toBe(`bitext: ${out}: holds an earlier crawl; add --force to replace it`);
    } finally {
      await server.close();
    }
  });

  it("reports bad input in one line with a non-zero exit", async () => {
    const badGold = join(tmp, "bad-gold.jsonl");
    writeFileSync(badGold, '{"en": "a.htm", "zh": "a_c.htm"}\n{"en": 3, "zh": "b_c.htm"}\n');
    const empty = mkdtempSync(join(tmp, "empty-"));
    const [missing, method, langs, gold2, none] = await Promise.all([
      bitext(["site", "pair", join(tmp, "nope")]),
      bitext(["site", "pair", mirror, "--method", "pagerank"]),
      bitext(["site", "load", mirror, "--langs", "en-xx"]),
      bitext(["eval", "site", mirror, "--gold", badGold, "--method", "urls"]),
      bitext(["site", "load", empty]),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`bitext: ${join(tmp, "nope")}: no such folder`);
    expect(method.stderr.trim()).toBe('bitext: --method: "pagerank" is not one of urls, links, both');
    expect(langs.stderr.trim()).toBe('bitext: --langs: no script is known for "xx"');
    expect(gold2.code).toBe(1);
    expect(gold2.stderr.trim()).toBe(`bitext: ${badGold}:2: en: must be a page path or URL (a string) or null`);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no HTML pages found");
  });
});
