import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "../../src/html/index.js";
import { MAX_DEPTH, MAX_ELEMENTS, PageSkipped, checkPageBytes } from "../../src/html/index.js";
import { readPageTagPaths, readSavedPage } from "../../src/html/index.js";
import { maxDepth, parseHtml, tagPathsFromHtml } from "../../src/html/index.js";
import { seededRandom as random } from "../../src/random.js";
import { runCommand, REAL_DATA } from "../helpers/cli.js";

const deepClosed = (n: number) => `<html><body>${"<div>".repeat(n)}deep text${"</div>".repeat(n)}<p>after</p></body></html>`;
const deepUnclosed = (n: number) => `<html><body>${"<div>".repeat(n)}deep text`;

function skipReason(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof PageSkipped) return err.reason;
    throw err;
  }
}

describe("the capped parse entry", () => {
  it("parses a real page exactly as before: nothing reparented, depth far below the cap", () => {
    const page = readSavedPage(join(REAL_DATA, "serps/modern/google/kokoc-google-2024-05-06.html"));
    const parsed = parseHtml(page.text);
    expect(parsed.reparented).toBe(0);
    expect(parsed.elements).toBeGreaterThan(1000);
    expect(maxDepth(parsed.document)).toBeLessThan(100);
  });

  it("stops nesting at the browser's cap: deeper elements become siblings and keep their text", () => {
    for (const html of [deepClosed(5000), deepUnclosed(5000), `<html><body>${"<b>".repeat(5000)}deep text`]) {
      const parsed = parseHtml(html);
      // Blink attaches an element to the current node's parent once 512 are open (html = 1): the deepest is at 513.
      expect(maxDepth(parsed.document)).toBe(MAX_DEPTH + 1);
      expect(parsed.reparented).toBeGreaterThan(4000);
      const seq = tagPathsFromHtml(html);
      expect(seq.texts).toContain("deep text");
    }
    const doc = parseDocument(deepClosed(3000));
    expect(doc.body.textContent).toContain("deep text");
    expect(doc.body.textContent).toContain("after");
  });

  it("caps nesting through template contents too", () => {
    expect(maxDepth(parseHtml(`<html><body>${"<template>".repeat(3000)}x`).document)).toBeLessThanOrEqual(MAX_DEPTH + 2);
  });

  it("skips a page with too many elements, as soon as the count is passed", () => {
    expect(skipReason(() => parseHtml(`<html><body>${"<i></i>".repeat(MAX_ELEMENTS + 10)}`))).toBe("too-many-elements");
    expect(skipReason(() => parseDocument(deepUnclosed(MAX_ELEMENTS + 10)))).toBe("too-many-elements");
  });

  it("skips binary served as HTML, and keeps text pages in any charset", () => {
    const rnd = random(7);
    const bytes = Uint8Array.from({ length: 200_000 }, () => Math.floor(rnd() * 256));
    expect(skipReason(() => checkPageBytes(bytes))).toBe("binary");
    expect(skipReason(() => parseHtml(new TextDecoder("gb18030").decode(bytes)))).toBe("binary");
    const gbk = readSavedPage(join(REAL_DATA, "serps/modern/google/kokoc-google-2024-05-06.html"));
    expect(skipReason(() => checkPageBytes(Buffer.from(gbk.text)))).toBeNull();
    // UTF-16 with its BOM is text even though half its bytes are NUL.
    expect(skipReason(() => checkPageBytes(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<p>hi</p>", "utf16le")])))).toBeNull();
  });

  it("names the file of a skipped page, and the CLI reports it on one line with exit 65", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-caps-"));
    const file = join(dir, "binary.html");
    const rnd = random(3);
    writeFileSync(
      file,
      Uint8Array.from({ length: 50_000 }, () => Math.floor(rnd() * 256)),
    );
    expect(() => readPageTagPaths(file)).toThrow(`${file}: page skipped (binary)`);
    const many = join(dir, "many.html");
    writeFileSync(many, `<html><body>${"<i></i>".repeat(MAX_ELEMENTS + 1)}`);
    const r = await runCommand(["records", many, "--learn"]);
    expect(r.code).toBe(65);
    expect(r.stderr.trim()).toBe(
      `bitext: ${many}: page skipped (too-many-elements): more than ${MAX_ELEMENTS.toLocaleString("en")} elements`,
    );
  });
});
