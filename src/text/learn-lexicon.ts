/**
 * Translation equivalents learned from a parallel corpus (feng2010 §6.2 uses them beside the dictionary):
 * IBM Model 1 trained in both directions, keeping word pairs that each direction finds likely.
 * Pure: takes sentence pairs, returns weighted pairs.
 */
import { inputError } from "../errors.js";
import { normalizeText, toSimplified } from "./normalize.js";
import type { Lang, LanguagePair } from "./script.js";
import { isStopWord, tokenize } from "./tokenize.js";

export interface LearnLexiconOptions {
  /** EM iterations per direction (default 8). */
  iterations?: number;
  /** Minimum number of sentence pairs in which both words occur (default 2). */
  minCount?: number;
  /** Minimum weight kept, the geometric mean of t(b|a) and t(a|b) (default 0.1). */
  minWeight?: number;
  /** Keep at most this many translations per word of either side (default 5). */
  maxPerWord?: number;
  /** Tokens that take part in alignment but are never output (stop words, numbers). */
  skip?: (token: string, side: "a" | "b") => boolean;
  /** Called after each EM iteration (2 × iterations in all) for progress display. */
  onIteration?: (done: number, total: number) => void;
}

export interface LearnedPair {
  a: string;
  b: string;
  weight: number;
  /** Sentence pairs in which both occur. */
  count: number;
}

const NULL = 0;

/**
 * IBM Model 1: t(target | source) by EM, with a NULL source word. Sentences are arrays of word ids
 * (ids ≥ 1). Returns t as a map from `source * stride + target` to probability.
 *
 * Each (source, target) pair that co-occurs gets an index once, and each sentence pair the indices of its cells
 * (per target word, NULL then its source words, as the sentence has them): the iterations then read and write typed
 * arrays only (a map read per cell per iteration was most of the cost: 7 s for a page of 716 long sentence pairs).
 * The sums run in the same order as a map-based EM's, so t is the same to the last bit.
 */
function model1(
  sources: Int32Array[],
  targets: Int32Array[],
  stride: number,
  iterations: number,
  onIteration: () => void,
): Map<number, number> {
  const index = new Map<number, number>();
  const keys: number[] = [];
  const cellsOf: Int32Array[] = [];
  const idOf = (key: number) => {
    let id = index.get(key);
    if (id === undefined) {
      id = keys.length;
      index.set(key, id);
      keys.push(key);
    }
    return id;
  };
  for (let s = 0; s < sources.length; s++) {
    const src = sources[s]!;
    const tgt = targets[s]!;
    const cells = new Int32Array(tgt.length * (src.length + 1));
    let k = 0;
    for (const e of tgt) {
      cells[k++] = idOf(NULL * stride + e);
      for (const f of src) cells[k++] = idOf(f * stride + e);
    }
    cellsOf.push(cells);
  }
  // Uniform start over the co-occurring pairs.
  const t = new Float64Array(keys.length).fill(1);
  const sourceOf = Int32Array.from(keys, (key) => Math.floor(key / stride));
  let sourceWords = 0;
  for (const f of sourceOf) if (f + 1 > sourceWords) sourceWords = f + 1;
  for (let it = 0; it < iterations; it++) {
    const count = new Float64Array(keys.length);
    const counted = new Uint8Array(keys.length);
    const total = new Float64Array(sourceWords);
    for (let s = 0; s < sources.length; s++) {
      const cells = cellsOf[s]!;
      const width = sources[s]!.length + 1;
      for (let from = 0; from < cells.length; from += width) {
        let z = 0;
        for (let c = from; c < from + width; c++) z += t[cells[c]!]!;
        if (z === 0) continue;
        for (let c = from; c < from + width; c++) {
          const id = cells[c]!;
          const x = t[id]! / z;
          count[id]! += x;
          counted[id] = 1;
          total[sourceOf[id]!]! += x;
        }
      }
    }
    for (let id = 0; id < keys.length; id++) if (counted[id]) t[id] = count[id]! / total[sourceOf[id]!]!;
    onIteration();
  }
  const out = new Map<number, number>();
  for (let id = 0; id < keys.length; id++) out.set(keys[id]!, t[id]!);
  return out;
}

/**
 * Learn weighted translation pairs from tokenised sentence pairs (`a` and `b` sides of a language pair).
 * weight = √(t(b|a) · t(a|b)): high only when each word is the other's likely translation.
 */
export function learnLexicon(
  pairs: ReadonlyArray<{ a: readonly string[]; b: readonly string[] }>,
  options: LearnLexiconOptions = {},
): LearnedPair[] {
  const iterations = options.iterations ?? 8;
  const minCount = options.minCount ?? 2;
  const minWeight = options.minWeight ?? 0.1;
  const maxPerWord = options.maxPerWord ?? 5;
  const skip = options.skip ?? (() => false);

  // Word ids per side; id 0 is NULL.
  const ids = { a: new Map<string, number>(), b: new Map<string, number>() };
  const words = { a: ["<null>"], b: ["<null>"] };
  const idOf = (side: "a" | "b", w: string) => {
    let id = ids[side].get(w);
    if (id === undefined) {
      id = words[side].length;
      ids[side].set(w, id);
      words[side].push(w);
    }
    return id;
  };
  const sa: Int32Array[] = [];
  const sb: Int32Array[] = [];
  for (const p of pairs) {
    if (p.a.length === 0 || p.b.length === 0) continue;
    sa.push(Int32Array.from(p.a, (w) => idOf("a", w)));
    sb.push(Int32Array.from(p.b, (w) => idOf("b", w)));
  }
  const na = words.a.length;
  const nb = words.b.length;

  // Co-occurrence counts (once per sentence pair), keyed a * nb + b.
  const cooc = new Map<number, number>();
  for (let s = 0; s < sa.length; s++) {
    const seen = new Set<number>();
    for (const x of sa[s]!) for (const y of sb[s]!) seen.add(x * nb + y);
    for (const k of seen) cooc.set(k, (cooc.get(k) ?? 0) + 1);
  }

  let done = 0;
  const tick = () => options.onIteration?.(++done, 2 * iterations);
  const tBA = model1(sa, sb, nb, iterations, tick); // t(b | a), keyed a * nb + b
  const tAB = model1(sb, sa, na, iterations, tick); // t(a | b), keyed b * na + a

  const candidates: LearnedPair[] = [];
  for (const [k, count] of cooc) {
    if (count < minCount) continue;
    const x = Math.floor(k / nb);
    const y = k % nb;
    const wa = words.a[x]!;
    const wb = words.b[y]!;
    if (skip(wa, "a") || skip(wb, "b")) continue;
    const weight = Math.sqrt((tBA.get(k) ?? 0) * (tAB.get(y * na + x) ?? 0));
    if (weight >= minWeight) candidates.push({ a: wa, b: wb, weight, count });
  }
  candidates.sort((p, q) => q.weight - p.weight || q.count - p.count || (p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : 1));
  const perA = new Map<string, number>();
  const perB = new Map<string, number>();
  const out: LearnedPair[] = [];
  for (const c of candidates) {
    const ka = perA.get(c.a) ?? 0;
    const kb = perB.get(c.b) ?? 0;
    if (ka >= maxPerWord || kb >= maxPerWord) continue;
    perA.set(c.a, ka + 1);
    perB.set(c.b, kb + 1);
    out.push(c);
  }
  return out;
}

/** A sentence pair of a parallel corpus, as read from a `A<TAB>B[<TAB>attribution]` file. */
export interface ParallelSentence {
  a: string;
  b: string;
}

/**
 * Parse a parallel corpus file: one sentence pair a line, `A<TAB>B[<TAB>attribution…]` (the Tatoeba /
 * manythings.org layout). Blank lines and `#` comments are skipped; the attribution column is kept.
 * `keepLine` (1-based line numbers) selects lines, e.g. to hold some out for evaluation.
 */
export function parseParallelTsv(
  path: string,
  text: string,
  keepLine: (lineNumber: number) => boolean = () => true,
): Array<ParallelSentence & { attribution?: string }> {
  const out: Array<ParallelSentence & { attribution?: string }> = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!keepLine(i + 1)) continue;
    const line = lines[i]!.replace(/\r$/, "");
    if (!line.trim() || line.startsWith("#")) continue;
    const cols = line.split("\t");
    if (cols.length < 2) throw inputError({ file: path, line: i + 1 }, "expected A<TAB>B[<TAB>attribution]");
    const a = cols[0]!.trim();
    const b = cols[1]!.trim();
    if (!a || !b) throw inputError({ file: path, line: i + 1 }, "empty sentence");
    out.push(cols[2] ? { a, b, attribution: cols[2] } : { a, b });
  }
  return out;
}

const NUMBER_OR_SYMBOL = /^[\p{N}\p{P}\p{S}]+$/u;

/**
 * Learn translation equivalents of a language pair from raw sentence pairs: normalise (width folding,
 * Traditional → Simplified), tokenise as the rest of bitext does, run `learnLexicon`, and drop stop words
 * and numbers from the output (they still take part in alignment).
 */
export function learnLexiconFromSentences(
  sentences: readonly ParallelSentence[],
  pair: LanguagePair,
  options: LearnLexiconOptions = {},
): LearnedPair[] {
  const prep = (text: string, lang: Lang) => {
    const t = normalizeText(text);
    return tokenize(lang === "zh" ? toSimplified(t) : t, lang);
  };
  const tokenised = sentences.map((s) => ({ a: prep(s.a, pair.a), b: prep(s.b, pair.b) }));
  const skip = (token: string, side: "a" | "b") =>
    NUMBER_OR_SYMBOL.test(token) ||
    isStopWord(token, side === "a" ? pair.a : pair.b) ||
    (token.length < 2 && /^\p{Script=Latin}$/u.test(token));
  return learnLexicon(tokenised, { ...options, skip: options.skip ?? skip });
}
