/**
 * From stored extractions to a corpus file: `exportCorpus` (the `bitext export corpus` step and the end of
 * the demo). Pairs are deduplicated by the store on their normalised texts (`corpusKey`), keeping every
 * source URL.
 */
import { writeFileAtomic } from "../io/atomic-write.js";
import { type CorpusPair, listCorpusPairs, type SentencePairInput, type Store } from "../store/index.js";
import { EN_ZH, normalizeText } from "../text/index.js";
import { formatPairs, type OutputFile, type OutputFormat, type OutputPair } from "./formats.js";
import type { SentencePair } from "./types.js";

/**
 * The key two pairs are duplicates on: width-folded, lower-cased, without spaces and punctuation
 * (`Good morning!` = `good morning`), the same normalisation as the lenient match of `eval extract`.
 */
export function corpusKey(text: string): string {
  return normalizeText(text)
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");
}

/** An extracted pair as the store keeps it (the store's columns are `en` and `zh`: en–zh pairs only). */
export function toStoredPair(p: SentencePair): SentencePairInput {
  return { en: p.a, zh: p.b, score: p.score, method: p.method, enNorm: corpusKey(p.a), zhNorm: corpusKey(p.b) };
}

export interface ExportCorpusOptions {
  format: OutputFormat;
  /** Files are written to PREFIX + suffix (`corpus.tsv`, `corpus.en` + `corpus.zh`, …); null = return only. */
  out: string | null;
  /** Leave out pairs whose best score is below this. */
  minScore?: number;
}

export interface CorpusExport {
  pairs: number;
  /** Pairs found on more than one page. */
  multiSource: number;
  files: Array<{ path: string | null; suffix: string; content: string }>;
}

export function corpusOutputPairs(pairs: readonly CorpusPair[]): OutputPair[] {
  return pairs.map((p) => ({ a: p.en, b: p.zh, score: p.score, method: p.methods.join(","), sourceUrls: p.urls }));
}

/** Write the deduplicated corpus of the store (atomically, each file complete or absent). */
export function exportCorpus(store: Store, options: ExportCorpusOptions): CorpusExport {
  const pairs = listCorpusPairs(store, options.minScore === undefined ? {} : { minScore: options.minScore });
  const files: OutputFile[] = formatPairs(corpusOutputPairs(pairs), EN_ZH, options.format);
  const written = files.map((f) => {
    const path = options.out === null ? null : `${options.out}${f.suffix}`;
    return { path, ...f };
  });
  for (const f of written) if (f.path !== null) writeFileAtomic(f.path, f.content);
  return { pairs: pairs.length, multiSource: pairs.filter((p) => p.urls.length > 1).length, files: written };
}
