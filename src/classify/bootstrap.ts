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
 * - `hard-unrelated`: Chinese and English sentences that are not translations of each other, interleaved.
 * Positives (bilingual), laid out the way bilingual pages appear in snippets:
 * - `ecec` / `cece`: 1–4 real sentence pairs interleaved (E C E C or C E C E), joined with spaces or " / ",
 *   truncated with ellipses; sometimes a date in front;
 * - `title`: a bilingual title ("English - 中文") over an interleaved snippet;
 * - `page`: sentence windows of the real bilingual page (English paragraph, then its Chinese translation);
 * in 70% of positives the query is the first pair (the page holds the query), else an unrelated pair.
 * Pure: the caller loads the sources; randomness comes from a seed, so the set is reproducible.
 */
import { seededRandom } from "../random.js";
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
}

export interface BootstrapOptions {
  seed?: number;
  /** The `when` of every example (default: now). */
  when?: string;
  /** Approximate number of composed examples of each kind (real serp records are all used). */
  perKind?: number;
}

export function buildBootstrapSet(inputs: BootstrapInputs, options: BootstrapOptions = {}): Annotation[] {
  const rand = seededRandom(options.seed ?? 20100823);
  const when = options.when ?? new Date().toISOString();
  const perKind = options.perKind ?? 120;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const chance = (p: number) => rand() < p;
  const out: Annotation[] = [];
  const add = (a: Omit<Annotation, "who" | "when">) => out.push({ ...a, who: "bootstrap", when });
  const par = inputs.parallel;
  if (par.length < 10) throw new Error("bootstrap: need at least 10 sentence pairs");
  const pairsFrom = (n: number) => Array.from({ length: n }, () => pick(par));
  const ids = (ps: readonly PairSource[]) => ps.map((p) => p.source).join(", ");
  const fakeUrl = (kind: string, i: number) => `https://bootstrap.invalid/${kind}/${i}`;

  /** Cut like an engine does (90–220 characters, then " ..."), but never before `keep` characters. */
  const truncate = (text: string, keep = 0): { text: string; truncated: boolean } => {
    const limit = Math.max(keep, int(90, 220));
    if (text.length <= limit) return { text, truncated: false };
    return { text: `${text.slice(0, limit).trimEnd()} ...`, truncated: true };
  };
  const datePrefix = () =>
    chance(0.25) ? (chance(0.5) ? `${int(2008, 2023)}年${int(1, 12)}月${int(1, 28)}日 - ` : `Mar ${int(1, 28)}, ${int(2008, 2023)} · `) : "";

  // ---- negatives from real result records
  inputs.serp.forEach((r) => {
    add({
      query: r.lang === "en" ? { en: r.query, zh: "" } : { en: "", zh: r.query },
      title: r.title,
      url: r.url,
      snippet: r.snippet,
      label: "monolingual",
      source: `serp ${r.source}`,
    });
  });

  // ---- monolingual pages holding one side of the query
  for (const lang of ["zh", "en"] as const) {
    for (let i = 0; i < perKind; i++) {
      const ps = pairsFrom(int(1, 4));
      const sep = lang === "zh" ? "" : " ";
      const { text } = truncate(ps.map((p) => p[lang]).join(sep));
      const title = truncate(pick(par)[lang]).text;
      add({
        query: { en: ps[0]!.en, zh: ps[0]!.zh },
        title,
        url: fakeUrl(`mono-${lang}`, i),
        snippet: datePrefix() + text,
        label: "monolingual",
        source: `composed mono-${lang}: ${lang === "zh" ? "Chinese" : "English"} sides of ${ids(ps)}`,
      });
    }
  }

  // ---- hard negatives: one language with terms of the other
  const zhSerp = inputs.serp.filter((r) => r.lang === "zh" && r.snippet.length > 20);
  const enSerp = inputs.serp.filter((r) => r.lang === "en" && r.snippet.length > 20);
  const englishTerms = enSerp
    .flatMap((r) => r.title.replace(/<[^>]+>/g, "").split(/\s+[-|–·]\s+|[,:()]/))
    .map((t) => t.trim())
    .filter((t) => /^[A-Za-z][\w .'&-]{1,25}$/.test(t));
  if (zhSerp.length && englishTerms.length) {
    for (let i = 0; i < perKind; i++) {
      const r = pick(zhSerp);
      const chars = Array.from(r.snippet.replace(/<[^>]+>/g, ""));
      const terms: string[] = [];
      for (let k = int(1, 3); k > 0; k--) {
        const at = int(0, chars.length);
        const term = pick(englishTerms);
        terms.push(term);
        chars.splice(at, 0, chance(0.5) ? ` ${term} ` : term);
      }
      add({
        query: { en: "", zh: r.query },
        title: r.title,
        url: r.url,
        snippet: chars.join(""),
        label: "monolingual",
        source: `composed hard-zh-terms: serp ${r.source} + English terms ${JSON.stringify(terms)} from English result titles`,
      });
    }
  }
  const chineseWords = par.flatMap((p) => p.zh.split(/[，。！？、\s,.!?]+/)).filter((w) => w.length >= 2 && w.length <= 4);
  if (enSerp.length) {
    for (let i = 0; i < perKind / 2; i++) {
      const r = pick(enSerp);
      const words = r.snippet.split(" ");
      const word = pick(chineseWords);
      words.splice(int(0, words.length), 0, chance(0.5) ? `(${word})` : word);
      add({
        query: { en: r.query, zh: "" },
        title: r.title,
        url: r.url,
        snippet: words.join(" "),
        label: "monolingual",
        source: `composed hard-en-terms: serp ${r.source} + Chinese word "${word}" from Tatoeba`,
      });
    }
  }
  const docs = inputs.zhDocs ?? [];
  for (let i = 0; i < Math.min(perKind, docs.length); i++) {
    const d = pick(docs);
    add({
      query: { en: "", zh: "" },
      title: d.title,
      url: fakeUrl("hard-zh-doc", i),
      snippet: truncate(d.text).text,
      label: "monolingual",
      source: `real hard-zh-doc: ${d.source}`,
    });
  }
  for (let i = 0; i < perKind; i++) {
    const n = int(1, 3);
    const zh = pairsFrom(n);
    const en = pairsFrom(n);
    const parts: string[] = [];
    const enFirst = chance(0.5);
    for (let k = 0; k < n; k++) parts.push(...(enFirst ? [en[k]!.en, zh[k]!.zh] : [zh[k]!.zh, en[k]!.en]));
    add({
      query: { en: zh[0]!.en, zh: zh[0]!.zh },
      title: truncate(pick(par).zh).text,
      url: fakeUrl("hard-unrelated", i),
      snippet: datePrefix() + truncate(parts.join(" ")).text,
      label: "monolingual",
      source: `composed hard-unrelated: Chinese of ${ids(zh)} with English of ${ids(en)}`,
    });
  }

  // ---- positives: interleaved sentence pairs
  const interleave = (ps: readonly PairSource[], enFirst: boolean) => {
    const sep = chance(0.3) ? " / " : " ";
    const parts = ps.map((p) => (enFirst ? `${p.en}${sep}${p.zh}` : `${p.zh}${sep}${p.en}`));
    return { text: parts.join(" "), firstPair: parts[0]!.length };
  };
  const positiveQuery = (ps: readonly PairSource[]) => {
    const q = chance(0.7) ? ps[0]! : pick(par);
    return { en: q.en, zh: q.zh };
  };
  for (const [kind, enFirst, count] of [
    ["ecec", true, 3 * perKind],
    ["cece", false, Math.round(1.5 * perKind)],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const ps = pairsFrom(int(1, 4));
      const laid = interleave(ps, enFirst);
      const { text, truncated } = truncate(laid.text, laid.firstPair);
      add({
        query: positiveQuery(ps),
        title: chance(0.5) ? truncate(pick(par).en).text : truncate(ps[0]!.zh).text,
        url: fakeUrl(kind, i),
        snippet: (chance(0.2) ? "... " : "") + datePrefix() + text,
        label: "bilingual",
        source: `composed ${kind}${truncated ? " (truncated)" : ""}: ${ids(ps)}`,
      });
    }
  }
  for (let i = 0; i < perKind; i++) {
    const t = pick(par);
    const ps = pairsFrom(int(1, 3));
    const sep = pick([" - ", " | ", " ", "_"]);
    add({
      query: positiveQuery([t, ...ps]),
      title: chance(0.5) ? `${t.en}${sep}${t.zh}` : `${t.zh}${sep}${t.en}`,
      url: fakeUrl("title", i),
      snippet: truncate(interleave(ps, chance(0.5)).text).text,
      label: "bilingual",
      source: `composed title: title ${t.source}; snippet ${ids(ps)}`,
    });
  }
  const page = inputs.page;
  const pageTitle = inputs.pageTitle ?? "";
  for (let i = 0; i + 1 < page.length; i++) {
    const window = page.slice(i, i + int(1, 2));
    // The page gives a paragraph, then its translation: keep a part of each, as a snippet would.
    const en = truncate(window.map((p) => p.en).join(" ")).text;
    const zh = window.map((p) => p.zh).join("");
    add({
      query: { en: window[0]!.en, zh: window[0]!.zh },
      title: pageTitle,
      url: fakeUrl("page", i),
      snippet: truncate(`${en} ${zh}`, en.length + 20).text,
      label: "bilingual",
      source: `composed page: ${ids(window)}`,
    });
  }
  return out;
}
