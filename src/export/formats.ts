/**
 * Output formats of extracted pairs and of the corpus:
 * - tsv: header `source_url <a> <b> score method` (`source_url en zh score method` for en–zh); several source
 *   URLs of one corpus pair are joined by a space; tabs and line breaks inside texts become spaces;
 * - tmx: TMX 1.4, one `<tu>` per pair with `xml:lang` on each `<tuv>` and the score, method and source URLs as `<prop>`s;
 * - moses: two line-aligned files, PREFIX.<a> and PREFIX.<b> (PREFIX.en / PREFIX.zh);
 * - jsonl: one JSON object per line: the two texts under their language codes, score, source_url, method
 *   (and source_urls when a pair has several).
 */
import type { LanguagePair } from "../text/index.js";

export type OutputFormat = "tsv" | "tmx" | "moses" | "jsonl";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["tsv", "tmx", "moses", "jsonl"];

/** A pair as written out: one extraction, or one deduplicated corpus entry with all its sources. */
export interface OutputPair {
  a: string;
  b: string;
  score: number | null;
  method: string;
  sourceUrls: readonly string[];
  /** The pair scorer's probability of translation (corpus exports). */
  quality?: number | null;
  /** Where it came from: per source page, the result records (query, engine, rank, fetch time) that led to it. */
  provenance?: readonly PairSource[];
}

/** One page a corpus pair was found on, and the result records that led to it. */
export interface PairSource {
  pageUrl: string;
  fetchedAt: string;
  records: ReadonlyArray<{ engine: string; query: SourceQuery; rank: number; recordUrl: string; fetchedAt: string }>;
}

/** A record's query: its two sides, and where it was read (list, 1-based line, note; null when the store has none). */
export interface SourceQuery {
  source: string;
  target: string;
  file: string | null;
  line: number | null;
  note: string | null;
}

/** A file to write: its name suffix after PREFIX (e.g. ".tsv", ".en") and its content. */
export interface OutputFile {
  suffix: string;
  content: string;
}

export function formatPairs(
  pairs: readonly OutputPair[],
  langs: LanguagePair,
  format: OutputFormat,
  columns?: readonly string[],
): OutputFile[] {
  switch (format) {
    case "tsv":
      return [{ suffix: ".tsv", content: columns ? toTsvColumns(pairs, langs, columns) : toTsv(pairs, langs) }];
    case "tmx":
      return [{ suffix: ".tmx", content: toTmx(pairs, langs) }];
    case "moses": {
      const files = [
        { suffix: `.${langs.a}`, content: pairs.map((p) => `${oneLine(p.a)}\n`).join("") },
        { suffix: `.${langs.b}`, content: pairs.map((p) => `${oneLine(p.b)}\n`).join("") },
      ];
      // Moses stays plain text; the provenance of line i is line i of the sidecar.
      if (pairs.some((p) => p.provenance)) {
        files.push({ suffix: ".meta.jsonl", content: pairs.map((p) => `${JSON.stringify(provenanceFields(p, langs))}\n`).join("") });
      }
      return files;
    }
    case "jsonl":
      return [{ suffix: ".jsonl", content: pairs.map((p) => `${JSON.stringify(toJsonRecord(p, langs))}\n`).join("") }];
  }
}

/** Text on one line: tabs, line and paragraph separators become single spaces (TSV and Moses are line-based). */
export function oneLine(text: string): string {
  return text.replace(/[\t\r\n\u2028\u2029\u0085]+/gu, " ").trim();
}

export function toTsv(pairs: readonly OutputPair[], langs: LanguagePair): string {
  const lines = [["source_url", langs.a, langs.b, "score", "method"].join("\t")];
  for (const p of pairs) {
    lines.push([p.sourceUrls.join(" "), oneLine(p.a), oneLine(p.b), p.score === null ? "" : String(p.score), p.method].join("\t"));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The columns a TSV export can have (`export corpus --columns`): the default five, the quality, and the
 * provenance of the pair's first record (query sides as `query_<lang>`).
 */
export function tsvColumns(langs: LanguagePair): string[] {
  return [
    "source_url",
    langs.a,
    langs.b,
    "score",
    "method",
    "quality",
    `query_${langs.a}`,
    `query_${langs.b}`,
    "query_file",
    "query_line",
    "query_note",
    "engine",
    "fetched_at",
    "rank",
    "record_url",
    "page_url",
  ];
}

/** TSV with the chosen columns (each a name of `tsvColumns`), header first. */
export function toTsvColumns(pairs: readonly OutputPair[], langs: LanguagePair, columns: readonly string[]): string {
  const lines = [columns.join("\t")];
  for (const p of pairs) {
    const prov = provenanceFields(p, langs);
    const query = (prov["query"] ?? {}) as Record<string, string>;
    const value = (c: string): unknown => {
      if (c === "source_url") return p.sourceUrls.join(" ");
      if (c === langs.a) return p.a;
      if (c === langs.b) return p.b;
      if (c === "score") return p.score;
      if (c in prov) return prov[c];
      if (c.startsWith("query_")) return query[c.slice("query_".length)];
      return undefined;
    };
    lines.push(columns.map((c) => oneLine(String(value(c) ?? ""))).join("\t"));
  }
  return `${lines.join("\n")}\n`;
}

/** The JSON object of one pair: `{"en":…,"zh":…,"score":…,"source_url":…,"method":…}` (keys are the language codes). */
export function toJsonRecord(p: OutputPair, langs: LanguagePair): Record<string, unknown> {
  const rec: Record<string, unknown> = {
    [langs.a]: p.a,
    [langs.b]: p.b,
    score: p.score,
    source_url: p.sourceUrls[0] ?? null,
    method: p.method,
  };
  if (p.sourceUrls.length > 1) rec["source_urls"] = p.sourceUrls;
  return p.provenance ? { ...rec, ...provenanceFields(p, langs) } : rec;
}

/**
 * A corpus pair's provenance as JSON fields: its quality, then the first record that led to it flat (query,
 * engine, fetch time, rank, record URL, page URL, method), and every source page with all its records.
 */
export function provenanceFields(p: OutputPair, langs: LanguagePair): Record<string, unknown> {
  const first = p.provenance?.find((s) => s.records.length > 0) ?? p.provenance?.[0];
  const r = first?.records[0];
  return {
    quality: p.quality ?? null,
    query: r ? { [langs.a]: r.query.source, [langs.b]: r.query.target } : null,
    ...queryOrigin(r?.query),
    engine: r?.engine ?? null,
    fetched_at: r?.fetchedAt ?? first?.fetchedAt ?? null,
    rank: r?.rank ?? null,
    record_url: r?.recordUrl ?? null,
    page_url: first?.pageUrl ?? p.sourceUrls[0] ?? null,
    method: p.method,
    sources: (p.provenance ?? []).map((s) => ({
      page_url: s.pageUrl,
      page_fetched_at: s.fetchedAt,
      records: s.records.map((x) => ({
        engine: x.engine,
        query: { [langs.a]: x.query.source, [langs.b]: x.query.target },
        ...queryOrigin(x.query),
        rank: x.rank,
        record_url: x.recordUrl,
        fetched_at: x.fetchedAt,
      })),
    })),
  };
}

/** Where a record's query was read, as JSON fields (nulls where the store has no origin, or the pair no record). */
function queryOrigin(q: SourceQuery | undefined): { query_file: string | null; query_line: number | null; query_note: string | null } {
  return { query_file: q?.file ?? null, query_line: q?.line ?? null, query_note: q?.note ?? null };
}

export function toTmx(pairs: readonly OutputPair[], langs: LanguagePair): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  <header creationtool="bitext" creationtoolversion="0.1.0" segtype="sentence" o-tmf="bitext" adminlang="en" srclang="${langs.a}" datatype="plaintext"/>`,
    "  <body>",
  ];
  for (const p of pairs) {
    out.push("    <tu>");
    if (p.score !== null) out.push(`      <prop type="x-score">${p.score}</prop>`);
    if (p.quality !== undefined && p.quality !== null) out.push(`      <prop type="x-quality">${p.quality}</prop>`);
    for (const s of p.provenance ?? []) {
      for (const r of s.records) {
        out.push(`      <prop type="x-engine">${xmlText(r.engine)}</prop>`);
        out.push(`      <prop type="x-query">${xmlText(`${r.query.source}\t${r.query.target}`)}</prop>`);
        if (r.query.file !== null) out.push(`      <prop type="x-query-file">${xmlText(r.query.file)}</prop>`);
        if (r.query.line !== null) out.push(`      <prop type="x-query-line">${r.query.line}</prop>`);
        if (r.query.note !== null) out.push(`      <prop type="x-query-note">${xmlText(r.query.note)}</prop>`);
        out.push(`      <prop type="x-record-rank">${r.rank}</prop>`);
        out.push(`      <prop type="x-record-url">${xmlText(r.recordUrl)}</prop>`);
        out.push(`      <prop type="x-fetched-at">${xmlText(r.fetchedAt)}</prop>`);
      }
      out.push(`      <prop type="x-page-url">${xmlText(s.pageUrl)}</prop>`);
    }
    out.push(`      <prop type="x-method">${xmlText(p.method)}</prop>`);
    for (const url of p.sourceUrls) out.push(`      <prop type="x-source-url">${xmlText(url)}</prop>`);
    out.push(`      <tuv xml:lang="${langs.a}"><seg>${xmlText(p.a)}</seg></tuv>`);
    out.push(`      <tuv xml:lang="${langs.b}"><seg>${xmlText(p.b)}</seg></tuv>`);
    out.push("    </tu>");
  }
  out.push("  </body>", "</tmx>");
  return `${out.join("\n")}\n`;
}

/** Escape for XML text and attribute values; characters XML 1.0 forbids are dropped. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/gu, "&amp;")
    .replace(/</gu, "&lt;")
    .replace(/>/gu, "&gt;")
    .replace(/"/gu, "&quot;");
}
