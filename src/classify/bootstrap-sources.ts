/**
 * Readers for the real data the bootstrap set is built from (`../shared/data`): archived result pages'
 * expected records, a Tatoeba-style parallel file, and a bilingual page with paragraph + translation.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { inputError, UserError } from "../errors.js";
import { isHeldOut } from "../eval/index.js";
import { parseDocument } from "../html/index.js";
import { EN_ZH, langShares, parseParallelTsv } from "../text/index.js";
import type { PairSource, SerpSource } from "./bootstrap.js";
import type { BilingualPageUnits } from "./page-snippets.js";
import { LETTERS_PER_HAN } from "./translation-evidence.js";

function filesUnder(dir: string, suffix: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (err) {
    throw new UserError(`${dir}: cannot list (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const out: string[] = [];
  for (const e of entries.sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, suffix));
    else if (e.endsWith(suffix)) out.push(p);
  }
  return out;
}

/** Latin-1 letters in a Chinese engine's query: the page was decoded with the wrong charset (mojibake). */
const MOJIBAKE_QUERY = /[\u00c0-\u00ff]{2}/;
/**
 * UTF-8 read as GBK: each 3-byte character turns into a rare lead character (氓 忙 莽 猫 茅 盲 茂 for
 * bytes E5–EF) followed by one of U+8000–U+80FF. Two such pairs in a record mark it as mojibake.
 */
const MOJIBAKE_PAIR = /[氓忙莽猫茅盲茂][\u8000-\u80ff]/g;

export function isMojibake(text: string): boolean {
  return (text.match(MOJIBAKE_PAIR)?.length ?? 0) >= 2;
}

/**
 * The expected records (`*.expected.json`: `{query, results: [{rank, title, url, snippet}]}`) under `dir`,
 * with a snippet, as English or Chinese by their letters. Mojibake (pages decoded with the wrong
 * charset by the archive) is skipped: it is neither language.
 */
export function readSerpRecords(dir: string): SerpSource[] {
  const out: SerpSource[] = [];
  for (const file of filesUnder(dir, ".expected.json")) {
    let page: { query?: unknown; results?: unknown };
    try {
      page = JSON.parse(readFileSync(file, "utf8")) as typeof page;
    } catch {
      throw inputError({ file }, "not valid JSON");
    }
    const raw = typeof page.query === "string" ? page.query : "";
    // A garbled query is unknown; the page's clean records still count.
    const query = MOJIBAKE_QUERY.test(raw) || isMojibake(raw) ? "" : raw;
    if (!Array.isArray(page.results)) continue;
    for (const r of page.results as Array<Record<string, unknown>>) {
      const snippet = typeof r.snippet === "string" ? r.snippet : "";
      if (!snippet.trim()) continue;
      const title = typeof r.title === "string" ? r.title : "";
      if (isMojibake(title + snippet)) continue;
      const shares = langShares(`${query} ${title} ${snippet}`, EN_ZH);
      out.push({
        lang: (shares.zh ?? 0) > 0.5 ? "zh" : "en",
        query,
        title,
        snippet,
        url: typeof r.url === "string" ? r.url : "",
        source: `${relative(join(dir, ".."), file)}#rank${String(r.rank ?? "?")}`,
      });
    }
  }
  return out;
}

/** Lines n, 2n, 3n, … (1-based) of a parallel file: the pairs held out from `bitext lexicon learn --hold-out n`. */
export function readHeldOutPairs(file: string, every: number): PairSource[] {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const out: PairSource[] = [];
  for (let i = every - 1; i < lines.length; i += every) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const [p] = parseParallelTsv(file, line);
    if (!p) continue;
    const ids = /tatoeba\.org (#\d+).*?& (#\d+)/.exec(p.attribution ?? "");
    out.push({ en: p.a, zh: p.b, source: `${basename(file)}:${i + 1}${ids ? ` (tatoeba.org ${ids[1]} & ${ids[2]})` : ""}` });
  }
  return out;
}

const EN_SENTENCE_END = /(?<=[.!?]["”’)]?)\s+(?=["“(]?[A-Z])/;
const ZH_SENTENCE_END = /(?<=[。！？][”」』）]?)/;

const LATIN_LETTERS = /\p{Script=Latin}/gu;
const HAN_CHARACTERS = /\p{Script=Han}/gu;

/** Whether an English and a Chinese sentence have lengths a translation has: within a factor 2 of LETTERS_PER_HAN. */
function lengthsFit(en: string, zh: string): boolean {
  const r = (en.match(LATIN_LETTERS)?.length ?? 0) / (LETTERS_PER_HAN * (zh.match(HAN_CHARACTERS)?.length ?? 0));
  return r >= 0.5 && r <= 2;
}

/**
 * Sentence pairs of a bilingual page laid out paragraph, translation, paragraph, translation…: each
 * English paragraph followed by a mostly-Chinese one; their sentences are paired in order when both have
 * the same number of sentences and every pair's length fits a translation's, else only the first sentences
 * are paired. (A translation that splits one sentence in two and joins two others keeps the count and shifts
 * every pair between: those pairs are not translations of each other.)
 */
export function readBilingualPage(file: string): { title: string; pairs: PairSource[] } {
  const doc = parseDocument(readFileSync(file, "utf8"));
  const title = (doc.querySelector("title")?.textContent || doc.querySelector("blockquote, h1, h2")?.textContent || "")
    .replace(/\s+/g, " ")
    .trim();
  const paras = [...doc.querySelectorAll("p")].map((p) => (p.textContent ?? "").replace(/\s+/g, " ").trim()).filter(Boolean);
  const pairs: PairSource[] = [];
  for (let i = 0; i + 1 < paras.length; i++) {
    const en = paras[i]!;
    const zh = paras[i + 1]!;
    if ((langShares(en, EN_ZH).en ?? 0) < 0.8 || (langShares(zh, EN_ZH).zh ?? 0) < 0.8) continue;
    const es = en.split(EN_SENTENCE_END).filter(Boolean);
    const zs = zh.split(ZH_SENTENCE_END).filter(Boolean);
    const n = es.length === zs.length && es.every((e, k) => lengthsFit(e, zs[k]!)) ? es.length : 1;
    for (let k = 0; k < n; k++) pairs.push({ en: es[k]!, zh: zs[k]!, source: `${basename(file)} paragraph ${i + 1}, sentence ${k + 1}` });
    i++;
  }
  return { title, pairs };
}

/**
 * Chinese paragraphs that carry English names and terms (documentation pages: "Nacos 支持 Spring Cloud …")
 * from the Chinese pages of a site build under `dir` (pages under an `en/` folder are skipped).
 */
export function readChineseParagraphs(dir: string): Array<{ title: string; text: string; source: string }> {
  const out: Array<{ title: string; text: string; source: string }> = [];
  for (const file of filesUnder(dir, ".html")) {
    const rel = relative(dir, file);
    if (rel.split("/").includes("en")) continue;
    const doc = parseDocument(readFileSync(file, "utf8"));
    const title = (doc.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
    [...doc.querySelectorAll("p, li")].forEach((p, k) => {
      const text = (p.textContent ?? "").replace(/\s+/g, " ").trim();
      if (text.length < 30 || !/[A-Za-z]{2,}/.test(text)) return;
      if ((langShares(text, EN_ZH).zh ?? 0) < 0.6) return;
      out.push({ title, text, source: `${rel} ${p.tagName.toLowerCase()} ${k + 1}` });
    });
  }
  return out;
}

/**
 * The real bilingual pages of a development set laid out as `<source>/<page>.html` + `<page>.pairs.tsv`
 * (`English<TAB>Chinese`, page order), pages named in `exclude` (a held-out list) left out. Which language comes
 * first on the page is read from where the first pair's texts occur in the HTML.
 */
export function readRealBilingualPages(dir: string, exclude: readonly string[] = []): BilingualPageUnits[] {
  const out: BilingualPageUnits[] = [];
  for (const tsv of filesUnder(dir, ".pairs.tsv")) {
    if (tsv.endsWith(".alt.pairs.tsv") || tsv.endsWith(".pairs.alt.tsv")) continue;
    const htmlFile = tsv.replace(/\.pairs\.tsv$/, ".html");
    const rel = relative(dir, htmlFile);
    if (isHeldOut(rel, exclude)) continue;
    const html = readFileSync(htmlFile, "utf8");
    const pairs = parseParallelTsv(tsv, readFileSync(tsv, "utf8")).map((p) => ({ en: p.a, zh: p.b }));
    if (pairs.length === 0) continue;
    const doc = parseDocument(html);
    const title = (doc.querySelector("h1")?.textContent || doc.querySelector("title")?.textContent || "").replace(/\s+/g, " ").trim();
    const flat = html.replace(/<[^>]*>/g, "").replace(/\s+/g, " ");
    const where = (s: string) => flat.indexOf(s.slice(0, 12));
    const e = where(pairs[0]!.en);
    const z = where(pairs[0]!.zh);
    out.push({ source: rel.replace(/\.html$/, ""), title, pairs, enFirst: z < 0 || (e >= 0 && e < z) });
  }
  return out;
}
