import type { OutputFormat } from "../export/index.js";
import type { LanguagePair } from "../language-pair.js";

/** A corpus pair as shown in the run's account: its two texts and the first page it was found on. */
export interface CorpusSample {
  a: string;
  b: string;
  source: string;
}

/**
 * The first `n` pairs of an exported corpus file, read back from its content (TSV and JSONL; the other
 * formats show none).
 */
export function corpusSamples(content: string, format: OutputFormat, pair: LanguagePair, n: number): CorpusSample[] {
  const lines = content.split("\n").filter(Boolean);
  if (format === "tsv") {
    return lines.slice(1, n + 1).map((line) => {
      const [source = "", a = "", b = ""] = line.split("\t");
      return { a, b, source: source.split(" ")[0] ?? "" };
    });
  }
  if (format === "jsonl") {
    return lines.slice(0, n).map((line) => {
      const rec = JSON.parse(line) as Record<string, unknown>;
      return { a: String(rec[pair.a] ?? ""), b: String(rec[pair.b] ?? ""), source: String(rec["source_url"] ?? "") };
    });
  }
  return [];
}
