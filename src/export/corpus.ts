/**
 * From stored extractions to a corpus file: `exportCorpus` (the export step of the pipeline, and the end of
 * the demo). Pairs are deduplicated by the store on their normalised texts (`corpusKey`), keeping every
 * source URL.
 */
import { corpusKey, splitIntoSentencePairs } from "../extract/index.js";
import { writeFileAtomic } from "../io/index.js";
import { LOW_SCORE, type PairScorer } from "../quality/index.js";
import { type CorpusPair, listCorpusPairs, type PageSource, pageSources, type Store } from "../store/index.js";
import { EN_ZH, type LanguagePair } from "../text/index.js";
import { formatPairs, type OutputFile, type OutputFormat, type OutputPair, type PairSource } from "./formats.js";

export interface ExportCorpusOptions {
  format: OutputFormat;
  /** Files are written to PREFIX + suffix (`corpus.tsv`, `corpus.en` + `corpus.zh`, …); null = return only. */
  out: string | null;
  /** Leave out pairs whose best extractor score is below this. */
  minScore?: number;
  /** Scores stored pairs not scored yet (in memory; the store is not changed). null/absent: they stay unscored and kept. */
  scorer?: PairScorer | null;
  /** Leave out pairs whose quality is below this (default: the scorer's threshold); a rule against a pair always does. */
  minQuality?: number;
  /** Write the pairs left out by quality here (JSON lines with their reasons). */
  rejected?: string | null;
  /** The language pair of the store's pairs (default en–zh). */
  pair?: LanguagePair;
  /** TSV: these columns (names of `tsvColumns`) instead of the default five. */
  columns?: readonly string[];
  /** Split paragraph pairs into aligned sentence pairs (`splitIntoSentencePairs`), then deduplicate again. */
  sentences?: boolean;
}

export interface CorpusExport {
  pairs: number;
  /** Pairs left out by quality, by reason (a pair counts once per reason). */
  rejected: number;
  rejectedByReason: Record<string, number>;
  /** Pairs found on more than one page. */
  multiSource: number;
  files: Array<{ path: string | null; suffix: string; content: string }>;
}

export function corpusOutputPairs(pairs: readonly CorpusPair[], sources?: ReadonlyMap<number, PageSource>): OutputPair[] {
  return pairs.map((p) => ({
    a: p.en,
    b: p.zh,
    score: p.score,
    method: p.methods.join(","),
    sourceUrls: p.urls,
    quality: p.quality,
    ...(sources ? { provenance: p.pageIds.flatMap((id) => provenanceOf(sources.get(id))) } : {}),
  }));
}

function provenanceOf(s: PageSource | undefined): PairSource[] {
  if (!s) return [];
  return [
    {
      pageUrl: s.finalUrl ?? s.url,
      fetchedAt: s.fetchedAt,
      records: s.records.map((r) => ({
        engine: r.engine,
        query: { source: r.query.source, target: r.query.target, file: r.query.file, line: r.query.line, note: r.query.note },
        rank: r.rank,
        recordUrl: r.recordUrl,
        fetchedAt: r.fetchedAt,
      })),
    },
  ];
}

/** A corpus pair's verdict: its stored one, or the scorer's when it was not scored yet. */
function verdictOf(p: CorpusPair, scorer: PairScorer | null): { quality: number | null; reasons: string[] } {
  if (p.quality !== null && p.reasons !== null) return { quality: p.quality, reasons: p.reasons };
  if (!scorer) return { quality: null, reasons: [] };
  const v = scorer.score(p.en, p.zh);
  return { quality: v.score, reasons: v.reasons };
}

/**
 * Split the corpus by quality: a pair is kept when no rule is against it and its quality is at least
 * `minQuality` (the threshold the stored reasons were decided at, unless given). Unscored pairs are kept.
 */
export function splitByQuality(
  pairs: readonly CorpusPair[],
  scorer: PairScorer | null,
  minQuality: number | undefined,
): { kept: CorpusPair[]; rejected: Array<CorpusPair & { reasons: string[] }> } {
  const kept: CorpusPair[] = [];
  const rejected: Array<CorpusPair & { reasons: string[] }> = [];
  for (const p of pairs) {
    const v = verdictOf(p, scorer);
    let reasons = v.reasons;
    if (minQuality !== undefined && v.quality !== null) {
      reasons = reasons.filter((r) => r !== LOW_SCORE);
      if (reasons.length === 0 && v.quality < minQuality) reasons = [LOW_SCORE];
    }
    const scored = { ...p, quality: v.quality };
    if (reasons.length === 0) kept.push(scored);
    else rejected.push({ ...scored, reasons });
  }
  return { kept, rejected };
}

/** Corpus pairs split into sentence pairs, duplicates (on `corpusKey`) merged: best score, every URL and method. */
export function splitCorpusIntoSentences(pairs: readonly OutputPair[], langs: LanguagePair = EN_ZH): OutputPair[] {
  const merged = new Map<string, { pair: OutputPair; urls: Set<string>; methods: Set<string> }>();
  for (const p of pairs) {
    const parts = splitIntoSentencePairs({ langs, a: p.a, b: p.b, score: p.score ?? 0, method: "seed", sourceUrl: "" });
    for (const part of parts) {
      const key = `${corpusKey(part.a)}\u0000${corpusKey(part.b)}`;
      const hit = merged.get(key);
      if (!hit) {
        merged.set(key, {
          pair: { ...p, a: part.a, b: part.b },
          urls: new Set(p.sourceUrls),
          methods: new Set(p.method.split(",")),
        });
        continue;
      }
      for (const u of p.sourceUrls) hit.urls.add(u);
      for (const m of p.method.split(",")) hit.methods.add(m);
      if ((p.score ?? -1) > (hit.pair.score ?? -1)) hit.pair = { ...hit.pair, score: p.score };
    }
  }
  return [...merged.values()].map((x) => ({ ...x.pair, sourceUrls: [...x.urls], method: [...x.methods].join(",") }));
}

/** Write the deduplicated corpus of the store (atomically, each file complete or absent). */
export async function exportCorpus(store: Store, options: ExportCorpusOptions): Promise<CorpusExport> {
  const pair = options.pair ?? EN_ZH;
  const all = await listCorpusPairs(store, options.minScore === undefined ? {} : { minScore: options.minScore });
  const { kept, rejected } = splitByQuality(all, options.scorer ?? null, options.minQuality);
  const sources = await pageSources(
    store,
    kept.flatMap((p) => p.pageIds),
  );
  const outPairs = corpusOutputPairs(kept, sources);
  const out = options.sentences ? splitCorpusIntoSentences(outPairs, pair) : outPairs;
  const files: OutputFile[] = formatPairs(out, pair, options.format, options.columns);
  const rejectedByReason: Record<string, number> = {};
  for (const r of rejected) for (const reason of r.reasons) rejectedByReason[reason] = (rejectedByReason[reason] ?? 0) + 1;
  if (options.rejected) {
    const lines = rejected.map(
      (r) => `${JSON.stringify({ [pair.a]: r.en, [pair.b]: r.zh, quality: r.quality, reasons: r.reasons, source_urls: r.urls })}\n`,
    );
    writeFileAtomic(options.rejected, lines.join(""));
  }
  const written = files.map((f) => {
    const path = options.out === null ? null : `${options.out}${f.suffix}`;
    return { path, ...f };
  });
  for (const f of written) if (f.path !== null) writeFileAtomic(f.path, f.content);
  return {
    pairs: out.length,
    rejected: rejected.length,
    rejectedByReason,
    multiSource: out.filter((p) => p.sourceUrls.length > 1).length,
    files: written,
  };
}
