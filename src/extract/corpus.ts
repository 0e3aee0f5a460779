/**
 * From stored extractions to a corpus file: `exportCorpus` (the `bitext export corpus` step and the end of
 * the demo). Pairs are deduplicated by the store on their normalised texts (`corpusKey`), keeping every
 * source URL.
 */
import { writeFileAtomic } from "../io/index.js";
import { type CorpusPair, listCorpusPairs, type SentencePairInput, type Store } from "../store/index.js";
import { comparableText, EN_ZH } from "../text/index.js";
import { formatPairs, type OutputFile, type OutputFormat, type OutputPair } from "./formats.js";
import { splitIntoSentencePairs } from "./sentences.js";
import type { SentencePair } from "./types.js";

/**
 * The key two pairs are duplicates on: width-folded, lower-cased, without spaces and punctuation
 * (`Good morning!` = `good morning`), the same normalisation as the lenient match of `eval extract`.
 */
export function corpusKey(text: string): string {
  return comparableText(text);
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
  /** Split paragraph pairs into aligned sentence pairs (`splitIntoSentencePairs`), then deduplicate again. */
  sentences?: boolean;
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

/** Corpus pairs split into sentence pairs, duplicates (on `corpusKey`) merged: best score, every URL and method. */
export function splitCorpusIntoSentences(pairs: readonly OutputPair[]): OutputPair[] {
  const merged = new Map<string, { pair: OutputPair; urls: Set<string>; methods: Set<string> }>();
  for (const p of pairs) {
    const parts = splitIntoSentencePairs({ langs: EN_ZH, a: p.a, b: p.b, score: p.score ?? 0, method: "seed", sourceUrl: "" });
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
export function exportCorpus(store: Store, options: ExportCorpusOptions): CorpusExport {
  const pairs = listCorpusPairs(store, options.minScore === undefined ? {} : { minScore: options.minScore });
  const out = options.sentences ? splitCorpusIntoSentences(corpusOutputPairs(pairs)) : corpusOutputPairs(pairs);
  const files: OutputFile[] = formatPairs(out, EN_ZH, options.format);
  const written = files.map((f) => {
    const path = options.out === null ? null : `${options.out}${f.suffix}`;
    return { path, ...f };
  });
  for (const f of written) if (f.path !== null) writeFileAtomic(f.path, f.content);
  return { pairs: out.length, multiSource: out.filter((p) => p.sourceUrls.length > 1).length, files: written };
}
