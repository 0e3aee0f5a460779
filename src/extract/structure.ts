/**
 * Structure first: the page's own parallel units, found from its repeating bilingual template.
 *
 * 1. Every element gets its letter counts per language (one iterative pass over the parse5 tree) and from
 *    them a dominant language (the other language's letters ≤ 10 %: English-dominant; CJK letters > 30 %:
 *    CJK-dominant) and whether it is *pure*: one language, and so are all its structural children.
 * 2. A pure element is a unit (a paragraph, a table cell, a list item, a heading, a span of a figure caption);
 *    an element that is not pure is opened, and its structural children form a *run* in page order.
 * 3. Runs are paired by their template: adjacent units of the same tag in the two languages, in one
 *    direction (English → CJK or CJK → English) chosen per template (the runs under the same tag path)
 *    by the total length fit, so a page that alternates `zh en zh en` pairs `(zh, en)` and a three-way
 *    `en zh-hans zh-hant` group pairs English with the first Chinese sibling. A pair is rejected only when
 *    the length model says it cannot be a translation, or when the CJK side quotes the whole English
 *    side (a note about a word, not its translation).
 * 4. Inside one element: "中文 / English", `中文<br>English`, "English，中文，gloss" (a comma-separated term
 *    list counts once it repeats on the page); dialogue lines alternating inside `<pre>`.
 *
 * Navigation stays out: `nav`, `footer`, ARIA navigation, and units whose text is all link text (menus,
 * tables of contents, "主頁/home"). Code blocks (`<pre>` whose lines do not alternate languages) stay out.
 * No rule here knows a site or a class name.
 */
import type { LanguagePair } from "../text/index.js";
import { type RowEvidence, rowEvidence } from "./row-evidence.js";
import { ambiguousPairs, definitionGrid, gridCell, gridPairs, tableGrid } from "./grid.js";
import {
  type CharCounts,
  countChars,
  countLetters,
  dominant,
  LengthFit,
  pairFit,
  type Side,
  unitSide,
  withoutOneSidedNumber,
} from "./fit.js";
import {
  attribute,
  bodyOf,
  childrenOf,
  FLOW_TAGS,
  INVISIBLE_TAGS,
  isElement,
  isText,
  type TreeDocument,
  type TreeElement,
  visibleText,
} from "./tree.js";

/** Parameters of the structural pairing (chosen on the development pages; see docs/guide/extract.md, eval table). */
export interface StructureOptions {
  /** Largest |δ| of the length model for a pair of a template (beyond it: not a translation). */
  maxDelta: number;
  /** A dialogue `<pre>` must have at least this share of its lines paired (else it is code). */
  minPreCoverage: number;
  /** A template is regular (all its pairs kept) with at least this many pairs that fit the length model… */
  minTemplatePairs: number;
  /** … making at least this share of its pairs. */
  minFitShare: number;
}

export const DEFAULT_STRUCTURE_OPTIONS: StructureOptions = { maxDelta: 4, minPreCoverage: 0.6, minTemplatePairs: 3, minFitShare: 0.5 };

/** A pair found by structure; `a` in pair.a (English), `b` in pair.b. */
export interface StructurePair {
  a: string;
  b: string;
  /** Length fit in (0, 1]. */
  score: number;
  /** Which template produced it. */
  kind: "siblings" | "inline" | "lines";
  /** Document position of its first unit (for page order). */
  order: number;
}

/** The pairs, and whether the page has a regular template (a dialogue, or a template with enough pairs that fit). */
export interface StructureResult {
  pairs: StructurePair[];
  regular: boolean;
}

interface Info {
  el: TreeElement;
  parent: number;
  order: number;
  letters: [number, number];
  link: number;
  direct: boolean;
  /** Tag path id: elements with the same chain of tag names from the root share it. */
  path: number;
}

interface Unit {
  side: Side;
  text: string;
  tag: string;
  order: number;
}

const EXCLUDED_TAGS = new Set(["nav", "footer"]);
const EXCLUDED_ROLES = new Set(["navigation", "contentinfo", "menu", "menubar"]);

/** The structural pairs of a parsed page. */
export function structuralPairs(doc: TreeDocument, pair: LanguagePair, options: Partial<StructureOptions> = {}): StructureResult {
  const opts = { ...DEFAULT_STRUCTURE_OPTIONS, ...options };
  const body = bodyOf(doc);
  if (!body) return { pairs: [], regular: false };
  const scorer = new LengthFit(pair);
  const infos = measure(body, pair);
  const kids = structuralChildren(infos);
  const page: MeasuredPage = { infos, kids, pure: purity(infos, kids), pair, scorer, opts, translate: rowEvidence(pair) };
  const walk = walkRuns(page);
  // Templates in turn: translation grids, side-by-side columns, runs of the same tag path, inline pairs.
  const templates = [...walk.grids, ...parallelColumns(infos, kids, page.pure, scorer)];
  const rowRuns = new Set<number>();
  for (const list of walk.templates.values()) {
    const { pairs, rows } = pairRuns(list, scorer, (runs, adjacent) => runGrid(runs, adjacent, page));
    for (const r of rows) rowRuns.add(r);
    templates.push(pairs);
  }
  templates.push(...inlineTemplates(walk.inline, rowRuns));
  let regular = walk.dialogue.length > 0;
  const out: StructurePair[] = [...walk.dialogue];
  for (const template of templates) {
    const kept = keepTemplate(template, opts);
    regular ||= kept.regular;
    out.push(...kept.pairs);
  }
  const pairs = out
    .filter((p) => !isLanguageLabel(p.a, p.b))
    .sort((x, y) => x.order - y.order)
    .map(({ order, a, b, score, kind }) => ({ ...withoutSpeakerLabels(a, b), score, kind, order }));
  return { pairs, regular };
}

/** A page measured for the structural pairing, with what pairing it needs. */
interface MeasuredPage {
  infos: Info[];
  kids: number[][];
  /** Whether each element's text is in one language. */
  pure: boolean[];
  pair: LanguagePair;
  scorer: LengthFit;
  opts: StructureOptions;
  /** Whether the rows of a grid's two columns translate each other (the lexicon, loaded only when a grid asks). */
  translate: RowEvidence;
}

/** What the walk over the page's runs of sibling units finds. */
interface RunWalk {
  /** Runs with at least one unit, by the tag path of their parent. */
  templates: Map<number, Run[]>;
  /** Units that hold a pair of their own ("English (中文)"). */
  inline: InlineCandidate[];
  /** The lines of dialogue `<pre>` blocks. */
  dialogue: StructurePair[];
  /** The pairs of each translation grid (a table or definition list whose columns pair), one template each. */
  grids: Candidate[][];
  /** The cells of those grids: not units of runs (their columns are paired, or are notes). */
  gridCells: Set<TreeElement>;
}

/** Walk the page from the body: each element's structural children make a run; blocks are opened into runs of their own. */
function walkRuns(page: MeasuredPage): RunWalk {
  const walk: RunWalk = { templates: new Map(), inline: [], dialogue: [], ...translationGrids(page) };
  const stack = [0];
  let runCount = 0;
  while (stack.length > 0) {
    const i = stack.pop()!;
    const run: Run = { id: runCount++, group: page.infos[i]!.parent, units: [] };
    for (const k of page.kids[i]!) if (addChild(page, k, run, walk)) stack.push(k);
    if (run.units.some((u) => u !== null)) {
      const key = page.infos[i]!.path;
      const list = walk.templates.get(key) ?? [];
      list.push(run);
      walk.templates.set(key, list);
    }
  }
  return walk;
}

/** Add element k to its parent's run (null: a slot that is no unit); true when k is a block to open. */
function addChild(page: MeasuredPage, k: number, run: Run, walk: RunWalk): boolean {
  const { infos, kids, pure, pair, scorer } = page;
  const child = infos[k]!;
  if (child.link >= child.letters[0] + child.letters[1]) {
    run.units.push(null); // a menu item, a table-of-contents entry: navigation
    return false;
  }
  if (child.el.tagName === "pre") {
    const lines = dialogueLines(child, pair, scorer, page.opts);
    walk.dialogue.push(...lines);
    if (lines.length > 0) run.units.push(null);
    return false; // a code block is not text; it does not break the alternation around it
  }
  if (walk.gridCells.has(child.el)) {
    // A cell of a translation grid: paired with its row or a note; opened only when it holds blocks of its own.
    run.units.push(null);
    return !pure[k] && kids[k]!.length > 1;
  }
  // A unit: no structural children, or one language wrapping a single child (`<td><p>…</p></td>`). A
  // one-language block of several children is opened: its items may hold inline pairs of their own.
  if (kids[k]!.length === 0 || (pure[k] && kids[k]!.length === 1)) {
    const lines = visibleText(child.el, true);
    const text = lines.replace(/\n/gu, " ");
    const found = inlinePair(child, lines, text, pair, scorer);
    if (found) {
      walk.inline.push({ ...found, run: run.id });
      run.units.push(null);
    } else {
      const side = unitSide(child.letters, text);
      run.units.push(side ? { side, text, tag: child.el.tagName, order: child.order } : null);
    }
    return false;
  }
  run.units.push(null);
  return true;
}

/**
 * The page's translation grids: its tables and definition lists whose columns pair (`grid.ts`), less those
 * that read as data on the page as a whole (values repeating with different partners across its tables: the
 * `String` of a type column beside 是 in one table and 否 in the next).
 */
function translationGrids(page: MeasuredPage): { grids: Candidate[][]; gridCells: Set<TreeElement> } {
  const found: Array<{ pairs: Candidate[]; cells: TreeElement[] }> = [];
  for (const [i, info] of page.infos.entries()) {
    if (page.pure[i] || (info.el.tagName !== "table" && info.el.tagName !== "dl")) continue;
    const grid = translationGrid(info, page);
    if (grid) found.push(grid);
  }
  const ambiguous = ambiguousPairs(found.flatMap((g) => g.pairs));
  const kept = found.filter((g) => g.pairs.filter((c) => ambiguous.has(c)).length <= 0.3 * g.pairs.length);
  return { grids: kept.map((g) => g.pairs), gridCells: new Set(kept.flatMap((g) => g.cells)) };
}

/** The pairs of a table or definition list read as a grid of columns (`grid.ts`), or null when its columns do not pair. */
function translationGrid(info: Info, page: MeasuredPage): { pairs: Candidate[]; cells: TreeElement[] } | null {
  const rows = info.el.tagName === "table" ? tableGrid(info.el, page.pair) : definitionGrid(info.el, page.pair);
  const found = gridPairs(rows, page.scorer, page.opts, page.translate);
  if (!found) return null;
  // Page order: inside the grid's element, row by row.
  const order = (row: number) => info.order + (row + 1) / (rows.length + 2);
  const pairs = found.map(
    (p): Candidate => ({ a: p.a, b: p.b, score: p.score, kind: "siblings", order: order(p.row), delta: p.delta, run: -1, position: p.row }),
  );
  return { pairs, cells: rows.flatMap((r) => r.cells.flatMap((c) => (c ? [c.el] : []))) };
}

/**
 * Runs of sibling units that are the rows of one container (`<div>` rows, list items of spans), read as a grid
 * where their adjacent pairs (`adjacent`, the modal column) are no regular template (notes between, classical
 * Chinese); rows whose adjacent pairs already are one keep them (and spare the grid its lexicon test).
 */
function runGrid(unordered: readonly Run[], adjacent: readonly Candidate[], page: MeasuredPage): Candidate[] | null {
  if (keepTemplate(adjacent, page.opts).regular) return null;
  const first = (run: Run) => run.units.find((u) => u !== null)?.order ?? 0;
  const runs = [...unordered].sort((x, y) => first(x) - first(y));
  const rows = runs.map((run) => ({ cells: run.units.map((u) => (u ? gridCell(page.infos[u.order]!.el, page.pair) : null)), skip: false }));
  const found = gridPairs(rows, page.scorer, page.opts, page.translate);
  // Units of a run pair with units of their kind (as adjacent units do): a heading is not a code block's translation.
  if (found?.some((p) => !sameKind(p.tags[0], p.tags[1]))) return null;
  if (!found) return null;
  return found.map((p): Candidate => {
    const run = runs[p.row]!;
    return { a: p.a, b: p.b, score: p.score, kind: "siblings", order: first(run), delta: p.delta, run: run.id, position: p.row };
  });
}

/**
 * Inline pairs, grouped by template (how they are written, where): a cell of a row whose columns are already
 * paired is a notes column; a comma-separated term list ("English，中文，gloss") counts only where it repeats.
 */
function inlineTemplates(inline: readonly InlineCandidate[], rowRuns: ReadonlySet<number>): Candidate[][] {
  const byKey = new Map<string, Candidate[]>();
  for (const c of inline) {
    if (rowRuns.has(c.run)) continue;
    const list = byKey.get(c.key) ?? [];
    list.push(c);
    byKey.set(c.key, list);
  }
  return [...byKey].filter(([key, list]) => !(key.startsWith("comma:") && list.length < 2)).map(([, list]) => list);
}

/**
 * Two columns side by side: neighbouring one-language blocks of the two languages with the same number of
 * children (`<div>中文 ¶ ¶ ¶</div><div>English ¶ ¶ ¶</div>`) pair child by child, in order.
 */
function parallelColumns(infos: readonly Info[], kids: readonly number[][], pure: readonly boolean[], scorer: LengthFit): Candidate[][] {
  const out: Candidate[][] = [];
  for (let i = 0; i < infos.length; i++) {
    const ks = kids[i]!;
    for (let j = 0; j + 1 < ks.length; j++) {
      const [x, y] = [ks[j]!, ks[j + 1]!];
      const n = kids[x]!.length;
      if (!pure[x] || !pure[y] || n < 2 || kids[y]!.length !== n) continue;
      const sx = dominant(infos[x]!.letters);
      const sy = dominant(infos[y]!.letters);
      if (sx === sy || (sx !== "a" && sx !== "b") || (sy !== "a" && sy !== "b")) continue;
      const [ea, eb] = sx === "a" ? [x, y] : [y, x];
      const column: Candidate[] = [];
      for (let k = 0; k < n; k++) {
        const a = visibleText(infos[kids[ea]![k]!]!.el);
        const b = visibleText(infos[kids[eb]![k]!]!.el);
        const f = pairFit(a, b, scorer);
        if (!Number.isFinite(f.delta)) continue;
        column.push({ a, b, score: f.score, kind: "siblings", order: infos[kids[x]![k]!]!.order, delta: f.delta, run: -1, position: k });
      }
      out.push(column);
    }
  }
  return out;
}

interface Run {
  id: number;
  /** The element holding the run's parent (the table of a row, the list of an item). */
  group: number;
  units: Array<Unit | null>;
}

interface Candidate extends StructurePair {
  delta: number;
  /** The run it was found in and the position of its first unit there. */
  run: number;
  position: number;
  /** The inline template (how it is written and where). */
  key?: string;
}

type InlineCandidate = Candidate & { key: string };

/**
 * A template is *regular* when most of its pairs fit the length model: then all its pairs are kept (free
 * translations, short headings with long translations, words no lexicon knows); otherwise only those that fit.
 */
function keepTemplate(pairs: readonly Candidate[], opts: StructureOptions): { pairs: Candidate[]; regular: boolean } {
  const fitting = pairs.filter((c) => Math.abs(c.delta) <= opts.maxDelta);
  const regular = fitting.length >= opts.minTemplatePairs && fitting.length >= opts.minFitShare * pairs.length;
  return { pairs: regular ? [...pairs] : fitting, regular };
}

/** Pre-order list of the visible elements under `root` with their letter counts (subtree totals). */
function measure(root: TreeElement, pair: LanguagePair): Info[] {
  const infos: Info[] = [];
  // Tag paths as numbers (parent path, tag → id): strings would grow with the depth, quadratically in all.
  const pathIds: Array<Map<string, number>> = [];
  let paths = 0;
  const pathOf = (parentPath: number, tag: string): number => {
    let byTag = pathIds[parentPath + 1];
    if (!byTag) {
      byTag = new Map<string, number>();
      pathIds[parentPath + 1] = byTag;
    }
    let id = byTag.get(tag);
    if (id === undefined) {
      id = paths++;
      byTag.set(tag, id);
    }
    return id;
  };
  // The stack as parallel arrays (no object per element: less for the garbage collector to do).
  const els: TreeElement[] = [root];
  const parents: number[] = [-1];
  const links: boolean[] = [false];
  const pathStack: number[] = [pathOf(-1, root.tagName)];
  const counts: CharCounts = { a: 0, b: 0, other: 0 };
  while (els.length > 0) {
    const el = els.pop()!;
    const parent = parents.pop()!;
    const inLink = links.pop()!;
    const path = pathStack.pop()!;
    const i = infos.length;
    const info: Info = { el, parent, order: i, letters: [0, 0], link: 0, direct: false, path };
    infos.push(info);
    const link = inLink || el.tagName === "a";
    const kids = childrenOf(el);
    for (let k = kids.length - 1; k >= 0; k--) {
      const c = kids[k]!;
      if (isText(c)) {
        countChars(c.value, pair, counts);
        const n = counts.a + counts.b;
        info.letters[0] += counts.a;
        info.letters[1] += counts.b;
        if (link) info.link += n;
        if (n > 0) info.direct = true;
      } else if (isElement(c) && !hidden(c)) {
        els.push(c);
        parents.push(i);
        links.push(link);
        pathStack.push(pathOf(path, c.tagName));
      }
    }
  }
  for (let i = infos.length - 1; i > 0; i--) {
    const inf = infos[i]!;
    const p = infos[inf.parent]!;
    p.letters[0] += inf.letters[0];
    p.letters[1] += inf.letters[1];
    p.link += inf.link;
  }
  return infos;
}

function hidden(el: TreeElement): boolean {
  if (INVISIBLE_TAGS.has(el.tagName) || EXCLUDED_TAGS.has(el.tagName)) return true;
  if (el.attrs.length === 0) return false;
  const role = attribute(el, "role");
  return (role !== null && EXCLUDED_ROLES.has(role)) || attribute(el, "hidden") !== null || attribute(el, "aria-hidden") === "true";
}

/**
 * The children that structure an element: all children with letters when the element has no text of its
 * own (`<figcaption><span>Song</span><span>宋体</span></figcaption>`), only its block children when it has
 * (the `<a>` and `<code>` inside a sentence are part of the sentence).
 */
function structuralChildren(infos: readonly Info[]): number[][] {
  const none: number[] = [];
  const kids: number[][] = new Array<number[]>(infos.length).fill(none);
  for (let i = 1; i < infos.length; i++) {
    const inf = infos[i]!;
    if (inf.letters[0] + inf.letters[1] === 0) continue;
    const parent = infos[inf.parent]!;
    if (parent.direct && FLOW_TAGS.has(inf.el.tagName)) continue;
    if (kids[inf.parent] === none) kids[inf.parent] = [i];
    else kids[inf.parent]!.push(i);
  }
  return kids;
}

/** Pure: one dominant language, and so are all structural children (bottom-up, so children come first). */
function purity(infos: readonly Info[], kids: readonly number[][]): boolean[] {
  const pure = infos.map(() => false);
  for (let i = infos.length - 1; i >= 0; i--) {
    const lang = dominant(infos[i]!.letters);
    if (lang !== "a" && lang !== "b") continue;
    pure[i] = kids[i]!.every((k) => pure[k] && dominant(infos[k]!.letters) === lang);
  }
  return pure;
}

/**
 * Pair the runs of one template (the runs under one tag path). For each direction (first side → other
 * side), the best set of non-overlapping adjacent pairs per run (dynamic programming on the path, every pair
 * worth a little plus its length fit); the direction with the larger total wins. Where every run gives one
 * pair (table rows), the columns are the template: a pair in another column must fit the length model, and
 * the runs are `rows` (their other cells are notes).
 */
function pairRuns(
  runs: readonly Run[],
  scorer: LengthFit,
  gridOf?: (rows: readonly Run[], adjacent: readonly Candidate[]) => Candidate[] | null,
): { pairs: Candidate[]; rows: number[] } {
  let best: Candidate[] = [];
  let bestTotal = 0;
  for (const first of ["a", "b"] as const) {
    const pairs: Candidate[] = [];
    let total = 0;
    for (const run of runs) {
      const r = matchRun(run, first, scorer);
      pairs.push(...r.pairs);
      total += r.total;
    }
    if (total > bestTotal) {
      best = pairs;
      bestTotal = total;
    }
  }
  const perRun = new Map<number, number>();
  for (const c of best) perRun.set(c.run, (perRun.get(c.run) ?? 0) + 1);
  if (perRun.size < 3 || [...perRun.values()].some((n) => n > 1)) return { pairs: best, rows: [] };
  // Rows of tables: the columns are the template.
  const ambiguous = ambiguousPairs(best);
  const groupOf = new Map(runs.map((r) => [r.id, r.group]));
  const groups = new Map<number, Candidate[]>();
  for (const c of best) {
    const g = groupOf.get(c.run)!;
    const list = groups.get(g);
    if (list) list.push(c);
    else groups.set(g, [c]);
  }
  const pairs: Candidate[] = [];
  // Each group's rows read as a grid (`grid.ts`: columns by content and the grid's own length ratio) when
  // its columns pair; otherwise the modal column of the adjacent pairs.
  const columns = new Map([...groups].map(([g, list]) => [g, tableColumns(list, ambiguous)]));
  const grids = new Map(
    [...groups.keys()].map((g) => [
      g,
      gridOf?.(
        runs.filter((r) => r.group === g),
        columns.get(g)!,
      ) ?? null,
    ]),
  );
  const unclear = ambiguousPairs([...grids.values()].flatMap((x) => x ?? []));
  for (const g of groups.keys()) {
    const grid = grids.get(g);
    const data = grid && grid.filter((c) => unclear.has(c)).length > 0.3 * grid.length;
    pairs.push(...(grid && !data ? grid : columns.get(g)!));
  }
  return { pairs, rows: [...perRun.keys()] };
}

/**
 * The rows of one table: a table where many pairs are ambiguous is a data table (nothing kept); otherwise
 * the pairs of its modal column are kept (a pair in another column only if it fits the length model well).
 */
function tableColumns(rows: readonly Candidate[], ambiguous: ReadonlySet<Candidate>): Candidate[] {
  const unclear = rows.filter((c) => ambiguous.has(c)).length;
  if (unclear > 0.3 * rows.length) return [];
  const byPosition = new Map<number, number>();
  for (const c of rows) byPosition.set(c.position, (byPosition.get(c.position) ?? 0) + 1);
  const column = [...byPosition.entries()].sort((x, y) => y[1] - x[1])[0]![0];
  // A table of one or two rows has no columns to speak for it: its ambiguous pairs go.
  const small = rows.length < 3;
  return rows.filter((c) => !(small && ambiguous.has(c)) && (c.position === column || Math.abs(c.delta) <= 2));
}

function matchRun(run: Run, first: Side, scorer: LengthFit): { pairs: Candidate[]; total: number } {
  const units = run.units;
  const n = units.length;
  const best = new Float64Array(n + 1);
  const take: Array<Candidate | null> = new Array(n + 1).fill(null);
  for (let i = 2; i <= n; i++) {
    best[i] = best[i - 1]!;
    const x = units[i - 2];
    const y = units[i - 1];
    if (!x || !y || x.side !== first || y.side === first || !sameKind(x.tag, y.tag)) continue;
    const [a, b] = x.side === "a" ? withoutOneSidedNumber(x.text, y.text) : withoutOneSidedNumber(y.text, x.text);
    const f = pairFit(a, b, scorer);
    if (!Number.isFinite(f.delta)) continue;
    const w = 0.1 + f.score;
    if (best[i - 2]! + w > best[i]!) {
      best[i] = best[i - 2]! + w;
      take[i] = { a, b, score: f.score, kind: "siblings", order: x.order, delta: f.delta, run: run.id, position: i - 2 };
    }
  }
  const pairs: Candidate[] = [];
  for (let i = n; i >= 2; ) {
    const t = take[i];
    if (t && best[i] !== best[i - 1]) {
      pairs.push(t);
      i -= 2;
    } else i--;
  }
  return { pairs: pairs.reverse(), total: best[n]! };
}

/** Units pair with units of their kind: the same tag, two headings, or two plain blocks (`<p>` and `<div>`). */
function sameKind(x: string, y: string): boolean {
  if (x === y) return true;
  const kind = (t: string) => (/^h[1-6]$/u.test(t) ? "heading" : t === "p" || t === "div" ? "block" : t);
  return kind(x) === kind(y);
}

/** Names of languages as a column header or a switcher names them ("English | 中文"): labels, not text. */
const LANGUAGE_NAME = /^(?:english|chinese|japanese|en|zh|ja|英文|英语|英語|中文|汉语|漢語|简体中文|繁體中文|繁体中文|日本語|日语|日語)$/iu;

function isLanguageLabel(a: string, b: string): boolean {
  return LANGUAGE_NAME.test(a.trim()) && LANGUAGE_NAME.test(b.trim());
}

const SPEAKER = /^(?:[A-Z]|[甲乙丙丁男女问答問])\s?[:：]\s*/u;

/** Speaker labels on both sides of a dialogue line ("A: …" / "甲：…") are the dialogue's layout, not its text. */
function withoutSpeakerLabels(a: string, b: string): { a: string; b: string } {
  if (!SPEAKER.test(a) || !SPEAKER.test(b)) return { a, b };
  return { a: a.replace(SPEAKER, ""), b: b.replace(SPEAKER, "") };
}

/** Dialogue lines inside `<pre>`: kept when the lines alternate languages (most of them paired); else code. */
function dialogueLines(info: Info, pair: LanguagePair, scorer: LengthFit, opts: StructureOptions): StructurePair[] {
  const units: Array<Unit | null> = [];
  for (const line of visibleText(info.el, true).split("\n")) {
    const side = dominant(countLetters(line, pair));
    if (side === null) continue;
    units.push(side === "mixed" ? null : { side, text: line, tag: "line", order: info.order });
  }
  if (units.length < 2) return [];
  const { pairs } = keepTemplate(pairRuns([{ id: -1, group: -1, units }], scorer).pairs, opts);
  return pairs.length >= 2 && (pairs.length * 2) / units.length >= opts.minPreCoverage
    ? pairs.map((p) => ({ a: p.a, b: p.b, score: p.score, kind: "lines" as const, order: p.order }))
    : [];
}

/** Separators between the two halves of an inline pair. */
const FIELD_SEPARATORS: ReadonlyArray<{ name: string; split: RegExp }> = [
  { name: "slash", split: /\s+[/|]\s+|[／｜]/u },
  { name: "comma", split: /，/u },
];

/**
 * An inline pair inside one element: two lines (`中文<br>English`, or an item written on two lines), or
 * fields separated by " / ", " | " or a full-width comma, the first two fields in the two languages.
 */
function inlinePair(
  info: Info,
  textLines: string,
  text: string,
  pair: LanguagePair,
  scorer: LengthFit,
): Omit<InlineCandidate, "run"> | null {
  if (info.letters[0] === 0 || info.letters[1] === 0) return null;
  const lines = textLines.split("\n");
  if (lines.length === 2) {
    const p = halves(lines[0]!, lines[1]!, pair, scorer);
    if (p) return { ...p, kind: "inline", order: info.order, position: 0, key: `lines:${info.path}` };
  }
  for (const sep of FIELD_SEPARATORS) {
    const fields = text.split(sep.split).map((f) => f.trim());
    if (fields.length < 2) continue;
    // Terms of a comma-separated list carry no sentence punctuation of their own.
    const clean = sep.name === "comma" ? fields.map((f) => f.replace(/[。；;.]+$/u, "")) : fields;
    if (sep.name === "slash" && fields.length !== 2) continue;
    const p = halves(clean[0]!, clean[1]!, pair, scorer);
    if (p) return { ...p, kind: "inline", order: info.order, position: 0, key: `${sep.name}:${info.path}` };
  }
  return null;
}

function halves(
  x: string,
  y: string,
  pair: LanguagePair,
  scorer: LengthFit,
): { a: string; b: string; score: number; delta: number } | null {
  const [xa, xb] = countLetters(x, pair);
  const [ya, yb] = countLetters(y, pair);
  let a: string;
  let b: string;
  if (xb === 0 && xa > 0 && dominant([ya, yb]) === "b") [a, b] = [x, y];
  else if (yb === 0 && ya > 0 && dominant([xa, xb]) === "b") [a, b] = [y, x];
  else return null;
  const f = pairFit(a, b, scorer);
  return Number.isFinite(f.delta) ? { a, b, score: f.score, delta: f.delta } : null;
}
