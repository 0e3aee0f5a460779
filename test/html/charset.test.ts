import { describe, expect, it } from "vitest";
import { charsetFromContentType, charsetFromMeta, decodeHtml, normaliseLabel } from "../../src/html/index.js";
import { readSavedPage } from "../../src/html/index.js";
import { UserError } from "../../src/errors.js";
import { AQL } from "../helpers/serps.js";

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

describe("reading a saved page", () => {
  it("decodes a GBK Sogou page by its <meta charset=gb2312>", () => {
    const page = readSavedPage(`${AQL}/sogou/sogou-eed-1-4a1-a-1332923188.html`);
    expect(page.charset).toBe("gbk");
    expect(page.source).toBe("meta");
    expect(page.text).toContain("搜狗搜索");
    expect(page.text).toContain("回到搜狗首页");
  });

  it("decodes a UTF-8 page and says where the charset came from", () => {
    const page = readSavedPage(`${AQL}/360/360-an-jian-diao-cha-bi-lu-1576497545.html`);
    expect(page.charset).toBe("utf-8");
    expect(page.text).toContain("案件调查笔录");
  });

  it("names the file when it cannot be read", () => {
    expect(() => readSavedPage("no/such/page.html")).toThrow(UserError);
    expect(() => readSavedPage("no/such/page.html")).toThrow(/no\/such\/page\.html: cannot read page \(no such file\)/);
  });

  it("rejects an unknown --charset override with the file name", () => {
    expect(() => readSavedPage(`${AQL}/ask/ask-afraid-of-women-1172618037.html`, { charset: "klingon" })).toThrow(
      /ask-afraid-of-women-1172618037\.html: unknown charset "klingon"/,
    );
  });
});

describe("decodeHtml", () => {
  it("prefers a byte-order mark over everything else", () => {
    const r = decodeHtml(bytes([0xef, 0xbb, 0xbf], '<meta charset="gbk">', [0xe4, 0xb8, 0xad]), { contentType: "text/html; charset=big5" });
    expect(r.source).toBe("bom");
    expect(r.text).toBe('<meta charset="gbk">中');
  });

  it("prefers the HTTP header over <meta>", () => {
    // 中文 in Big5 is A4A4 A4E5
    const r = decodeHtml(bytes('<meta charset="gbk">', [0xa4, 0xa4, 0xa4, 0xe5]), { contentType: "text/html; charset=Big5" });
    expect(r).toMatchObject({ charset: "big5", source: "header" });
    expect(r.text.endsWith("中文")).toBe(true);
  });

  it("reads Big5 and EUC-KR from <meta http-equiv>", () => {
    const big5 = decodeHtml(bytes('<meta http-equiv="Content-Type" content="text/html; charset=big5">', [0xa4, 0xa4, 0xa4, 0xe5]));
    expect(big5.text.endsWith("中文")).toBe(true);
    // 한국 in EUC-KR is C7D1 B1B9
    const kr = decodeHtml(bytes("<meta charset='euc-kr'>", [0xc7, 0xd1, 0xb1, 0xb9]));
    expect(kr).toMatchObject({ charset: "euc-kr", source: "meta" });
    expect(kr.text.endsWith("한국")).toBe(true);
  });

  it("trusts valid multi-byte UTF-8 over a legacy declaration (re-encoded archive pages)", () => {
    const r = decodeHtml(Buffer.from('<meta charset="gb2312"><p>我明白了</p>', "utf8"));
    expect(r).toMatchObject({ charset: "utf-8", source: "utf8-valid" });
    expect(r.text).toContain("我明白了");
  });

  it("falls back to GB18030 for undeclared bytes that are not UTF-8", () => {
    // 我 in GBK is CED2
    const r = decodeHtml(bytes("<p>", [0xce, 0xd2], "</p>"));
    expect(r).toMatchObject({ charset: "gb18030", source: "fallback", text: "<p>我</p>" });
  });

  it("maps page labels to WHATWG encodings", () => {
    expect(normaliseLabel("GB2312")).toBe("gbk");
    expect(normaliseLabel("x-gbk")).toBe("gbk");
    expect(normaliseLabel("UTF8")).toBe("utf-8");
    expect(normaliseLabel("nonsense")).toBeNull();
    expect(charsetFromContentType('text/html;charset="EUC-KR"')).toBe("euc-kr");
    expect(charsetFromMeta(Buffer.from("<html><head><title>x</title>"))).toBeNull();
  });
});
