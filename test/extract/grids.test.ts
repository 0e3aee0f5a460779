/**
 * Translation grids: tables, definition lists, div grids and list items whose columns hold a text and its
 * translation. Real pieces (test/fixtures/extract/grids/, see test/fixtures/README.md) pin down the accuracy
 * on the layouts; the small generated pages below only pin down one mechanism each.
 */
import { describe, expect, it } from "vitest";
import { extractFromHtml } from "../../src/extract/index.js";
import { LengthFit } from "../../src/extract/fit.js";
import { gridPairs, tableGrid } from "../../src/extract/grid.js";
import { rowEvidence } from "../../src/extract/row-evidence.js";
import { DEFAULT_STRUCTURE_OPTIONS, structuralPairs } from "../../src/extract/index.js";
import { parseTree } from "../../src/extract/index.js";
import { bodyOf, type TreeElement } from "../../src/extract/tree.js";
import { EN_ZH } from "../../src/text/index.js";
import { fixture } from "./helpers.js";

const pairsOf = (body: string) => structuralPairs(parseTree(`<html><body>${body}</body></html>`), EN_ZH).pairs.map((p) => [p.a, p.b]);
const gold = (name: string) =>
  fixture(name)
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t"));

/** Four rows of a literary translation table (Analects I, Legge's translation: both public domain). */
const ROWS: ReadonlyArray<[string, string]> = [
  ["子曰：「巧言令色，鮮矣仁！」", 'The Master said, "Fine words and an insinuating appearance are seldom associated with [true] virtue."'],
  [
    "曾子曰：「慎終追遠，民德歸厚矣。」",
    'The philosopher Tsang said, "Let there be a careful attention to perform the funeral rites to parents."',
  ],
  ["子曰：「不患人之不己知，患不知人也。」", 'The Master said, "I will not be afflicted at men\'s not knowing me."'],
  ["子曰：「吾十有五而志于學。」", 'The Master said, "At fifteen, I had my mind bent on learning."'],
];
const NOTES = ["鮮 = 少, few", "終 = the funeral, 遠 = the sacrifices", "己知 = 知己, object first", "有 = 又"];

describe("translation tables", () => {
  it("pairs every row of a real glossary table, English with the first Chinese column, the notes column left out", () => {
    const { pairs } = extractFromHtml(fixture("grids/rust-glossary-excerpt.html"), "rust-glossary.html");
    expect(pairs.map((p) => `${p.a}\t${p.b}`)).toEqual(gold("grids/rust-glossary-excerpt.pairs.tsv").map((g) => g.join("\t")));
    expect(pairs.find((p) => p.a === "cargo")?.b).toBe("(Rust 包管理器，不译)");
  });

  it("pairs every row of a classical-Chinese table whose notes mix both languages; header, footer and a closing line left out", () => {
    const { pairs } = extractFromHtml(fixture("grids/analects-legge.html"), "analects.html");
    expect(pairs.map((p) => [p.a, p.b])).toEqual(gold("grids/analects-legge.pairs.tsv"));
    // Translator's brackets and Traditional characters stay as written.
    expect(pairs.filter((p) => p.a.includes("[true]") || p.a.includes("[the Way]"))).toHaveLength(2);
    expect(pairs.every((p) => !p.b.includes("学"))).toBe(true);
  });

  it("picks the translation column over a notes column by the length model, whichever side comes first", () => {
    const body = `<table>${ROWS.map(([zh, en], i) => `<tr><td>${i + 1}</td><td>${en}</td><td>${zh}</td><td>${NOTES[i]}</td></tr>`).join("")}</table>`;
    expect(pairsOf(body)).toEqual(ROWS.map(([zh, en]) => [en, zh]));
  });

  it("reads rowspan and colspan: a cell spanning two rows makes one pair, a row across all columns is a footer", () => {
    const [r0, r1, r2, r3] = ROWS as [(typeof ROWS)[0], (typeof ROWS)[0], (typeof ROWS)[0], (typeof ROWS)[0]];
    const body =
      "<table><tr><th>English</th><th>中文</th></tr>" +
      `<tr><td>${r0[1]}</td><td>${r0[0]}</td></tr>` +
      `<tr><td>${r1[1]}</td><td rowspan="2">${r1[0]}${r2[0]}</td></tr>` +
      `<tr><td>${r2[1]}</td></tr>` +
      `<tr><td>${r3[1]}</td><td>${r3[0]}</td></tr>` +
      '<tr><td colspan="2">Translated by James Legge. 理雅各譯。</td></tr></table>';
    expect(pairsOf(body)).toEqual([
      [r0[1], r0[0]],
      [`${r1[1]} ${r2[1]}`, `${r1[0]}${r2[0]}`],
      [r3[1], r3[0]],
    ]);
  });

  it("takes a first row that names the columns, or is written in bold, as a header", () => {
    const rows = ROWS.map(([zh, en]) => `<tr><td>${zh}</td><td>${en}</td></tr>`).join("");
    expect(pairsOf(`<table><tr><td>原文</td><td>Translation</td></tr>${rows}</table>`)).toHaveLength(4);
    expect(pairsOf(`<table><tr><td><b>Analects</b></td><td><b>論語</b></td></tr>${rows}</table>`)).toHaveLength(4);
  });
});

describe("lang attributes", () => {
  const GLOSSED: ReadonlyArray<[string, string]> = [
    ["仁者愛人。", "Ren 仁: love 愛 others."],
    ["學而時習之。", "Learn 學, practise 習."],
    ["溫故而知新。", "Review 溫 old, know 知 new."],
    ["見賢思齊焉。", "See 見 worthy, equal 齊."],
  ];
  const table = (enLang: string) =>
    `<table>${GLOSSED.map(([zh, en]) => `<tr><td>${zh}</td><td${enLang}>${en}</td></tr>`).join("")}</table>`;

  it("settle cells whose letters are mixed, towards a language they have letters of", () => {
    const grid = (html: string) => {
      const table = bodyOf(parseTree(`<html><body>${html}</body></html>`))!.childNodes.find((n) => n.nodeName === "table");
      return gridPairs(tableGrid(table as TreeElement, EN_ZH), new LengthFit(EN_ZH), DEFAULT_STRUCTURE_OPTIONS, rowEvidence(EN_ZH));
    };
    expect(grid(table(' lang="en"'))?.map((p) => [p.a, p.b])).toEqual(GLOSSED.map(([zh, en]) => [en, zh]));
    expect(grid(table(""))).toBeNull(); // without the attribute, no column is English by its content
    expect(pairsOf(table(' lang="en"'))).toEqual(GLOSSED.map(([zh, en]) => [en, zh]));
  });

  it("never decide a cell alone: content wins over a wrong attribute", () => {
    const body = `<table>${ROWS.map(([zh, en]) => `<tr><td lang="en">${zh}</td><td lang="zh">${en}</td></tr>`).join("")}</table>`;
    expect(pairsOf(body)).toEqual(ROWS.map(([zh, en]) => [en, zh]));
  });
});

describe("columns side by side that are not translations", () => {
  it("reads no grid in real tables of keys beside descriptions, user names beside features, accounts beside names", () => {
    const doc = parseTree(fixture("grids/nacos-field-tables.html"));
    const tables = bodyOf(doc)!.childNodes.filter((n): n is TreeElement => n.nodeName === "table");
    expect(tables).toHaveLength(3);
    const grid = (t: TreeElement) => gridPairs(tableGrid(t, EN_ZH), new LengthFit(EN_ZH), DEFAULT_STRUCTURE_OPTIONS, rowEvidence(EN_ZH));
    // keys run shorter than any translation; features and their developers' names share no dictionary word
    expect(tables.map(grid)).toEqual([null, null, null]);
    // while the real glossary and the classical table keep theirs
    const glossary = bodyOf(parseTree(fixture("grids/rust-glossary-excerpt.html")))!.childNodes.find((n) => n.nodeName === "table");
    expect(grid(glossary as TreeElement)).toHaveLength(22);
  });
});

describe("other grids", () => {
  it("pairs definition lists, div rows and list items of spans the same way", () => {
    const expected = ROWS.map(([zh, en]) => [en, zh]);
    const dl = `<dl>${ROWS.map(([zh, en], i) => `<dt>${zh}</dt><dd>${en}</dd><dd>${NOTES[i]}</dd>`).join("")}</dl>`;
    expect(pairsOf(dl)).toEqual(expected);
    const divs = `<div>${ROWS.map(([zh, en], i) => `<div><div>${zh}</div><div>${en}</div><div>${NOTES[i]}</div></div>`).join("")}</div>`;
    expect(pairsOf(divs)).toEqual(expected);
    const list = `<ul>${ROWS.map(([zh, en], i) => `<li><span>${en}</span> <span>${zh}</span> <small>${NOTES[i]}</small></li>`).join("")}</ul>`;
    expect(pairsOf(list)).toEqual(expected);
  });

  it("leaves a table of records alone when a column with letters stands between the two languages", () => {
    const body = `<table>${ROWS.map(([zh, en]) => `<tr><td>${zh}</td><td>Lunyu</td><td>${en}</td></tr>`).join("")}</table>`;
    expect(pairsOf(body)).toEqual([]);
  });
});
