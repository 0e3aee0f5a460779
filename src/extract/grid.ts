/**
 * Grids as pairs: a table (or a definition list) whose rows hold a text and its translation side by side.
 *
 * 1. The grid: rows of cells in columns, `colspan`/`rowspan` expanded (a spanned cell is the same cell in
 *    every slot it covers); header rows (`<thead>`, rows of `<th>` only, a first row whose every cell is
 *    wholly bold) and footer rows (`<tfoot>`, a row that is one cell across the columns) are not pairs.
 * 2. Each cell's language comes from its content (`fit.ts`: English-dominant, CJK-dominant or mixed); a
 *    `lang` attribute only settles a cell whose content is mixed, and only towards a language it has letters of.
 * 3. The column pair: for every (English column, CJK column), the rows where both cells are in their language
 *    are scored by the length model *at the grid's own ratio* (`LengthFit.pageScale`: classical Chinese and
 *    term glossaries do not run at the ratio of the modern sentences the model was estimated on): the sum of
 *    the rows' fits. A translation column fits row by row; a commentary column does not (its cells mix the two
 *    languages, so fewer rows count, and its lengths follow the glossed word, not the row's text). The best
 *    column pair is kept when it has the template evidence every structural template needs
 *    (`StructureOptions`: enough rows, enough of them within the length model) and is not a data table (values
 *    that repeat with different partners).
 * 4. Every body row with an English cell in the English column and Chinese in the Chinese column is a pair,
 *    as written (bracketed supplements, Traditional characters); rows joined by a `rowspan` cell make one pair.
 */
import type { LanguagePair } from "../text/index.js";
import { type CharCounts, countChars, dominant, type LengthFit, lengthsOf, type Side, unitSide, withoutOneSidedNumber } from "./fit.js";
import type { RowEvidence } from "./row-evidence.js";
import { attribute, childrenOf, isElement, isText, type TreeElement, type TreeNode, visibleText } from "./tree.js";

/** One cell of a grid (the same object in every slot a spanning cell covers). */
export interface GridCell {
  el: TreeElement;
  text: string;
  letters: [number, number];
  /** Its characters as the length model counts them. */
  counts: CharCounts;
  /** The language its `lang` attribute names, when it is one of the pair's. */
  lang: Side | null;
  /** It holds a code block (`<pre>`): a program, not text in either language. */
  code: boolean;
}

export interface GridRow {
  cells: Array<GridCell | null>;
  /** A header or footer row: labels and credits, not pairs. */
  skip: boolean;
}

/** What makes a grid a translation grid (the structural pairing's own template thresholds). */
export interface GridThresholds {
  maxDelta: number;
  minTemplatePairs: number;
  minFitShare: number;
}

/** A pair of a grid: `row` is the index of its (first) row. */
export interface GridPair {
  a: string;
  b: string;
  /** The tags of its (first) English and CJK cells. */
  tags: [string, string];
  score: number;
  delta: number;
  row: number;
}

/**
 * The shortest English a translation takes, relative to the length model: the 0.5th percentile of the per-pair
 * ratios (English length / (c · Chinese length)) in the model's own corpus (tatoeba-cmn-eng.dev, 27,211 pairs:
 * 1st percentile 0.535, 0.5th 0.499). A grid whose median row runs shorter pairs names or keys with
 * descriptions (`clientIp` | 注销服务实例请求的来源IP…), not translations; classical Chinese only runs longer.
 */
const MIN_SCALE = 0.5;

/** HTML's own limits on spans (a hostile `colspan="1e9"` must not allocate a billion slots). */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;

/** The rows of a `<table>` (its own rows only, not those of tables nested in its cells). */
export function tableGrid(table: TreeElement, pair: LanguagePair): GridRow[] {
  const rows: GridRow[] = [];
  const carry: Array<{ cell: GridCell; left: number } | undefined> = [];
  const trs: Array<{ tr: TreeElement; section: string }> = [];
  for (const c of childrenOf(table)) {
    if (!isElement(c)) continue;
    if (c.tagName === "tr") trs.push({ tr: c, section: "tbody" });
    else if (c.tagName === "thead" || c.tagName === "tbody" || c.tagName === "tfoot")
      for (const tr of childrenOf(c)) if (isElement(tr) && tr.tagName === "tr") trs.push({ tr, section: c.tagName });
  }
  for (const { tr, section } of trs) {
    const cells: Array<GridCell | null> = [];
    let col = 0;
    const fillCarried = () => {
      while (carry[col]?.left) {
        cells[col] = carry[col]!.cell;
        carry[col]!.left--;
        col++;
      }
    };
    let texts = 0;
    let th = 0;
    let bold = 0;
    for (const td of childrenOf(tr)) {
      if (!isElement(td) || (td.tagName !== "td" && td.tagName !== "th")) continue;
      fillCarried();
      const cell = gridCell(td, pair);
      if (cell.text) {
        texts++;
        if (td.tagName === "th") th++;
        else if (whollyBold(td)) bold++;
      }
      const colspan = span(attribute(td, "colspan"), MAX_COLSPAN);
      const rowspan = span(attribute(td, "rowspan"), MAX_ROWSPAN);
      for (let k = 0; k < colspan; k++, col++) {
        cells[col] = cell;
        carry[col] = rowspan > 1 ? { cell, left: rowspan - 1 } : undefined;
      }
    }
    fillCarried();
    for (let c = col; c < carry.length; c++) {
      if (!carry[c]?.left) continue;
      cells[c] = carry[c]!.cell;
      carry[c]!.left--;
    }
    for (let c = 0; c < cells.length; c++) cells[c] ??= null;
    const oneCellAcross = cells.length > 1 && cells.every((x) => x === cells[0]);
    // Header: cells of `<th>` only, or a first row written wholly in bold or naming the columns.
    const first = rows.every((r) => r.skip);
    const headerRow = texts > 0 && (th === texts || (first && (th + bold === texts || namesColumns(cells))));
    rows.push({ cells, skip: section !== "tbody" || oneCellAcross || headerRow });
  }
  return rows;
}

/** The rows of a `<dl>`: each `<dt>` with the `<dd>`s that follow it. */
export function definitionGrid(dl: TreeElement, pair: LanguagePair): GridRow[] {
  const rows: GridRow[] = [];
  const items = childrenOf(dl).flatMap((c) => (isElement(c) && c.tagName === "div" ? childrenOf(c) : [c]));
  for (const c of items) {
    if (!isElement(c)) continue;
    if (c.tagName === "dt") rows.push({ cells: [gridCell(c, pair)], skip: false });
    else if (c.tagName === "dd" && rows.length > 0) rows.at(-1)!.cells.push(gridCell(c, pair));
  }
  return rows;
}

function span(value: string | null, max: number): number {
  const n = value === null ? 1 : Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : 1;
}

/** A grid cell of an element: its visible text, letters and `lang`. */
export function gridCell(el: TreeElement, pair: LanguagePair): GridCell {
  const text = visibleText(el);
  const tag = langAttribute(el);
  const lang = tag === null ? null : tag.startsWith(pair.a) ? "a" : tag.startsWith(pair.b) ? "b" : null;
  const counts = countChars(text, pair);
  return { el, text, letters: [counts.a, counts.b], counts, lang, code: holdsPre(el) };
}

function holdsPre(el: TreeElement): boolean {
  const stack: TreeNode[] = [el];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (n.tagName === "pre") return true;
    stack.push(...childrenOf(n));
  }
  return false;
}

/** The cell's `lang`, or that of the one element that wraps its whole content. */
function langAttribute(el: TreeElement): string | null {
  const own = attribute(el, "lang") ?? attribute(el, "xml:lang");
  if (own !== null) return own.toLowerCase();
  const only = onlyChild(el);
  return only ? (attribute(only, "lang")?.toLowerCase() ?? null) : null;
}

/** The single element child of `el` when it has no other content (whitespace aside). */
function onlyChild(el: TreeElement): TreeElement | null {
  let only: TreeElement | null = null;
  for (const c of childrenOf(el)) {
    if (isText(c)) {
      if (c.value.trim()) return null;
    } else if (isElement(c)) {
      if (only) return null;
      only = c;
    }
  }
  return only;
}

/** A cell written wholly in bold: a header someone styled by hand. */
function wholly(el: TreeElement, tags: ReadonlySet<string>): boolean {
  const only = onlyChild(el);
  return only !== null && (tags.has(only.tagName) || wholly(only, tags));
}

const BOLD = new Set(["b", "strong"]);

function whollyBold(td: TreeElement): boolean {
  return wholly(td, BOLD);
}

/** The language of a cell: its content's, the `lang` attribute settling a mixed cell towards a language it has letters of. */
function sideOf(cell: GridCell | null): Side | "mixed" | null {
  if (!cell || cell.code) return null;
  const d = dominant(cell.letters);
  if (d === "a") return unitSide(cell.letters, cell.text) === "a" ? "a" : null;
  if (d === "mixed" && cell.lang !== null && cell.letters[cell.lang === "a" ? 0 : 1] > 0) return cell.lang;
  return d;
}

/**
 * Whether a cell of a chosen column is text in the column's language: CJK when more than a tenth of its
 * letters are CJK (a term with a code name in it, "trait 对象"); English when it reads as English text, Chinese
 * glosses inside it allowed as long as they are not 30 % of its letters (`dominant`'s own bounds).
 */
function inColumnLanguage(cell: GridCell, side: Side): boolean {
  if (cell.code) return false;
  if (side === "b") return unitSide(cell.letters, cell.text) === "b";
  const d = dominant(cell.letters);
  return d === "mixed" || (d === "a" && unitSide(cell.letters, cell.text) === "a");
}

interface ColumnPair {
  a: number;
  b: number;
  scale: number;
  score: number;
  /** The texts of the rows it was scored on. */
  texts: Array<{ a: string; b: string }>;
}

/**
 * The pairs of a grid, or null when it is not a translation grid (no column pair with the evidence of a
 * template). `fit` is the page's length model; `thresholds` the structural pairing's template thresholds.
 */
export function gridPairs(rows: readonly GridRow[], fit: LengthFit, thresholds: GridThresholds, translate: RowEvidence): GridPair[] | null {
  const body = rows.filter((r) => !r.skip);
  const width = body.reduce((w, r) => Math.max(w, r.cells.length), 0);
  if (width < 2 || body.length < thresholds.minTemplatePairs) return null;
  const sides = body.map((r) => r.cells.map(sideOf));
  // Per column: whether some row has letters there, and how many rows start an English / a CJK cell there (a
  // cell spanning into a neighbour counts in its first column only).
  const lettered = new Array<boolean>(width).fill(false);
  const english = new Array<number>(width).fill(0);
  const cjk = new Array<number>(width).fill(0);
  for (const [r, row] of body.entries()) {
    for (let c = 0; c < row.cells.length; c++) {
      const cell = row.cells[c];
      if (!cell || cell === row.cells[c - 1]) continue;
      if (cell.letters[0] + cell.letters[1] > 0) lettered[c] = true;
      if (sides[r]![c] === "a") english[c]!++;
      else if (sides[r]![c] === "b") cjk[c]!++;
    }
  }
  const enough = thresholds.minTemplatePairs;
  // A translation sits beside its text: no lettered column between them (a reading, a code or a name between
  // two columns makes the rows records of several fields).
  const candidates: ColumnPair[] = [];
  const consider = (a: number, b: number) => {
    if (cjk[b]! < enough) return;
    const c = scoreColumns(body, sides, a, b, fit, thresholds);
    if (c) candidates.push(c);
  };
  // Each English column with the CJK columns beside it: up to the nearest lettered column on either side.
  for (let a = 0; a < width; a++) {
    if (english[a]! < enough) continue;
    for (let b = a + 1; b < width; b++) {
      consider(a, b);
      if (lettered[b]) break;
    }
    for (let b = a - 1; b >= 0; b--) {
      consider(a, b);
      if (lettered[b]) break;
    }
  }
  // The best-fitting column pair whose rows translate each other by the lexicon.
  candidates.sort((x, y) => y.score - x.score);
  const best = candidates.find((c) => translate(c.texts));
  return best ? rowPairs(rows, best, fit) : null;
}

/** The rows where column `a` is English and column `b` CJK (strictly), scored at their own length ratio; null without template evidence. */
function scoreColumns(
  body: readonly GridRow[],
  sides: ReadonlyArray<ReadonlyArray<Side | "mixed" | null>>,
  a: number,
  b: number,
  fit: LengthFit,
  t: GridThresholds,
): ColumnPair | null {
  const strict = new Set(body.filter((_, r) => sides[r]![a] === "a" && sides[r]![b] === "b"));
  if (strict.size < t.minTemplatePairs) return null;
  const groups = rowGroups(body, a, b, (row) => strict.has(row));
  const texts = groups.map(groupTexts);
  if (texts.length < t.minTemplatePairs) return null;
  if (ambiguousPairs(texts).size > 0.3 * texts.length) return null;
  const lengths = groups.map((g) => lengthsOf(sumCounts(g.bs), sumCounts(g.as)));
  const scale = fit.pageScale(lengths);
  if (scale < MIN_SCALE) return null;
  let score = 0;
  let fitting = 0;
  for (const l of lengths) {
    const d = fit.deltaOf(l, scale);
    score += Math.exp((-d * d) / 8);
    if (Math.abs(d) <= t.maxDelta) fitting++;
  }
  if (fitting < t.minTemplatePairs || fitting < t.minFitShare * texts.length) return null;
  return { a, b, scale, score, texts };
}

interface RowGroup {
  as: GridCell[];
  bs: GridCell[];
  row: number;
}

/** Consecutive accepted rows of columns `a` and `b`, those joined by a cell spanning them (rowspan) as one group. */
function rowGroups(rows: readonly GridRow[], a: number, b: number, accept: (row: GridRow) => boolean): RowGroup[] {
  const out: RowGroup[] = [];
  let group: RowGroup | null = null;
  for (const [r, row] of rows.entries()) {
    const ca = row.cells[a];
    const cb = row.cells[b];
    if (!ca || !cb || ca === cb || !accept(row)) {
      group = null;
      continue;
    }
    if (group && (group.as.at(-1) === ca || group.bs.at(-1) === cb)) {
      if (group.as.at(-1) !== ca) group.as.push(ca);
      if (group.bs.at(-1) !== cb) group.bs.push(cb);
      continue;
    }
    group = { as: [ca], bs: [cb], row: r };
    out.push(group);
  }
  return out;
}

function sumCounts(cells: readonly GridCell[]): CharCounts {
  if (cells.length === 1) return cells[0]!.counts;
  const out: CharCounts = { a: 0, b: 0, other: 0 };
  for (const c of cells) {
    out.a += c.counts.a;
    out.b += c.counts.b;
    out.other += c.counts.other;
  }
  return out;
}

/** A group's two texts (a list number on one side only left out). */
function groupTexts(g: RowGroup): { a: string; b: string; row: number } {
  const [a, b] = withoutOneSidedNumber(g.as.map((c) => c.text).join(" "), g.bs.map((c) => c.text).join(" "));
  return { a, b, row: g.row };
}

/** Every body row of the chosen columns with English on one side and Chinese on the other; rows joined by a rowspan make one pair. */
function rowPairs(rows: readonly GridRow[], cols: ColumnPair, fit: LengthFit): GridPair[] {
  const accept = (row: GridRow) => !row.skip && inColumnLanguage(row.cells[cols.a]!, "a") && inColumnLanguage(row.cells[cols.b]!, "b");
  return rowGroups(rows, cols.a, cols.b, accept).map((g) => {
    const { a, b, row } = groupTexts(g);
    const delta = fit.deltaOf(fit.lengths(b, a), cols.scale);
    return { a, b, tags: [g.as[0]!.el.tagName, g.bs[0]!.el.tagName], score: Math.exp((-delta * delta) / 8), delta, row };
  });
}

/** Words that name a column of a translation table ("Original", "譯文", "Notes 註"): data, not text. */
const COLUMN_LABEL_WORDS = new Set(
  (
    "original source text translation translated target english chinese notes note remarks remark comments comment " +
    "commentary term terms word words meaning definition explanation gloss literal reading version " +
    "原文 譯文 译文 翻譯 翻译 中文 英文 英語 英语 漢語 汉语 注 註 注釋 註釋 注释 備註 备注 說明 说明 術語 术语 詞彙 词汇 " +
    "單詞 单词 釋義 释义 解釋 解释 意思 中譯 中译 英譯 英译 白話 白话 今譯 今译"
  ).split(" "),
);

/** A row whose every cell with letters is a column label (`# | Original | 譯文 | Notes 註`). */
function namesColumns(cells: ReadonlyArray<GridCell | null>): boolean {
  const lettered = cells.filter((c): c is GridCell => c !== null && c.letters[0] + c.letters[1] > 0);
  return lettered.length >= 2 && lettered.every((c) => isColumnLabel(c.text));
}

function isColumnLabel(text: string): boolean {
  const words = text
    .toLowerCase()
    .split(/[\s/|()（）:：,，、]+/u)
    .filter(Boolean);
  return words.length > 0 && words.length <= 4 && words.every((w) => COLUMN_LABEL_WORDS.has(w));
}

/**
 * Pairs whose English or CJK text has another partner elsewhere in the template: a column whose values
 * repeat with different partners ("String" beside 是 here and 否 there: a type column beside a yes/no
 * column) is data, not a translation. A value seen three times or more with more than one partner: a term
 * with two translations is not that.
 */
export function ambiguousPairs<T extends { a: string; b: string }>(pairs: readonly T[]): Set<T> {
  const partners = new Map<string, Set<string>>();
  const count = new Map<string, number>();
  const note = (k: string, v: string) => {
    const set = partners.get(k) ?? new Set<string>();
    set.add(v);
    partners.set(k, set);
    count.set(k, (count.get(k) ?? 0) + 1);
  };
  for (const c of pairs) {
    note(`a\u0000${c.a}`, c.b);
    note(`b\u0000${c.b}`, c.a);
  }
  const repeats = (k: string) => partners.get(k)!.size > 1 && count.get(k)! >= 3;
  return new Set(pairs.filter((c) => repeats(`a\u0000${c.a}`) || repeats(`b\u0000${c.b}`)));
}
