import { escapeHtml } from "../html/index.js";
import { pick, seededRandom, shuffled } from "../random.js";

/**
 * The simulator's web: bilingual and monolingual pages built from real English–Chinese sentence
 * pairs (Tatoeba, CC-BY 2.0 FR, attributed on every page), served by the simulator and found by its
 * engines. Bilingual pages come in the shapes that bilingual pages take on the real web
 * (feng2011 §1): paragraph pairs, glossary tables, E/C alternation in lists, dialogues.
 * Every pair appears on one or two bilingual pages, one English page and one Chinese page, so a
 * query returns a realistic mix of bilingual and monolingual candidates.
 */

export interface SimPair {
  en: string;
  zh: string;
  /** Tatoeba attribution of the pair (authors and sentence numbers). */
  attribution: string | null;
}

export type PageKind = "bilingual" | "english" | "chinese";
export type PageStyle = "paragraphs" | "glossary" | "alternating" | "dialogue" | "article" | "forum";

export interface SimSite {
  id: string;
  name: string;
  lang: "en" | "zh" | "mixed";
  styles: readonly PageStyle[];
}

export interface SimPage {
  id: number;
  kind: PageKind;
  style: PageStyle;
  site: SimSite;
  /** Path on the simulator, e.g. `/p/daily-english/lesson-12.html`. */
  path: string;
  title: string;
  /** Indexes into the collection's pairs, in page order. */
  pairs: number[];
}

const BILINGUAL_SITES: readonly SimSite[] = [
  { id: "daily-english", name: "Daily English 每日英语", lang: "mixed", styles: ["paragraphs", "dialogue"] },
  { id: "liju-dict", name: "英汉例句词典 Example Sentence Dictionary", lang: "mixed", styles: ["glossary"] },
  { id: "bilingual-reader", name: "双语阅读 Bilingual Reader", lang: "mixed", styles: ["alternating", "paragraphs"] },
  { id: "phrasebook", name: "Travel Phrasebook 旅游英语", lang: "mixed", styles: ["glossary", "alternating"] },
];
const ENGLISH_SITES: readonly SimSite[] = [
  { id: "story-corner", name: "Story Corner", lang: "en", styles: ["article"] },
  { id: "notes-from-home", name: "Notes from Home", lang: "en", styles: ["article"] },
];
const CHINESE_SITES: readonly SimSite[] = [
  { id: "shenghuo-bbs", name: "生活论坛", lang: "zh", styles: ["forum"] },
  { id: "wenzhai", name: "每日文摘", lang: "zh", styles: ["article"] },
];

export class SimCollection {
  readonly pairs: readonly SimPair[];
  readonly pages: readonly SimPage[];
  private readonly byPath: Map<string, SimPage>;

  private constructor(pairs: readonly SimPair[], pages: SimPage[]) {
    this.pairs = pairs;
    this.pages = pages;
    this.byPath = new Map(pages.map((p) => [p.path, p]));
  }

  /** Build the collection from sentence pairs; the same pairs and seed give the same pages. */
  static fromPairs(pairs: readonly SimPair[], seed = 2010): SimCollection {
    if (pairs.length === 0) throw new Error("the simulator needs at least one sentence pair");
    const random = seededRandom(seed);
    const pages: SimPage[] = [];
    const indexes = pairs.map((_, i) => i);
    const perSite = new Map<string, number>();
    const add = (kind: PageKind, sites: readonly SimSite[], group: number[]) => {
      const site = pick(sites, random);
      const style = pick(site.styles, random);
      const n = (perSite.get(site.id) ?? 0) + 1;
      perSite.set(site.id, n);
      const slug =
        kind === "bilingual" ? `${style}-${n}` : kind === "english" ? `post-${n}` : `${style === "forum" ? "thread" : "wen"}-${n}`;
      pages.push({
        id: pages.length,
        kind,
        style,
        site,
        path: `/p/${site.id}/${slug}.html`,
        title: pageTitle(kind, style, group, pairs, n),
        pairs: group,
      });
    };
    for (const group of chunks(shuffled(indexes, random), 6, 12, random)) add("bilingual", BILINGUAL_SITES, group);
    // A second bilingual pass over half the pairs: popular sentences sit on several bilingual sites.
    const half = shuffled(indexes, random).slice(0, Math.ceil(indexes.length / 2));
    for (const group of chunks(half, 6, 12, random)) add("bilingual", BILINGUAL_SITES, group);
    for (const group of chunks(shuffled(indexes, random), 5, 10, random)) add("english", ENGLISH_SITES, group);
    for (const group of chunks(shuffled(indexes, random), 5, 10, random)) add("chinese", CHINESE_SITES, group);
    return new SimCollection(pairs, pages);
  }

  page(path: string): SimPage | undefined {
    return this.byPath.get(path);
  }

  /** The page's full HTML as the simulator serves it. */
  renderPage(page: SimPage): string {
    return renderPage(page, this.pairs);
  }

  /** The page's visible text units, in order (what the engines index and quote in snippets). */
  textUnits(page: SimPage): string[] {
    return page.pairs.flatMap((i) => {
      const p = this.pairs[i]!;
      return page.kind === "bilingual" ? [p.en, p.zh] : page.kind === "english" ? [p.en] : [p.zh];
    });
  }
}

function chunks(items: readonly number[], min: number, max: number, random: () => number): number[][] {
  const out: number[][] = [];
  let i = 0;
  while (i < items.length) {
    const size = min + Math.floor(random() * (max - min + 1));
    out.push(items.slice(i, i + size));
    i += size;
  }
  // A last group shorter than `min` joins the previous one.
  if (out.length > 1 && out[out.length - 1]!.length < min) {
    const last = out.pop()!;
    out[out.length - 1]!.push(...last);
  }
  return out;
}

function pageTitle(kind: PageKind, style: PageStyle, group: number[], pairs: readonly SimPair[], n: number): string {
  const first = pairs[group[0]!]!;
  if (kind === "english") return `${first.en.replace(/[.!?]+$/, "")} | Story Corner`;
  if (kind === "chinese") return `${first.zh.replace(/[。！？]+$/, "")}${style === "forum" ? " - 生活论坛" : " - 每日文摘"}`;
  switch (style) {
    case "glossary":
      return `英汉例句 Example sentences (${n}): ${first.en}`;
    case "dialogue":
      return `情景对话 Dialogue ${n}: ${first.en} ${first.zh}`;
    case "alternating":
      return `双语句子 Bilingual sentences ${n} | ${first.zh}`;
    default:
      return `每日英语 Daily English ${n}: ${first.en}`;
  }
}

function renderPage(page: SimPage, pairs: readonly SimPair[]): string {
  const items = page.pairs.map((i) => pairs[i]!);
  const e = escapeHtml;
  let body: string;
  switch (page.kind === "bilingual" ? page.style : page.kind) {
    case "glossary":
      body =
        `<table class="glossary"><thead><tr><th>English</th><th>中文</th></tr></thead><tbody>` +
        items.map((p) => `<tr><td>${e(p.en)}</td><td>${e(p.zh)}</td></tr>`).join("") +
        `</tbody></table>`;
      break;
    case "alternating":
      body = `<ol class="sentences">${items.map((p) => `<li><span class="en">${e(p.en)}</span><br><span class="zh">${e(p.zh)}</span></li>`).join("")}</ol>`;
      break;
    case "dialogue":
      body = items
        .map(
          (p, k) => `<p class="line"><b>${k % 2 === 0 ? "A" : "B"}:</b> ${e(p.en)}<br><b>${k % 2 === 0 ? "甲" : "乙"}：</b>${e(p.zh)}</p>`,
        )
        .join("\n");
      break;
    case "paragraphs":
      body = items.map((p) => `<p>${e(p.en)}</p>\n<p>${e(p.zh)}</p>`).join("\n");
      break;
    case "english":
      body = paragraphs(
        items.map((p) => p.en),
        " ",
      )
        .map((t) => `<p>${e(t)}</p>`)
        .join("\n");
      break;
    default:
      body = paragraphs(
        items.map((p) => p.zh),
        "",
      )
        .map((t) => `<p>${e(t)}</p>`)
        .join("\n");
  }
  const lang = page.site.lang === "zh" ? "zh-CN" : page.site.lang === "en" ? "en" : "zh-CN";
  const attributions = items.map((p) => p.attribution).filter((a): a is string => !!a);
  const nav =
    page.site.lang === "en"
      ? `<a href="/p/${page.site.id}/">Home</a> <a href="/p/${page.site.id}/archive.html">Archive</a> <a href="/p/${page.site.id}/about.html">About</a>`
      : `<a href="/p/${page.site.id}/">首页</a> <a href="/p/${page.site.id}/list.html">列表</a> <a href="/p/${page.site.id}/about.html">关于我们</a>`;
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${e(page.title)}</title></head>
<body>
<div id="header"><div class="logo">${e(page.site.name)}</div><div class="nav">${nav}</div></div>
<div id="main"><h1>${e(page.title)}</h1>
<div class="content">
${body}
</div></div>
<div id="sidebar"><h4>${page.site.lang === "en" ? "Popular" : "热门"}</h4><ul><li><a href="/p/${page.site.id}/">${e(page.site.name)}</a></li></ul></div>
<div id="footer"><p class="attribution">Sentences from Tatoeba (<a href="https://tatoeba.org">tatoeba.org</a>), licensed CC-BY 2.0 FR. ${attributions.map((a) => e(a.replace(/^CC-BY 2\.0 \(France\) Attribution: /, ""))).join("; ")}</p></div>
</body></html>
`;
}

/** Join sentences into paragraphs of about three. */
function paragraphs(sentences: string[], joiner: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i += 3) out.push(sentences.slice(i, i + 3).join(joiner));
  return out;
}
