import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPageTagPaths } from "../../src/html/index.js";
import { layoutFingerprint, layoutSimilarity, sameLayout } from "../../src/wrapper/index.js";
import { REAL_DATA } from "../helpers/cli.js";

// Two class-poor Yahoo pages of 2000 (their fingerprint is of tag paths) and a Google page of 2020.
const YAHOO = join(REAL_DATA, "serps", "aql-more", "yahoo");
const page = (dir: string, name: string) => readPageTagPaths(join(dir, `${name}.html`)).seq;
const a = page(YAHOO, "yahoo-gabel-970409689");
const b = page(YAHOO, "yahoo-gender-discrimination-970694307");
const google = page(join(REAL_DATA, "serps", "aql-more", "google"), "google-does-steve-has-a-beard-1601705030");

describe("layout fingerprint of tag paths", () => {
  it("is one token per unique path, and tells a page of the same layout from another engine's", () => {
    const fp = layoutFingerprint(a);
    expect(fp.kind).toBe("paths");
    expect(fp.tokens).toHaveLength(a.paths.length);
    expect(fp.tokens.every((t) => /^[0-9a-f]{14}$/.test(t))).toBe(true);
    expect(layoutSimilarity(fp, a)).toBe(1);
    expect(sameLayout(fp, b).same).toBe(true);
    expect(sameLayout(fp, google).same).toBe(false);
  });

  it("reads a wrapper learned with the SHA-1 tokens of before with the same similarity", () => {
    const fp = layoutFingerprint(a);
    const legacy = { kind: "paths" as const, tokens: a.paths.map((p) => createHash("sha1").update(p).digest("hex").slice(0, 10)).sort() };
    for (const other of [a, b, google]) expect(layoutSimilarity(legacy, other)).toBeCloseTo(layoutSimilarity(fp, other), 9);
    expect(layoutSimilarity(fp, b)).toBeGreaterThan(0.15);
  });
});
