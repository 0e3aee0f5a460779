/**
 * The page analyser of feng2011 §IV.A: DOM → monolingual snippets with their HTML context.
 *
 * Visual-only tags (b, i, font, strong, span, a, …) are transparent: their text joins the parent's.
 * Every other element is a block boundary, so text is cut by HTML blocks (segmentation "html") and
 * then by language (script) with the shared segmenter, which applies the seed's punctuation rules.
 * With segmentation "language" the tags are ignored and only the language cuts the text: the
 * baseline of feng2011 Table IV.
 */
import { isUnspacedLang, type LanguagePair, langShares, segmentByLanguage } from "../text/index.js";
import { cleanSnippet } from "./surface.js";
import {
  attribute,
  bodyOf,
  childrenOf,
  INLINE_TAGS,
  INVISIBLE_TAGS,
  isElement,
  isText,
  type TreeDocument,
  type TreeElement,
  type TreeNode,
} from "./tree.js";
import type { Segmentation, Snippet } from "./types.js";

export interface AnalyseOptions {
  pair: LanguagePair;
  segmentation: Segmentation;
}

/** One item of the flattened page: a tag token or a piece of text. */
type Item = { tag: string } | { text: string };

/** A page cut into snippets. `trailingGap` holds the tags after the last snippet (the r of a last pair). */
export interface PageSnippets {
  snippets: Snippet[];
  trailingGap: string[];
}

/** The snippets of a page in reading order (a parse5 tree, see `tree.ts`). */
export function pageSnippets(doc: TreeDocument, options: AnalyseOptions): PageSnippets {
  const root = bodyOf(doc);
  if (!root) return { snippets: [], trailingGap: [] };
  return snippetsFromItems(flatten(root, options.segmentation === "html"), options.pair);
}

/** The page as a flat list of tag tokens and text, in reading order (an explicit stack: no recursion). */
function flatten(root: TreeElement, keepTags: boolean): Item[] {
  const out: Item[] = [];
  const stack: Array<TreeNode | Item> = [];
  const pushChildren = (node: TreeNode) => {
    const kids = childrenOf(node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  };
  pushChildren(root);
  while (stack.length > 0) {
    const child = stack.pop()!;
    if ("tag" in child || "text" in child) {
      out.push(child);
      continue;
    }
    if (isText(child)) {
      out.push({ text: child.value });
      continue;
    }
    if (!isElement(child)) continue;
    const name = child.tagName;
    if (INVISIBLE_TAGS.has(name)) continue;
    if (INLINE_TAGS.has(name) && !(name === "a" && isStandaloneLink(child))) {
      pushChildren(child);
      continue;
    }
    const token = tagToken(child);
    if (!keepTags) {
      // Language-only segmentation: a block boundary is just a space.
      out.push({ text: " " });
      stack.push({ text: " " });
      pushChildren(child);
      continue;
    }
    if (child.childNodes.length === 0 && VOID_TAGS.has(name)) {
      out.push({ tag: `<${token}>` });
      continue;
    }
    out.push({ tag: `<${token}>` });
    stack.push({ tag: `</${name}>` });
    pushChildren(child);
  }
  return out;
}

/**
 * A link with no text of its own block beside it (`<a>Home 首页</a> | <a>News</a>`: a menu) is a unit of
 * its own, not part of a sentence: treated as a block so that menu items do not run together. A link
 * inside running text (`said <a>the ministry</a> on Monday`) stays transparent.
 */
function isStandaloneLink(el: TreeElement): boolean {
  const siblings = childrenOf(el.parentNode as TreeNode);
  const i = siblings.indexOf(el);
  return !hasLetters(siblings[i - 1]) && !hasLetters(siblings[i + 1]);
}

function hasLetters(node: TreeNode | undefined): boolean {
  return node !== undefined && isText(node) && /\p{L}/u.test(node.value);
}

const VOID_TAGS = new Set(["br", "hr", "img", "input", "area", "col", "meta", "link", "source", "track", "param"]);

/** `div.langs_en`: the tag name and its classes (ids and other attributes differ between repeats, so they are left out). */
function tagToken(el: TreeElement): string {
  const name = el.tagName;
  const cls = (attribute(el, "class") ?? "").trim();
  return cls ? `${name}.${cls.split(/\s+/u).join(".")}` : name;
}

/** Cut the flattened page into text blocks at tags, then each block into language runs. */
function snippetsFromItems(items: readonly Item[], pair: LanguagePair): PageSnippets {
  const snippets: Snippet[] = [];
  let gap: string[] = [];
  let text = "";
  let block = 0;
  const flush = () => {
    const runs = languageRuns(text, pair);
    text = "";
    if (runs.length === 0) return;
    let first = true;
    for (const [k, run] of runs.entries()) {
      const clean = cleanSnippet(run.text, k > 0, k < runs.length - 1);
      if (!/\p{L}/u.test(clean.text)) continue;
      snippets.push({ index: snippets.length, lang: run.lang, ...clean, block, gapBefore: first ? gap : [] });
      gap = [];
      first = false;
    }
    block++;
  };
  for (const item of items) {
    if ("text" in item) text += item.text;
    else {
      if (/\S/u.test(text)) flush();
      else text = "";
      gap.push(item.tag);
    }
  }
  if (/\S/u.test(text)) flush();
  return { snippets, trailingGap: gap };
}

const SPEAKER_LABEL = /^[A-Z]\s?[:：]$/u;

/** An e-mail address, a URL or a bare domain name alone is no text of either language. */
const ADDRESS_ONLY =
  /^\W*(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?:\/\/|www\.)\S+|[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|edu|gov|cn|jp|kr|tw|hk|io|info)(?:\/\S*)?)\W*$/u;

export interface Run {
  lang: string;
  text: string;
  start: number;
  end: number;
}

/** The language runs of one text block: the shared segmenter, neutral-only runs dropped, abbreviations merged. */
export function languageRuns(text: string, pair: LanguagePair): Run[] {
  const collapsed = text.replace(/\s+/gu, " ").trim();
  if (!collapsed) return [];
  const runs: Run[] = [];
  for (const seg of segmentByLanguage(collapsed, pair)) {
    if (seg.lang !== pair.a && seg.lang !== pair.b) continue;
    const shares = langShares(seg.text, pair);
    if ((shares[pair.a] ?? 0) + (shares[pair.b] ?? 0) === 0) continue;
    if (ADDRESS_ONLY.test(seg.text)) continue;
    runs.push({ lang: seg.lang, text: seg.text, start: seg.start, end: seg.end });
  }
  // `A：你好` — a dialogue's speaker label is a one-letter Latin run of its own: it belongs to the line's text.
  if (runs.length > 1 && SPEAKER_LABEL.test(runs[0]!.text)) {
    const [label, first] = runs as [Run, Run];
    runs.splice(0, 2, { ...first, start: label.start, text: collapsed.slice(label.start, first.end) });
  }
  return mergeSandwichedAbbreviations(runs, collapsed);
}

/**
 * feng2011's second rule: an abbreviation (`IALP`, `GDP`, `iPhone`, `3D`) between two runs of the other
 * language belongs to them — `我们在IALP会议上` is one Chinese snippet, not three. The same holds for a
 * word or two left untranslated inside a sentence (`…与德国人合作。 Criticizes 支持…`): a run of at most three
 * words, not ending a sentence, between two sentence-long runs (≥ 15 letters each) of the other language.
 * So is a Latin run written without spaces inside Chinese or Japanese text (`在Docker上运行`).
 * Only sandwiched runs are merged: a run beside one other-language run may be its translation
 * (`人工智能 (AI)`), and short terms in a row (`苹果 banana 香蕉`) are a glossary, not a sentence.
 */
export function mergeSandwichedAbbreviations(runs: readonly Run[], text: string): Run[] {
  const out: Run[] = [];
  for (let i = 0; i < runs.length; i++) {
    const prev = out[out.length - 1];
    const cur = runs[i]!;
    const next = runs[i + 1];
    if (
      prev &&
      next &&
      prev.lang === next.lang &&
      cur.lang !== prev.lang &&
      (isAbbreviation(cur.text) ||
        isEmbeddedWords(cur.text, cur.lang, prev.text, next.text) ||
        (isUnspacedLang(prev.lang) && gluedBefore(text, cur) && gluedAfter(text, cur)))
    ) {
      prev.end = next.end;
      prev.text = text.slice(prev.start, prev.end);
      i++;
      continue;
    }
    // At the start or end of a block: a Latin word glued to the CJK text beside it (`tenant参数错误`).
    if (prev && prev.lang !== cur.lang && !next && isUnspacedLang(prev.lang) && gluedBefore(text, cur)) {
      prev.end = cur.end;
      prev.text = text.slice(prev.start, prev.end);
      continue;
    }
    if (!prev && next && next.lang !== cur.lang && isUnspacedLang(next.lang) && gluedAfter(text, cur)) {
      out.push({ ...next, start: cur.start, text: text.slice(cur.start, next.end) });
      i++;
      continue;
    }
    out.push({ ...cur });
  }
  return out;
}

/** At most three Latin tokens, each all capitals, with a digit, or with an inner capital (`iPhone`). */
export function isAbbreviation(text: string): boolean {
  const tokens = text
    .replace(/[^\p{L}\p{N}.&\-\s]/gu, " ")
    .trim()
    .split(/\s+/u)
    .filter(Boolean);
  if (tokens.length === 0 || tokens.length > 3) return false;
  return tokens.every((t) => /^[\p{Lu}\p{N}.&-]{2,}$/u.test(t) || (/\p{N}/u.test(t) && /\p{L}/u.test(t)) || /^\p{Ll}+\p{Lu}/u.test(t));
}

/**
 * A Latin word written straight into Chinese or Japanese text, letter against letter with no space or
 * bracket between (`在Docker上运行`, `我用iPhone拍照`, `tenant参数错误`), is part of that text; a glossary
 * separates its terms (`苹果 banana 香蕉`, `人工智能（AI）`).
 */
function gluedBefore(text: string, run: Run): boolean {
  const own = text[run.start];
  const before = text[run.start - 1];
  return own !== undefined && before !== undefined && WORD_CHAR.test(own) && /\p{L}/u.test(before);
}

function gluedAfter(text: string, run: Run): boolean {
  const own = text[run.end - 1];
  const after = text[run.end];
  return own !== undefined && after !== undefined && WORD_CHAR.test(own) && /\p{L}/u.test(after);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

const SENTENCE_END = /[.!?。！？]["'”’)）]*$/u;

/** A few words inside a sentence of the other language (see `mergeSandwichedAbbreviations`). */
function isEmbeddedWords(text: string, lang: string, before: string, after: string): boolean {
  const short = isUnspacedLang(lang) ? letterCount(text) <= 4 : text.trim().split(/\s+/u).filter(Boolean).length <= 3;
  if (!short || SENTENCE_END.test(text.trim())) return false;
  return letterCount(before) >= 15 && letterCount(after) >= 15;
}

function letterCount(text: string): number {
  let n = 0;
  for (const ch of text) if (/\p{L}/u.test(ch)) n++;
  return n;
}
