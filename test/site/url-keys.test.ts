import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findUrlPairs, formatKey, generalizeKey, loadSite, matchPairs, pairPages, urlTokens } from "../../src/site/index.js";
import { EN_ZH } from "../../src/text/index.js";
import { generateSite, readSentencePairs, SCHEMES, writeSite } from "./site-generator.js";

const sentences = readSentencePairs(new URL("../fixtures/sites/tatoeba-sample.tsv", import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), "bitext-urlkeys-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("finding URL pairing keys (kit-ng2007)", () => {
  it("splits a URL into host, path and file tokens as the paper's Table 1", () => {
    expect(urlTokens("http://www.aud.gov.hk/chi/home/home_c.htm")).toEqual({
      host: ["www", "aud", "gov", "hk"],
      path: ["chi", "home"],
      file: ["home", "c"],
    });
    // Folder names stay whole (Table 3 has path keys like english : tc_chi); queries belong to the file.
    expect(urlTokens("tc_chi/news/list.asp?id=3&lang=c")).toEqual({
      host: [],
      path: ["tc_chi", "news"],
      file: ["list", "id", "3", "lang", "c"],
    });
  });

  it("pairs the URLs of a small site, (null) keys included, each URL at most once", () => {
    const urls = [
      ["http://w.gov.hk/text.html", "en"],
      ["http://w.gov.hk/chinese/text.html", "zh"],
      ["http://w.gov.hk/about.html", "en"],
      ["http://w.gov.hk/chinese/about.html", "zh"],
      ["http://w.gov.hk/news.html", "en"],
      ["http://w.gov.hk/chinese/news.html", "zh"],
      ["http://w.gov.hk/news_c.html", "zh"], // competes with chinese/news.html for news.html
      ["http://w.gov.hk/e/only.html", "en"],
    ].map(([url, lang]) => ({ url: url!, lang: lang! }));
    const r = findUrlPairs(urls, EN_ZH, { threshold: 2 });
    expect(r.keys.map((k) => `${k.field} ${formatKey(k)} ${k.power}`)).toEqual(["path (null):chinese 3"]);
    expect(r.pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    // With τ = 1 the weaker file key (null):c also qualifies, but loses news.html to the stronger key.
    const loose = findUrlPairs(urls, EN_ZH, { threshold: 1 });
    expect(loose.keys.map((k) => formatKey(k))).toContain("(null):c");
    expect(loose.pairs.filter((p) => p.a === 4)).toEqual([expect.objectContaining({ b: 5 })]);
    expect(new Set(loose.pairs.flatMap((p) => [p.a, p.b])).size).toBe(loose.pairs.length * 2);
  });

  it("uses |U|/10 as the default threshold and ignores keys below it", () => {
    const urls = [
      { url: "a/en/x.html", lang: "en" },
      { url: "a/tc/x.html", lang: "zh" },
      ...Array.from({ length: 18 }, (_, i) => ({ url: `misc/p${i}.html`, lang: i % 2 ? "en" : "zh" })),
    ];
    const r = findUrlPairs(urls, EN_ZH);
    expect(r.threshold).toBe(2);
    expect(r.keys).toEqual([]);
    expect(r.candidateKeys).toBeGreaterThan(0);
  });

  it("generalises weak keys like 06e:06c into e:c (the paper's future work)", () => {
    expect(generalizeKey("06e", "06c")).toEqual({ a: "e", b: "c" });
    expect(generalizeKey("regione", "regionc")).toEqual({ a: "e", b: "c" });
    expect(generalizeKey("texten", "textsc")).toEqual({ a: "en", b: "sc" });
    expect(generalizeKey("en", "tc")).toBeNull();
    expect(generalizeKey("p17", "p16")).toBeNull(); // page numbers, not a language marker
    const urls = Array.from({ length: 12 }, (_, i) => [
      { url: `news/${String(i).padStart(2, "0")}e.htm`, lang: "en" },
      { url: `news/${String(i).padStart(2, "0")}c.htm`, lang: "zh" },
    ]).flat();
    const plain = findUrlPairs(urls, EN_ZH, { generalize: false });
    expect(plain.pairs).toHaveLength(0);
    const general = findUrlPairs(urls, EN_ZH);
    expect(general.keys[0]).toMatchObject({ field: "file", a: "e", b: "c", power: 12, accepted: 12 });
    expect(general.pairs.every((p) => p.b === p.a + 1)).toBe(true);
  });

  describe.each(Object.keys(SCHEMES).filter((s) => s !== "none"))("on a site named by the %s scheme", (scheme) => {
    it("finds the scheme's key and every translated pair", () => {
      const generated = generateSite({ seed: scheme.length, scheme: SCHEMES[scheme]!, pairs: 30, onlyEn: 4, onlyZh: 3, sentences });
      const dir = join(tmp, scheme.replace(/[^\w]/g, "_"));
      writeSite(generated, dir);
      const site = loadSite(dir);
      const result = pairPages(site, { method: "urls" });
      const top = result.keys![0]!;
      expect(formatKey(top)).toBe(scheme);
      const predicted = result.pairs.map((p) => ({ a: site.pages[p.a]!.key, b: site.pages[p.b]!.key }));
      const gold = generated.gold.map((g) => ({ a: g.en, b: g.zh }));
      expect(matchPairs(predicted, gold)).toEqual({ tp: gold.length, fp: 0, fn: 0 });
    });
  });
});
