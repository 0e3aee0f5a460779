/**
 * Test and benchmark helper: a bilingual website built from real parallel sentences (Tatoeba), shaped like
 * the sites kit-ng2007 and liu2014 mined — a template with navigation, breadcrumbs, related-page links and
 * a footer, content pages in sections, some pages in one language only, and the two language versions named
 * by one of kit-ng2007's URL schemes (Table 3) or by no scheme at all.
 *
 * Deterministic (seeded). Each translated page pair carries the same sentences in the two languages with
 * the same block structure, lightly perturbed the way translated pages are (a merged paragraph, a different
 * emphasis tag, a related link missing); links mirror each other across the languages.
 */
import { readFileSync } from "node:fs";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { escapeHtml } from "../../src/html/index.js";
import { seededRandom } from "../../src/random.js";

export interface SentencePair {
  en: string;
  zh: string;
}

/** Where a page lives: its section folder name, its slug and its number within the site. */
export interface PageSlot {
  section: string;
  slug: string;
  n: number;
  /** Home page / section index page. */
  kind: "home" | "section" | "content";
}

/** A URL scheme: the path (relative to the site root) of a page in each language. */
export type UrlScheme = (slot: PageSlot, lang: "en" | "zh") => string;

/** kit-ng2007 Table 3 schemes (and a site without one). */
export const SCHEMES: Readonly<Record<string, UrlScheme>> = {
  // path en : tc
  "en:tc": (s, l) => `${l === "en" ? "en" : "tc"}/${rest(s, "html")}`,
  // path eng : chi
  "eng:chi": (s, l) => `${l === "en" ? "eng" : "chi"}/${rest(s, "htm")}`,
  // path english : tc_chi
  "english:tc_chi": (s, l) => `${l === "en" ? "english" : "tc_chi"}/${rest(s, "html")}`,
  // path (null) : chinese
  "(null):chinese": (s, l) => `${l === "en" ? "" : "chinese/"}${rest(s, "html")}`,
  // file (null) : c   (home.htm ~ home_c.htm)
  "(null):c": (s, l) => `${folder(s)}${s.slug}${l === "en" ? "" : "_c"}.htm`,
  // file e : c with numbered names (06e.htm ~ 06c.htm): only generalisation finds it
  "e:c": (s, l) =>
    s.kind === "content"
      ? `${folder(s)}${String(s.n).padStart(2, "0")}${l === "en" ? "e" : "c"}.htm`
      : `${folder(s)}index_${l === "en" ? "e" : "c"}.htm`,
  // no pattern: Chinese pages under opaque ids
  none: (s, l) => (l === "en" ? `en/${rest(s, "html")}` : `zh/p${hashId(s)}.html`),
};

function folder(s: PageSlot): string {
  return s.kind === "home" ? "" : `${s.section}/`;
}

function rest(s: PageSlot, ext: string): string {
  if (s.kind === "home") return `index.${ext}`;
  if (s.kind === "section") return `${s.section}/index.${ext}`;
  return `${s.section}/${s.slug}.${ext}`;
}

function hashId(s: PageSlot): string {
  let h = 2166136261;
  for (const ch of `${s.section}/${s.slug}/${s.kind}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return ((h >>> 0) % 1_000_000).toString().padStart(6, "0");
}

export interface SiteSpec {
  seed: number;
  scheme: UrlScheme;
  /** Translated content page pairs. */
  pairs: number;
  /** Content pages in one language only. */
  onlyEn?: number;
  onlyZh?: number;
  /** Of the translated pairs, how many have their Chinese page named by `none` instead of the scheme. */
  unpatterned?: number;
  /**
   * Of the unpatterned pairs, how many are orphans: no page links to them and they link to no page (a bare
   * page without the template) — the sparse-link case of small sites, for mechanism tests.
   */
  orphans?: number;
  sections?: number;
  sentencesPerPage?: [number, number];
  sentences: readonly SentencePair[];
}

export interface GeneratedSite {
  /** Relative path → HTML. */
  files: Map<string, string>;
  /** The translated pairs (home, section indexes, content), as relative paths. */
  gold: Array<{ en: string; zh: string }>;
}

const SECTIONS: ReadonlyArray<[string, string, string]> = [
  ["about", "About Us", "关于我们"],
  ["news", "Press Releases", "新闻公报"],
  ["services", "Services", "服务"],
  ["publications", "Publications", "刊物"],
  ["notices", "Notices", "通告"],
  ["forms", "Forms", "表格"],
  ["faq", "Frequently Asked Questions", "常见问题"],
  ["links", "Useful Links", "有用链接"],
];

interface Page {
  slot: PageSlot;
  lang: "en" | "zh";
  path: string;
  title: string;
  blocks: Block[];
  related: number[]; // indices into the same-language page list
  partner: number | null;
  orphan: boolean;
}

type Block = { kind: "p"; sentences: number[] } | { kind: "ul"; sentences: number[] } | { kind: "table"; sentences: number[] };

/** Read `English<TAB>Chinese<TAB>attribution` lines. */
export function readSentencePairs(file: string): SentencePair[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.includes("\t"))
    .map((l) => {
      const [en, zh] = l.split("\t");
      return { en: en!, zh: zh! };
    });
}

export function generateSite(spec: SiteSpec): GeneratedSite {
  const rnd = seededRandom(spec.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const nSections = Math.min(spec.sections ?? 5, SECTIONS.length);
  const sections = SECTIONS.slice(0, nSections);
  const [minS, maxS] = spec.sentencesPerPage ?? [6, 18];
  const sent = spec.sentences;
  let cursor = Math.floor(rnd() * sent.length);
  const takeSentences = (k: number) => Array.from({ length: k }, () => cursor++ % sent.length);

  const makeBlocks = (): Block[] => {
    const ids = takeSentences(minS + Math.floor(rnd() * (maxS - minS + 1)));
    const blocks: Block[] = [];
    for (let i = 0; i < ids.length; ) {
      const r = rnd();
      const kind: Block["kind"] = r < 0.7 ? "p" : r < 0.88 ? "ul" : "table";
      const len = kind === "p" ? 1 + Math.floor(rnd() * 3) : 2 + Math.floor(rnd() * 3);
      blocks.push({ kind, sentences: ids.slice(i, i + len) });
      i += len;
    }
    return blocks;
  };

  // Slots: home, section indexes, translated content, one-language content.
  interface Spec {
    slot: PageSlot;
    langs: Array<"en" | "zh">;
    unpatterned: boolean;
    orphan: boolean;
  }
  const specs: Spec[] = [
    { slot: { section: "", slug: "index", n: 0, kind: "home" }, langs: ["en", "zh"], unpatterned: false, orphan: false },
  ];
  for (const [sec] of sections)
    specs.push({ slot: { section: sec, slug: "index", n: 0, kind: "section" }, langs: ["en", "zh"], unpatterned: false, orphan: false });
  const total = spec.pairs + (spec.onlyEn ?? 0) + (spec.onlyZh ?? 0);
  const unpatternedFrom = spec.pairs - (spec.unpatterned ?? 0);
  const orphansFrom = spec.pairs - (spec.orphans ?? 0);
  for (let i = 0; i < total; i++) {
    const [sec] = sections[i % nSections]!;
    const n = Math.floor(i / nSections) + 1;
    const slot: PageSlot = { section: sec, slug: `${sec}-${String(n).padStart(3, "0")}`, n, kind: "content" };
    const langs: Array<"en" | "zh"> = i < spec.pairs ? ["en", "zh"] : i < spec.pairs + (spec.onlyEn ?? 0) ? ["en"] : ["zh"];
    specs.push({ slot, langs, unpatterned: i >= unpatternedFrom && i < spec.pairs, orphan: i >= orphansFrom && i < spec.pairs });
  }

  const pages: Record<"en" | "zh", Page[]> = { en: [], zh: [] };
  const gold: GeneratedSite["gold"] = [];
  for (const s of specs) {
    const blocks = s.slot.kind === "content" ? makeBlocks() : [{ kind: "p" as const, sentences: takeSentences(3) }];
    const made: Partial<Record<"en" | "zh", number>> = {};
    for (const lang of s.langs) {
      const path = s.unpatterned && lang === "zh" ? SCHEMES.none!(s.slot, "zh") : spec.scheme(s.slot, lang);
      const title =
        s.slot.kind === "home"
          ? lang === "en"
            ? "Welcome"
            : "欢迎"
          : s.slot.kind === "section"
            ? sectionTitle(s.slot.section, lang)
            : (lang === "en" ? sent[blocks[0]!.sentences[0]!]!.en : sent[blocks[0]!.sentences[0]!]!.zh).replace(/[.。!?！？]$/u, "");
      // Translations are close, not identical, in structure: sometimes two paragraphs become one.
      const own = lang === "zh" ? perturb(blocks, rnd) : blocks;
      made[lang] = pages[lang].length;
      pages[lang].push({ slot: s.slot, lang, path, title, blocks: own, related: [], partner: null, orphan: s.orphan });
    }
    if (made.en !== undefined && made.zh !== undefined) {
      pages.en[made.en]!.partner = made.zh;
      pages.zh[made.zh]!.partner = made.en;
      gold.push({ en: pages.en[made.en]!.path, zh: pages.zh[made.zh]!.path });
    }
  }

  // Related links: chosen on the English side and mirrored on the Chinese side (one may go missing);
  // pages without a partner get their own.
  const contentIdx = (lang: "en" | "zh") =>
    pages[lang].map((p, i) => (p.slot.kind === "content" && !p.orphan ? i : -1)).filter((i) => i >= 0);
  const enContent = contentIdx("en");
  const zhContent = contentIdx("zh");
  for (const p of pages.en) {
    if (p.slot.kind !== "content" || p.orphan) continue;
    const k = 3 + Math.floor(rnd() * 4);
    const rel = new Set<number>();
    while (rel.size < Math.min(k, enContent.length - 1)) {
      const q = pick(enContent);
      if (pages.en[q] !== p) rel.add(q);
    }
    p.related = [...rel];
    if (p.partner !== null) {
      const zp = pages.zh[p.partner]!;
      zp.related = p.related.map((q) => pages.en[q]!.partner).filter((q): q is number => q !== null && rnd() > 0.1);
    }
  }
  for (const p of pages.zh) {
    if (p.slot.kind !== "content" || p.partner !== null || p.orphan) continue;
    const rel = new Set<number>();
    while (rel.size < Math.min(4, zhContent.length - 1)) {
      const q = pick(zhContent);
      if (pages.zh[q] !== p) rel.add(q);
    }
    p.related = [...rel];
  }

  const files = new Map<string, string>();
  for (const lang of ["en", "zh"] as const) {
    for (const p of pages[lang]) files.set(p.path, renderPage(p, pages, sections, sent));
  }
  return { files, gold };
}

/** Write a generated site to `dir` (files + `gold.json`). */
export function writeSite(site: GeneratedSite, dir: string): void {
  for (const [rel, html] of site.files) {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
  }
  writeFileSync(join(dir, "gold.json"), `${JSON.stringify(site.gold, null, 1)}\n`);
}

function sectionTitle(section: string, lang: "en" | "zh"): string {
  const s = SECTIONS.find(([k]) => k === section)!;
  return lang === "en" ? s[1] : s[2];
}

function perturb(blocks: Block[], rnd: () => number): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const last = out[out.length - 1];
    if (b.kind === "p" && last?.kind === "p" && rnd() < 0.12) last.sentences = last.sentences.concat(b.sentences);
    else out.push({ kind: b.kind, sentences: [...b.sentences] } as Block);
  }
  return out;
}

function renderPage(
  p: Page,
  pages: Record<"en" | "zh", Page[]>,
  sections: ReadonlyArray<[string, string, string]>,
  sent: readonly SentencePair[],
): string {
  const lang = p.lang;
  const same = pages[lang];
  const other = pages[lang === "en" ? "zh" : "en"];
  const href = (target: string) => {
    const from = posix.dirname(p.path);
    const rel = posix.relative(from === "." ? "" : from, target);
    return rel === "" ? posix.basename(target) : rel;
  };
  const home = same.find((q) => q.slot.kind === "home")!;
  const otherHome = other.find((q) => q.slot.kind === "home")!;
  const text = (i: number) => escapeHtml(lang === "en" ? sent[i]!.en : sent[i]!.zh);
  const siteName = lang === "en" ? "Civic Affairs Department" : "民政事务署";
  const nav = sections
    .map(([sec]) => {
      const idx = same.find((q) => q.slot.kind === "section" && q.slot.section === sec)!;
      return `<li><a href="${href(idx.path)}">${escapeHtml(idx.title)}</a></li>`;
    })
    .join("\n");
  const emph = lang === "en" ? "b" : "strong";
  const body = p.blocks
    .map((b, bi) => {
      if (b.kind === "p") {
        const s = b.sentences.map(text).join(lang === "en" ? " " : "");
        return bi === 0 ? `<p><${emph}>${s}</${emph}></p>` : `<p>${s}</p>`;
      }
      if (b.kind === "ul") return `<ul>\n${b.sentences.map((i) => `<li>${text(i)}</li>`).join("\n")}\n</ul>`;
      return `<table class="data">\n${b.sentences.map((i, k) => `<tr><td>${k + 1}</td><td>${text(i)}</td></tr>`).join("\n")}\n</table>`;
    })
    .join("\n");
  const sectionIdx = same.find((q) => q.slot.kind === "section" && q.slot.section === p.slot.section);
  const crumb =
    p.slot.kind === "home"
      ? ""
      : `<div class="crumb"><a href="${href(home.path)}">${lang === "en" ? "Home" : "首页"}</a> &gt; ${
          sectionIdx && sectionIdx !== p ? `<a href="${href(sectionIdx.path)}">${escapeHtml(sectionIdx.title)}</a> &gt; ` : ""
        }${escapeHtml(p.title)}</div>`;
  // Section indexes list their pages; the home page lists the latest pages.
  const listing =
    p.slot.kind === "section"
      ? same.filter((q) => q.slot.kind === "content" && q.slot.section === p.slot.section && !q.orphan)
      : p.slot.kind === "home"
        ? same.filter((q) => q.slot.kind === "content" && !q.orphan).slice(0, 8)
        : [];
  const list = listing.length
    ? `<ul class="listing">\n${listing.map((q) => `<li><a href="${href(q.path)}">${escapeHtml(q.title)}</a></li>`).join("\n")}\n</ul>`
    : "";
  const related = p.related.length
    ? `<h3>${lang === "en" ? "Related pages" : "相关网页"}</h3>\n<ul>\n${p.related
        .map((q) => `<li><a href="${href(same[q]!.path)}">${escapeHtml(same[q]!.title)}</a></li>`)
        .join("\n")}\n</ul>`
    : "";
  if (p.orphan) {
    return `<!DOCTYPE html>
<html lang="${lang === "en" ? "en" : "zh-HK"}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(p.title)}</title>
</head>
<body>
<h1>${escapeHtml(p.title)}</h1>
${body}
</body>
</html>
`;
  }
  return `<!DOCTYPE html>
<html lang="${lang === "en" ? "en" : "zh-HK"}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(p.title)} - ${siteName}</title>
<link rel="stylesheet" href="${href("css/style.css")}">
</head>
<body>
<div id="header"><a href="${href(home.path)}"><img src="${href("img/logo.gif")}" alt="${siteName}"></a>
<span class="lang"><a href="${href(otherHome.path)}">${lang === "en" ? "中文" : "English"}</a></span></div>
<table id="layout"><tr>
<td id="nav"><ul>
${nav}
</ul></td>
<td id="main">
${crumb}
<h1>${escapeHtml(p.title)}</h1>
${body}
${list}
</td>
<td id="side">
${related}
</td>
</tr></table>
<div id="footer"><a href="${href(home.path)}">${lang === "en" ? "Home" : "首页"}</a> | <span>${
    lang === "en" ? "© 2007 Civic Affairs Department. All rights reserved." : "© 2007 民政事务署 版权所有"
  }</span></div>
</body>
</html>
`;
}
