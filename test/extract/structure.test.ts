/**
 * Mechanisms of the structural pairing on small generated pages (accuracy is measured on real pages in
 * real-pages.test.ts; these pages only pin down what each rule does).
 */
import { describe, expect, it } from "vitest";
import { structuralPairs } from "../../src/extract/index.js";
import { parseTree } from "../../src/extract/index.js";
import { EN_ZH } from "../../src/text/index.js";

const pairsOf = (body: string) => structuralPairs(parseTree(`<html><body>${body}</body></html>`), EN_ZH).pairs.map((p) => [p.a, p.b]);

const ZH = ["我每天早上六点起床。", "他昨天去了图书馆。", "这本书非常有意思。", "我们明天去公园吧。"];
const EN = [
  "I get up at six every morning.",
  "He went to the library yesterday.",
  "This book is very interesting.",
  "Let's go to the park tomorrow.",
];

describe("structural pairing", () => {
  it("pairs Chinese-first alternation (zh, en) and not the cross pairs (en, next zh)", () => {
    const body = ZH.map((z, i) => `<p>${z}</p><p>${EN[i]}</p>`).join("");
    expect(pairsOf(body)).toEqual(EN.map((e, i) => [e, ZH[i]]));
  });

  it("pairs two columns side by side, child by child", () => {
    const body = `<div><div>${ZH.map((z) => `<p>${z}</p>`).join("")}</div><div>${EN.map((e) => `<p>${e}</p>`).join("")}</div></div>`;
    expect(pairsOf(body)).toEqual(EN.map((e, i) => [e, ZH[i]]));
  });

  it("keeps the pairs of a regular template even where one does not fit the length model", () => {
    const zh = [...ZH, "好。"];
    const en = [...EN, "That is a very good idea and I will think about it for a long while before I answer."];
    const body = zh.map((z, i) => `<div class="pair"><p>${z}</p><p>${en[i]}</p></div>`).join("");
    expect(pairsOf(body)).toHaveLength(5);
  });

  it("leaves out links-only units (menus, tables of contents) and a note quoting the English", () => {
    const body = `<ul><li><a href="/">首页 / Home</a></li><li><a href="/a">关于 / About</a></li></ul><p>Pardon?</p><p>pardon 的意思是请再说一遍。</p>`;
    expect(pairsOf(body)).toEqual([]);
  });

  it("reads a table of values whose cells repeat with different partners as data, not translations", () => {
    const rows = [
      ["id", "String", "是"],
      ["name", "String", "否"],
      ["size", "int", "否"],
      ["tags", "String", "是"],
    ];
    const body = `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</table>`;
    expect(pairsOf(body)).toEqual([]);
  });

  it("splits 'English，中文，gloss' items where the form repeats, and '中文 / English' headings", () => {
    const body = "<ul><li>decorator，装饰器，函数的包装。</li><li>generator，生成器，可迭代对象。</li></ul><h2>异常 / Exceptions</h2>";
    expect(pairsOf(body)).toEqual([
      ["decorator", "装饰器"],
      ["generator", "生成器"],
      ["Exceptions", "异常"],
    ]);
  });
});
