import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAnnotations } from "../../src/classify/index.js";
import { UserError } from "../../src/errors.js";
import { readJsonFile } from "../../src/io/index.js";
import { readUserTextFile } from "../../src/io/index.js";
import { readWrapperFile } from "../../src/wrapper/index.js";
import { runCommand } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "bitext-text-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Uint8Array, name = `f${++n}.txt`): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as UserError).message;
  }
  throw new Error("expected a UserError");
}

// A real wrapper file shipped with the project, as the base of broken copies.
const BING = readFileSync(new URL("../../wrappers/bing.json", import.meta.url), "utf8");

describe("reading a user's text file", () => {
  it("names the line of the first invalid UTF-8 byte", () => {
    const path = file(Buffer.concat([Buffer.from("line one\nline two\nbad "), Buffer.from([0xc3, 0x28]), Buffer.from("\n")]));
    expect(message(() => readUserTextFile(path, { what: "list" }))).toBe(`${path}:3: not valid UTF-8`);
    // GBK bytes are not UTF-8 either.
    const gbk = file(Buffer.from([0x7b, 0x0a, 0xc4, 0xe3, 0xba, 0xc3, 0x0a]));
    expect(message(() => readUserTextFile(gbk, { what: "list" }))).toBe(`${gbk}:2: not valid UTF-8`);
  });

  it("refuses NUL bytes (binary) and overlong lines, naming the line", () => {
    const nul = file(Buffer.from("a\nb\nc\u0000d\n"));
    expect(message(() => readUserTextFile(nul, { what: "annotations file" }))).toBe(
      `${nul}:3: contains a NUL byte: binary, not a text annotations file`,
    );
    const long = file(`short\n${"x".repeat(101)}\n`);
    expect(message(() => readUserTextFile(long, { what: "list", maxLineLength: 100 }))).toBe(
      `${long}:2: line of 101 characters is longer than the 100 accepted`,
    );
  });

  it("reads valid UTF-8, dropping a byte-order mark", () => {
    const path = file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("早上好\nGood morning\n")]));
    expect(readUserTextFile(path, { what: "list" })).toBe("早上好\nGood morning\n");
  });

  it("names the file and position of a JSON syntax error", () => {
    const broken = file(BING.replace(/"engine"\s*:/, '"engine" '), "broken.json");
    expect(message(() => readJsonFile(broken, "wrapper file"))).toMatch(
      new RegExp(`^${broken}: not valid JSON \\(.* at position \\d+\\)$`),
    );
  });
});

describe("the project's file readers", () => {
  it("a wrapper file with a NUL byte, bad UTF-8 or a wrong type is one line naming file, line or field", () => {
    const nul = file(BING.replace("{", "{\u0000"), "nul.json");
    expect(message(() => readWrapperFile(nul))).toBe(`${nul}:1: contains a NUL byte: binary, not a text wrapper file`);
    const latin1 = file(Buffer.from(BING.replace("{", '{"note": "caf\u00e9",'), "latin1"), "latin1.json");
    expect(message(() => readWrapperFile(latin1))).toBe(`${latin1}:1: not valid UTF-8`);
  });

  it("an annotations file with invalid UTF-8 or a NUL byte is a file:line error", () => {
    const good = '{"query":{"en":"Good morning","zh":"早上好"},"title":"t","url":"http://a.example/","snippet":"s","label":"bilingual"}';
    const bad = file(
      Buffer.concat([Buffer.from(`${good}\n`), Buffer.from(good.replace("早上好", "")), Buffer.from([0xff, 0x0a])]),
      "a.jsonl",
    );
    expect(message(() => readAnnotations(bad))).toBe(`${bad}:2: not valid UTF-8`);
    const wrongType = file(`${good}\n${good.replace('"label":"bilingual"', '"label":7')}\n`, "b.jsonl");
    expect(message(() => readAnnotations(wrongType))).toBe(`${wrongType}:2: label: expected "bilingual" or "monolingual"`);
  });

  it("the CLI reports a binary model file on one line and writes nothing", async () => {
    const model = file(Buffer.from([0x7b, 0x00, 0x01, 0x02, 0xff]), "model.json");
    const r = await runCommand(["classify", "--model", model], { input: "" });
    expect(r.code).not.toBe(70);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`bitext: ${model}:1: contains a NUL byte: binary, not a text model file\n`);
  });
});
