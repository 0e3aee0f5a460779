import { NotEnoughData } from "../errors.js";
/**
 * The bootstrap annotation set behind `models/default.json`, built honestly from real data because no
 * annotated real snippets exist yet. Every example records its source.
 *
 * Negatives (monolingual):
 * - `serp`: real result records (title + snippet) of real result pages, English or Chinese, with the
 *   page's real query on its side (the other side unknown, empty);
 * - `mono-zh` / `mono-en`: what a parallel query typically returns — a page in one language holding one
 *   side of the query: 1–4 real sentences of one language, the query being the pair of the first;
 * - `hard-zh-terms`: a real Chinese snippet with English names/terms (from real English result titles) inserted;
 * - `hard-en-terms`: a real English snippet with a Chinese word inserted;
 * - `hard-zh-doc`: real Chinese documentation paragraphs full of English terms (Nacos, Spring Cloud, …);
 * - `real serp-highlight`: a real result record whose title + snippet repeat what the engine highlighted, with that
 *   text as the query side (dictionary and shop pages repeat the query: many matches, one language);
 * - `hard-unrelated`: Chinese and English sentences that are not translations of each other, interleaved;
 * - `real page-mismatched`: snippets of the real bilingual pages of a development set whose two languages are not
 *   translations of each other (`mismatchedSnippets`: a unit beside the other-language unit half the page away);
 * - `real page-crossed`: the same with the second unit from a page of the next source folder (`crossedSnippets`).
 * Positives (bilingual), laid out the way bilingual pages appear in snippets:
 * - `ecec` / `cece`: 1–4 real sentence pairs interleaved (E C E C or C E C E), joined with spaces or " / ",
 *   truncated with ellipses; sometimes a date in front;
 * - `title`: a bilingual title ("English - 中文") over an interleaved snippet;
 * - `page`: sentence windows of the real bilingual page (English paragraph, then its Chinese translation);
 * - `real page-snippet`: engine-like snippets of the real bilingual pages of a development set (`pageSnippets`);
 * the two `real page-…` kinds take at most `perSource` snippets of each source folder, spread evenly over its pages;
 * in 70% of positives the query is the first pair (the page holds the query), else an unrelated pair.
 * Pure: the caller loads the sources; randomness comes from a seed, so the set is reproducible.
 */
import { type ParallelText, parallelText } from "../language-pair.js";
import { seededRandom } from "../random.js";
import { type BilingualPageUnits, crossedSnippets, mismatchedSnippets, type PageSnippet, pageSnippets } from "./page-snippets.js";
import type { Annotation } from "./types.js";

/** A real result record. */
export interface SerpSource {
  lang: "en" | "zh";
  query: string;
  title: string;
  snippet: string;
  url: string;
  source: string;
}

/** A real sentence pair (Tatoeba, a bilingual page). */
export interface PairSource {
  en: string;
  zh: string;
  source: string;
}

export interface BootstrapInputs {
  serp: readonly SerpSource[];
  /** Sentence pairs held out from lexicon learning. */
  parallel: readonly PairSource[];
  /** Real Chinese paragraphs with English names and terms (documentation), with their page titles. */
  zhDocs?: ReadonlyArray<{ title: string; text: string; source: string }>;
  /** Aligned sentence pairs of a real bilingual page, and its title. */
  page: readonly PairSource[];
  pageTitle?: string;
  /** Real bilingual pages with their aligned units (held-out pages already left out by the caller). */
  realPages?: readonly BilingualPageUnits[];
}

export interface BootstrapOptions {
  seed?: number;
  /** The `when` of every example (default: now). */
  when?: string;
  /** Approximate number of composed examples of each kind (real serp records are all used). */
  perKind?: number;
  /** Snippets of each kind taken from one source folder of `realPages` (default perKind / 2). */
  perSource?: number;
}

export function buildBootstrapSet(inputs: BootstrapInputs, options: BootstrapOptions = {}): Annotation[] {
  if (inputs.parallel.length < 10) throw new NotEnoughData("bootstrap: need at least 10 sentence pairs");
  const c = new Composer(inputs.parallel, options);
  // The order is part of the set: every kind draws from the one seeded random sequence in turn.
  serpNegatives(c, inputs.serp);
  monolingualPages(c);
  hardZhTerms(c, inputs.serp);
  hardEnTerms(c, inputs.serp);
  hardZhDocs(c, inputs.zhDocs ?? []);
  hardUnrelated(c);
  interleavedPositives(c);
  titlePositives(c);
  pagePositives(c, inputs.page, inputs.pageTitle ?? "");
  pageMismatched(c, inputs.page, inputs.pageTitle ?? "");
  realPageSnippets(c, inputs.realPages ?? [], options.perSource ?? Math.round(c.perKind / 2));
  highlightNegatives(c, inputs.serp);
  return c.out;
}

const ids = (ps: readonly PairSource[]) => ps.map((p) => p.source).join(", ");
const fakeUrl = (kind: string, i: number) => `https://bootstrap.invalid/${kind}/${i}`;

/** The set being built, with the seeded random draws every kind of example composes from. */
class Composer {
  readonly out: Annotation[] = [];
  readonly perKind: number;
  private readonly rand: () => number;
  private readonly when: string;

  constructor(
    readonly par: readonly PairSource[],
    options: BootstrapOptions,
  ) {
    this.rand = seededRandom(options.seed ?? 20100823);
    this.when = options.when ?? new Date().toISOString();
    this.perKind = options.perKind ?? 120;
  }

  add(a: Omit<Annotation, "who" | "when">): void {
    this.out.push({ ...a, who: "bootstrap", when: this.when });
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)]!;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.rand() < p;
  }
  pairsFrom(n: number): PairSource[] {
    return Array.from({ length: n }, () => this.pick(this.par));
  }

  /** Cut like an engine does (90–220 characters, then " ..."), but never before `keep` characters. */
  truncate(text: string, keep = 0): { text: string; truncated: boolean } {
    const limit = Math.max(keep, this.int(90, 220));
    if (text.length <= limit) return { text, truncated: false };
    return { text: `${text.slice(0, limit).trimEnd()} ...`, truncated: true };
  }
  datePrefix(): string {
    if (!this.chance(0.25)) return "";
    if (this.chance(0.5)) return `${this.int(2008, 2023)}年${this.int(1, 12)}月${this.int(1, 28)}日 - `;
    return `Mar ${this.int(1, 28)}, ${this.int(2008, 2023)} · `;
  }

  /** Sentence pairs laid out side by side (E C E C or C E C E), and the length of the first. */
  interleave(ps: readonly PairSource[], enFirst: boolean): { text: string; firstPair: number } {
    const sep = this.chance(0.3) ? " / " : " ";
    const parts = ps.map((p) => (enFirst ? `${p.en}${sep}${p.zh}` : `${p.zh}${sep}${p.en}`));
    return { text: parts.join(" "), firstPair: parts[0]!.length };
  }
  /** In 70% of positives the query is the first pair (the page holds the query), else an unrelated pair. */
  positiveQuery(ps: readonly PairSource[]): ParallelText {
    const q = this.chance(0.7) ? ps[0]! : this.pick(this.par);
    return parallelText(q.en, q.zh);
  }
}

/** Negatives from real result records. */
function serpNegatives(c: Composer, serp: readonly SerpSource[]): void {
  serp.forEach((r) => {
    c.add({
      query: r.lang === "en" ? parallelText(r.query, "") : parallelText("", r.query),
      title: r.title,
      url: r.url,
      snippet: r.snippet,
      label: "monolingual",
      source: `serp ${r.source}`,
    });
  });
}

/** Monolingual pages holding one side of the query. */
function monolingualPages(c: Composer): void {
  for (const lang of ["zh", "en"] as const) {
    for (let i = 0; i < c.perKind; i++) {
      const ps = c.pairsFrom(c.int(1, 4));
      const sep = lang === "zh" ? "" : " ";
      const { text } = c.truncate(ps.map((p) => p[lang]).join(sep));
      const title = c.truncate(c.pick(c.par)[lang]).text;
      c.add({
        query: parallelText(ps[0]!.en, ps[0]!.zh),
        title,
        url: fakeUrl(`mono-${lang}`, i),
        snippet: c.datePrefix() + text,
        label: "monolingual",
        source: `composed mono-${lang}: ${lang === "zh" ? "Chinese" : "English"} sides of ${ids(ps)}`,
      });
    }
  }
}

const snippetsIn = (serp: readonly SerpSource[], lang: "en" | "zh") => serp.filter((r) => r.lang === lang && r.snippet.length > 20);

/** Hard negatives: real Chinese snippets with English terms (from English result titles) inserted. */
function hardZhTerms(c: Composer, serp: readonly SerpSource[]): void {
  const zhSerp = snippetsIn(serp, "zh");
  const englishTerms = snippetsIn(serp, "en")
    .flatMap((r) => r.title.replace(/<[^>]+>/g, "").split(/\s+[-|–·]\s+|[,:()]/))
    .map((t) => t.trim())
    .filter((t) => /^[A-Za-z][\w .'&-]{1,25}$/.test(t));
  if (!zhSerp.length || !englishTerms.length) return;
  for (let i = 0; i < c.perKind; i++) {
    const r = c.pick(zhSerp);
    const chars = Array.from(r.snippet.replace(/<[^>]+>/g, ""));
    const terms: string[] = [];
    for (let k = c.int(1, 3); k > 0; k--) {
      const at = c.int(0, chars.length);
      const term = c.pick(englishTerms);
      terms.push(term);
      chars.splice(at, 0, c.chance(0.5) ? ` ${term} ` : term);
    }
    c.add({
      query: parallelText("", r.query),
      title: r.title,
      url: r.url,
      snippet: chars.join(""),
      label: "monolingual",
      source: `composed hard-zh-terms: serp ${r.source} + English terms ${JSON.stringify(terms)} from English result titles`,
    });
  }
}

/** Hard negatives: real English snippets with a Chinese word inserted. */
function hardEnTerms(c: Composer, serp: readonly SerpSource[]): void {
  const enSerp = snippetsIn(serp, "en");
  const chineseWords = c.par.flatMap((p) => p.zh.split(/[，。！？、\s,.!?]+/)).filter((w) => w.length >= 2 && w.length <= 4);
  if (!enSerp.length) return;
  for (let i = 0; i < c.perKind / 2; i++) {
    const r = c.pick(enSerp);
    const words = r.snippet.split(" ");
    const word = c.pick(chineseWords);
    words.splice(c.int(0, words.length), 0, c.chance(0.5) ? `(${word})` : word);
    c.add({
      query: parallelText(r.query, ""),
      title: r.title,
      url: r.url,
      snippet: words.join(" "),
      label: "monolingual",
      source: `composed hard-en-terms: serp ${r.source} + Chinese word "${word}" from Tatoeba`,
    });
  }
}

/** Hard negatives: real Chinese documentation paragraphs full of English terms. */
function hardZhDocs(c: Composer, docs: NonNullable<BootstrapInputs["zhDocs"]>): void {
  for (let i = 0; i < Math.min(c.perKind, docs.length); i++) {
    const d = c.pick(docs);
    c.add({
      query: parallelText("", ""),
      title: d.title,
      url: fakeUrl("hard-zh-doc", i),
      snippet: c.truncate(d.text).text,
      label: "monolingual",
      source: `real hard-zh-doc: ${d.source}`,
    });
  }
}

/** Hard negatives: Chinese and English sentences that are not translations of each other, interleaved. */
function hardUnrelated(c: Composer): void {
  for (let i = 0; i < c.perKind; i++) {
    const n = c.int(1, 3);
    const zh = c.pairsFrom(n);
    const en = c.pairsFrom(n);
    const parts: string[] = [];
    const enFirst = c.chance(0.5);
    for (let k = 0; k < n; k++) parts.push(...(enFirst ? [en[k]!.en, zh[k]!.zh] : [zh[k]!.zh, en[k]!.en]));
    c.add({
      query: parallelText(zh[0]!.en, zh[0]!.zh),
      title: c.truncate(c.pick(c.par).zh).text,
      url: fakeUrl("hard-unrelated", i),
      snippet: c.datePrefix() + c.truncate(parts.join(" ")).text,
      label: "monolingual",
      source: `composed hard-unrelated: Chinese of ${ids(zh)} with English of ${ids(en)}`,
    });
  }
}

/** Positives: 1–4 real sentence pairs interleaved, truncated, sometimes a date in front. */
function interleavedPositives(c: Composer): void {
  for (const [kind, enFirst, count] of [
    ["ecec", true, 3 * c.perKind],
    ["cece", false, Math.round(1.5 * c.perKind)],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const ps = c.pairsFrom(c.int(1, 4));
      const laid = c.interleave(ps, enFirst);
      const { text, truncated } = c.truncate(laid.text, laid.firstPair);
      c.add({
        query: c.positiveQuery(ps),
        title: c.chance(0.5) ? c.truncate(c.pick(c.par).en).text : c.truncate(ps[0]!.zh).text,
        url: fakeUrl(kind, i),
        snippet: (c.chance(0.2) ? "... " : "") + c.datePrefix() + text,
        label: "bilingual",
        source: `composed ${kind}${truncated ? " (truncated)" : ""}: ${ids(ps)}`,
      });
    }
  }
}

/** Positives: a bilingual title ("English - 中文") over an interleaved snippet. */
function titlePositives(c: Composer): void {
  for (let i = 0; i < c.perKind; i++) {
    const t = c.pick(c.par);
    const ps = c.pairsFrom(c.int(1, 3));
    const sep = c.pick([" - ", " | ", " ", "_"]);
    c.add({
      query: c.positiveQuery([t, ...ps]),
      title: c.chance(0.5) ? `${t.en}${sep}${t.zh}` : `${t.zh}${sep}${t.en}`,
      url: fakeUrl("title", i),
      snippet: c.truncate(c.interleave(ps, c.chance(0.5)).text).text,
      label: "bilingual",
      source: `composed title: title ${t.source}; snippet ${ids(ps)}`,
    });
  }
}

/** Positives: sentence windows of the real bilingual page (English paragraph, then its Chinese translation). */
function pagePositives(c: Composer, page: readonly PairSource[], pageTitle: string): void {
  for (let i = 0; i + 1 < page.length; i++) {
    const window = page.slice(i, i + c.int(1, 2));
    // The page gives a paragraph, then its translation: keep a part of each, as a snippet would — of the
    // translation at least its first 60 characters, else the snippet would hold no translation evidence.
    const en = c.truncate(window.map((p) => p.en).join(" ")).text;
    const zh = window.map((p) => p.zh).join("");
    c.add({
      query: parallelText(window[0]!.en, window[0]!.zh),
      title: pageTitle,
      url: fakeUrl("page", i),
      snippet: c.truncate(`${en} ${zh}`, en.length + 1 + Math.min(zh.length, 60)).text,
      label: "bilingual",
      source: `composed page: ${ids(window)}`,
    });
  }
}

/**
 * Hard negatives from the same page: its mismatched snippets (`mismatchedSnippets`: a sentence beside the translation
 * of another one half the page away, and the translations that follow it). One text, one topic, one layout — only
 * the translation is missing. Seeded by the snippet maker, so the random sequence of the other kinds is unchanged.
 */
function pageMismatched(c: Composer, page: readonly PairSource[], pageTitle: string): void {
  if (page.length === 0) return;
  // The pairs' sources name the page file first ("animal_farm….html paragraph 3, sentence 1").
  const units: BilingualPageUnits = { source: page[0]!.source.split(" paragraph ")[0]!, title: pageTitle, pairs: page, enFirst: true };
  for (const { source, ...input } of mismatchedSnippets(units))
    c.add({ ...input, label: "monolingual", source: `composed page-mismatched: ${source}` });
}

/** `n` items spread evenly over `xs` (all of them when there are no more than `n`). */
function spread<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, k) => xs[Math.floor((k * xs.length) / n)]!);
}

/** The source folder of a page ("xlhhai_translations/rivers" → "xlhhai_translations"): the unit of leave-one-source-out. */
export const pageSourceFolder = (page: string) => page.split("/")[0]!;

/**
 * Positives and hard negatives from real bilingual pages: engine-like snippets of each page (`pageSnippets`) and
 * mismatched ones (`mismatchedSnippets`), at most `perSource` of each kind per source folder. Deterministic (the
 * snippet makers are seeded), so a source's snippets here are the ones `evaluateBySource` leaves out and tests on.
 */
function realPageSnippets(c: Composer, pages: readonly BilingualPageUnits[], perSource: number): void {
  const folders = [...new Set(pages.map((p) => pageSourceFolder(p.source)))].sort();
  const of = (folder: string) => pages.filter((p) => pageSourceFolder(p.source) === folder);
  folders.forEach((folder, f) => {
    const mine = of(folder);
    // Crossed with the next folder's pages, page k with page k (round robin): another text, the same layouts.
    const next = folders.length > 1 ? of(folders[(f + 1) % folders.length]!) : [];
    const crossed = (p: BilingualPageUnits, k: number) => (next.length ? crossedSnippets(p, next[k % next.length]!) : []);
    for (const [kind, label, make] of [
      ["page-snippet", "bilingual", (p: BilingualPageUnits) => pageSnippets(p)],
      ["page-mismatched", "monolingual", (p: BilingualPageUnits) => mismatchedSnippets(p)],
      ["page-neighbour", "monolingual", (p: BilingualPageUnits) => mismatchedSnippets(p, { shift: 1, seed: 20240604 })],
      ["page-crossed", "monolingual", crossed],
    ] as const) {
      const snippets: PageSnippet[] = spread(mine.flatMap(make), perSource);
      for (const { source, ...input } of snippets) c.add({ ...input, label, source: `real ${kind}: ${source}` });
    }
  });
}

const HIGHLIGHT = /<(em|b|strong)>([^<]{2,40})<\/\1>/gi;

/** The text an engine highlighted most often in a record, when it is highlighted at least twice. */
export function repeatedHighlight(html: string): string | undefined {
  const counts = new Map<string, { text: string; n: number }>();
  for (const m of html.matchAll(HIGHLIGHT)) {
    const text = m[2]!.trim();
    const key = text.toLowerCase();
    const c = counts.get(key) ?? { text, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  const best = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  return best && best.n >= 2 ? best.text : undefined;
}

/** Hard negatives: real records that repeat their highlighted query side (queryFrequency high, one language). */
function highlightNegatives(c: Composer, serp: readonly SerpSource[]): void {
  for (const r of serp) {
    const q = repeatedHighlight(`${r.title} ${r.snippet}`);
    if (!q) continue;
    c.add({
      query: r.lang === "en" ? parallelText(q, "") : parallelText("", q),
      title: r.title,
      url: r.url,
      snippet: r.snippet,
      label: "monolingual",
      source: `real serp-highlight: serp ${r.source}, query "${q}" (its most repeated highlight)`,
    });
  }
}
