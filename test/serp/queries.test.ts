import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError, UserError } from "../../src/errors.js";
import { parallelText } from "../../src/language-pair.js";
import { resourcePath } from "../../src/paths.js";
import { EN_JA } from "../../src/text/index.js";
import { loadEngine, wrapperFilePath, writeDefinition } from "../../src/serp/index.js";
import { checkQueryLengths, parseQueryList, queryText, readQueryFile, readQueryFiles } from "../../src/serp/index.js";
import { runCommand } from "../helpers/cli.js";

describe("reading query lists", () => {
  it("reads the shipped demo and Tatoeba lists, keeping each pair's attribution", () => {
    const demo = readQueryFile(resourcePath("queries", "demo.tsv"));
    expect(demo).toHaveLength(12);
    expect(demo[0]).toMatchObject({ ...parallelText("They were always making jokes.", "他们一直闹笑话。"), line: 4 });
    expect(demo[0]!.note).toMatch(/^CC-BY 2\.0 \(France\) Attribution: tatoeba\.org #305508/);
    const big = readQueryFile(resourcePath("queries", "tatoeba-cmn-eng.tsv"));
    expect(big).toHaveLength(2000);
    expect(big.every((q) => /\p{Script=Han}/u.test(q.target.text) && /[a-z]/i.test(q.source.text) && q.note?.includes("tatoeba.org"))).toBe(
      true,
    );
  });

  it("submits the pair together, English first (seed §4.1)", () => {
    expect(queryText(parallelText("I see.", "我明白了。"))).toBe("I see. 我明白了。");
  });

  it("skips comments and blank lines, trims and collapses spaces, accepts a BOM and CRLF", () => {
    const list = parseQueryList(
      "\uFEFF# a comment\r\n\r\n  I  see. \t我明白了。\r\n   # indented comment\nThanks.\t谢谢！\tnote\n",
      "q.tsv",
    );
    expect(list.map((q) => [q.source.text, q.target.text, q.note, q.line])).toEqual([
      ["I see.", "我明白了。", null, 3],
      ["Thanks.", "谢谢！", "note", 5],
    ]);
  });

  it("reads the columns as source and target of the pair it is given, English–Chinese by default", () => {
    const text = "I see.\t我明白了。\n";
    expect(parseQueryList(text, "q.tsv")[0]).toMatchObject({
      source: { lang: "en", text: "I see." },
      target: { lang: "zh", text: "我明白了。" },
    });
    const ja = parseQueryList("Good morning.\tおはようございます。\n", "q.tsv", EN_JA)[0]!;
    expect(ja).toMatchObject({ source: { lang: "en", text: "Good morning." }, target: { lang: "ja", text: "おはようございます。" } });
    expect(queryText(ja)).toBe("Good morning. おはようございます。");
  });

  it("names the file and line of a malformed line", () => {
    const bad = (text: string) => () => parseQueryList(text, "queries/mine.tsv");
    expect(bad("I see.\t我明白了。\nno tab here\n")).toThrow(UserError);
    expect(bad("I see.\t我明白了。\nno tab here\n")).toThrow('queries/mine.tsv:2: expected "English<TAB>Chinese", found no tab');
    expect(bad("a\tb\tc\td\n")).toThrow("queries/mine.tsv:1: expected 2 or 3 tab-separated fields, found 4");
    expect(bad("# c\n\t我明白了。\n")).toThrow("queries/mine.tsv:2: English: empty");
    expect(bad("I see.\t  \n")).toThrow("queries/mine.tsv:1: Chinese: empty");
  });

  it("reads several lists as one, without repeating a pair", () => {
    const dir = mkdtempSync(join(tmpdir(), "bitext-q-"));
    writeFileSync(join(dir, "a.tsv"), "I see.\t我明白了。\nThanks.\t谢谢！\n");
    writeFileSync(join(dir, "b.tsv"), "Thanks.\t谢谢！\nHi.\t你好。\n");
    expect(readQueryFiles([join(dir, "a.tsv"), join(dir, "b.tsv")]).map((q) => q.source.text)).toEqual(["I see.", "Thanks.", "Hi."]);
    expect(() => readQueryFile(join(dir, "missing.tsv"))).toThrow(/missing\.tsv: cannot read query list \(no such file\)/);
  });
});

describe("query lists that are not UTF-8 text", () => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-queries-"));

  it("stops at the first line that is not valid UTF-8, naming it", () => {
    const file = join(dir, "queries.tsv");
    // Line 3 is GBK-encoded Chinese (我明白了 in GB2312), a usual way to get this wrong.
    const gbk = Buffer.from([0xce, 0xd2, 0xc3, 0xf7, 0xb0, 0xd7, 0xc1, 0xcb]);
    writeFileSync(file, Buffer.concat([Buffer.from("# list\nI see.\t我明白了。\nI see.\t"), gbk, Buffer.from("\nOK.\t好。\n")]));
    expect(() => readQueryFile(file)).toThrow(new InputError({ file, line: 3 }, "not valid UTF-8"));
  });

  it("rejects a NUL byte with its line, and a sequence cut at the end of the file", () => {
    const nul = join(dir, "nul.tsv");
    writeFileSync(nul, "I see.\t我明白了。\nOK.\t好\0。\n");
    expect(() => readQueryFile(nul)).toThrow(`${nul}:2: NUL byte`);
    const cut = join(dir, "cut.tsv");
    writeFileSync(cut, Buffer.concat([Buffer.from("I see.\t我明白了"), Buffer.from("。").subarray(0, 2)]));
    expect(() => readQueryFile(cut)).toThrow(`${cut}:1: not valid UTF-8`);
  });
});

describe("queries longer than an engine takes", () => {
  const dir = mkdtempSync(join(tmpdir(), "bitext-long-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("are refused when the list is read, naming the file and line, before any browser starts", async () => {
    writeDefinition(wrapperFilePath(dir, "short"), "short", { searchUrl: "http://127.0.0.1:9/s?q={query}", maxQueryLength: 40 });
    writeDefinition(wrapperFilePath(dir, "roomy"), "roomy", { searchUrl: "http://127.0.0.1:9/s?q={query}" });
    const list = join(dir, "q.tsv");
    writeFileSync(list, `I see.\t我明白了。\nThis sentence is a good deal longer than forty characters.\t这句话比四十个字符长得多。\n`);
    const r = await runCommand([
      "harvest",
      list,
      "--engines",
      "roomy,short",
      "--wrappers",
      dir,
      "--db",
      join(dir, "s.db"),
      "--chromium",
      "/nonexistent/chromium",
    ]);
    expect(r.stderr).toBe(
      `bitext: ${list}:2: query of 72 characters, longer than engine short takes (40: definition.maxQueryLength in ${wrapperFilePath(dir, "short")})\n`,
    );
    expect(r.code).toBe(1); // as every bad input line
  });

  it("a 100,000-character query is over the default limit (1000)", () => {
    const long = "x".repeat(100_000);
    writeFileSync(join(dir, "long.tsv"), `${long}\t我\n`);
    const queries = readQueryFile(join(dir, "long.tsv"));
    const engine = loadEngine(dir, "roomy");
    expect(engine.definition.maxQueryLength).toBe(1000);
    expect(() => checkQueryLengths(queries, [engine])).toThrow(
      /long\.tsv:1: query of 100002 characters, longer than engine roomy takes \(1000/,
    );
  });
});
