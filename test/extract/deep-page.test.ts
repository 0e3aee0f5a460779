/**
 * Issue 16: a page nested 100,000 elements deep must not overflow the stack in extraction (every tree walk of
 * the extractor is iterative). The page is generated: this tests a mechanism, not accuracy.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extractFromHtml } from "../../src/extract/index.js";
import { runCommand } from "../helpers/cli.js";

const DEPTH = 100_000;

function deepPage(inner: string): string {
  return `<!DOCTYPE html><html><body>${"<div>".repeat(DEPTH)}${inner}${"</div>".repeat(DEPTH)}</body></html>`;
}

describe("a page nested 100,000 deep", () => {
  const inner =
    "<p>Where is the station?</p><p>车站在哪里？</p><p>I would like a cup of tea.</p><p>我想要一杯茶。</p>" +
    "<p>The weather is nice today.</p><p>今天天气很好。</p>";

  it("is extracted without overflowing the stack, its pairs found at the bottom", () => {
    const { pairs } = extractFromHtml(deepPage(inner), "deep.html");
    expect(pairs.map((p) => [p.a, p.b])).toEqual([
      ["Where is the station?", "车站在哪里？"],
      ["I would like a cup of tea.", "我想要一杯茶。"],
      ["The weather is nice today.", "今天天气很好。"],
    ]);
  });

  it("goes through feng2011's analyser too (a page without a regular template) without overflowing", () => {
    const { pairs } = extractFromHtml(deepPage("<p>Good morning 早上好</p>"), "deep.html", { system: "feng2011" });
    expect(Array.isArray(pairs)).toBe(true);
  });

  it("bitext extract exits 0 on it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "bitext-deep-")), "deep.html");
    writeFileSync(file, deepPage(inner));
    const r = await runCommand(["extract", "--json", file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(3);
  });
});
