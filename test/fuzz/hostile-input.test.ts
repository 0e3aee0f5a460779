import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAnnotations } from "../../src/classify/index.js";
import { UserError } from "../../src/errors.js";
import { extractFromHtml } from "../../src/extract/index.js";
import { checkPageBytes } from "../../src/html/index.js";
import { cappedHtml, parseHtml, tagPathsFromHtml } from "../../src/html/index.js";
import { checkedText } from "../../src/io/index.js";
import { pageFeatures } from "../../src/site/index.js";
import { learnWrapper } from "../../src/wrapper/index.js";
import { extractRecords } from "../../src/wrapper/index.js";
import { parseWrapperFile } from "../../src/wrapper/index.js";

/**
 * Fuzzing the entry points that take hostile input — HTML pages and users' files — with generated
 * input (fast-check, fixed seed, bounded runs and time): each either gives its result or throws the
 * project's one-line `UserError` (a `PageSkipped` for a page past the caps); nothing else escapes.
 */
const SEED = 16;
const TIME_LIMIT_MS = 4000;

const TAGS = [
  "div",
  "p",
  "a",
  "b",
  "i",
  "table",
  "tr",
  "td",
  "ul",
  "li",
  "span",
  "template",
  "script",
  "noscript",
  "select",
  "option",
  "h3",
  "form",
  "svg",
  "math",
  "frameset",
  "body",
  "html",
  "head",
];

/** Markup tokens: tags opened and closed in any order (misnested, unclosed), text in several scripts, odd bytes. */
const token = fc.oneof(
  fc.constantFrom(...TAGS).map((t) => `<${t}>`),
  fc.constantFrom(...TAGS).map((t) => `</${t}>`),
  fc.record({ t: fc.constantFrom(...TAGS), href: fc.string({ maxLength: 12 }) }).map(({ t, href }) => `<${t} href="${href}" class="r">`),
  fc.constantFrom(
    "Good morning. ",
    "早上好。",
    "你好，世界",
    " ",
    "\n",
    "&amp;",
    "&#0;",
    "&#x110000;",
    "<!--",
    "-->",
    "<![CDATA[",
    "\u0000",
    "\ufffd",
    "<",
    ">",
  ),
  fc.string({ maxLength: 8 }),
);
/** A page, sometimes with a deeply nested run (closed or not) in the middle. */
const page = fc
  .record({
    head: fc.array(token, { maxLength: 60 }),
    deep: fc.option(
      fc.record({
        tag: fc.constantFrom("div", "b", "table", "li", "template"),
        depth: fc.integer({ min: 500, max: 3000 }),
        closed: fc.boolean(),
      }),
    ),
    tail: fc.array(token, { maxLength: 60 }),
  })
  .map(({ head, deep, tail }) => {
    const nested = deep ? `<${deep.tag}>`.repeat(deep.depth) + "deep text" + (deep.closed ? `</${deep.tag}>`.repeat(deep.depth) : "") : "";
    return head.join("") + nested + tail.join("");
  });

function onlyUserErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
  }
}

const params = { seed: SEED, numRuns: 40, interruptAfterTimeLimit: TIME_LIMIT_MS };

describe("fuzzing the HTML entry points", () => {
  it("parse and tag paths give a tree within the nesting cap, or a counted skip", () => {
    fc.assert(
      fc.property(page, (html) => {
        onlyUserErrors(() => {
          const seq = tagPathsFromHtml(html);
          expect(seq.pathIds.length).toBe(seq.ends.length);
          expect(parseHtml(html).reparented).toBeGreaterThanOrEqual(0);
        });
      }),
      params,
    );
  });

  it("records --learn (in-process) ends with records, none, or a clear error", () => {
    fc.assert(
      fc.property(page, (html) => {
        onlyUserErrors(() => {
          const seq = tagPathsFromHtml(html);
          const wrapper = learnWrapper(seq, { engine: "page", pageUrl: "http://fuzz.example/", file: "fuzz.html" });
          extractRecords(wrapper, seq, { pageUrl: "http://fuzz.example/" });
        });
      }),
      { ...params, numRuns: 25 },
    );
  });

  it("extract and site page features end with a result or a clear error", () => {
    fc.assert(
      fc.property(page, (html) => {
        onlyUserErrors(() => extractFromHtml(html, "http://fuzz.example/"));
        onlyUserErrors(() => pageFeatures(cappedHtml(html), "http://fuzz.example/"));
      }),
      { ...params, numRuns: 15 },
    );
  });

  it("the byte check takes any body: text, or a counted binary/size skip", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4000 }), (bytes) => onlyUserErrors(() => checkPageBytes(bytes))),
      { ...params, numRuns: 200 },
    );
  });
});

describe("fuzzing the file readers", () => {
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 400 }),
    fc.string({ unit: "binary", maxLength: 200 }).map((s) => Buffer.from(s)),
    fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))),
  );

  it("text files: any bytes are text or one file:line error", () => {
    fc.assert(
      fc.property(bytes, (b) => onlyUserErrors(() => checkedText(b, "fuzz.txt", { what: "list", maxLineLength: 80 }))),
      { ...params, numRuns: 300 },
    );
  });

  it("wrapper files and annotations files: any content is read or one clear error", () => {
    fc.assert(
      fc.property(bytes, fc.jsonValue(), (b, v) => {
        onlyUserErrors(() => parseWrapperFile(checkedText(b, "fuzz.json", { what: "wrapper file" }), "fuzz.json"));
        onlyUserErrors(() => parseWrapperFile(JSON.stringify(v), "fuzz.json"));
        onlyUserErrors(() => parseAnnotations("fuzz.jsonl", checkedText(b, "fuzz.jsonl", { what: "annotations file" })));
        onlyUserErrors(() => parseAnnotations("fuzz.jsonl", `${JSON.stringify(v)}\n${JSON.stringify({ query: v, label: v })}`));
      }),
      { ...params, numRuns: 300 },
    );
  });
});
