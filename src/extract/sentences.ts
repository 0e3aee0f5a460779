/**
 * From paragraph pairs to sentence pairs. feng2011 extracts snippets — a whole `<p>` on each side when a
 * page pairs paragraphs — while an MT engineer trains on sentences. When both sides of a pair hold several
 * sentences, they are aligned with Gale & Church's dynamic programme (beads 1–1, 1–2, 2–1, 2–2, 1–0, 0–1 with
 * their published priors, the length model of `length-model.ts` for the lengths); the pair is split only
 * if every sentence finds a partner (no 1–0 or 0–1 bead), otherwise it is kept whole.
 */
import { charLang, type Lang, type LanguagePair } from "../text/index.js";
import { type LengthModel, lengthModelFor, lengthProbability, textLengthDelta } from "./length-model.js";
import type { SentencePair } from "./types.js";

/** English titles ICU takes for sentence ends (`Mr. Smith`). */
const TITLES = /(?:^|\s)(?:Mr|Mrs|Ms|Dr|Prof|St|Sr|Jr|Mt|No|Vol|Fig|vs|etc|i\.e|e\.g)\.\s*$/iu;
const TRAILING_OPEN = /[\p{Ps}\p{Pi}]+$/u;

/** The sentences of a text (ICU sentence boundaries, with fixes for titles and opening quotes). */
export function splitSentences(text: string, lang: Lang): string[] {
  const seg = new Intl.Segmenter(lang, { granularity: "sentence" });
  const out: string[] = [];
  let carry = "";
  for (const { segment } of seg.segment(text)) {
    let s = carry + segment;
    carry = "";
    const open = TRAILING_OPEN.exec(s.trimEnd());
    if (open) {
      carry = open[0];
      s = s.trimEnd().slice(0, -open[0].length);
    }
    const prev = out[out.length - 1];
    if (prev !== undefined && TITLES.test(prev)) out[out.length - 1] = `${prev} ${s.trim()}`;
    else if (s.trim()) out.push(s.trim());
  }
  if (carry) {
    if (out.length) out[out.length - 1] += carry;
    else out.push(carry);
  }
  return out.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** One bead of an alignment: how many sentences of each side it takes. */
type Bead = readonly [number, number];
const BEADS: ReadonlyArray<{ bead: Bead; prior: number }> = [
  { bead: [1, 1], prior: 0.89 },
  { bead: [1, 0], prior: 0.0099 / 2 },
  { bead: [0, 1], prior: 0.0099 / 2 },
  { bead: [2, 1], prior: 0.089 / 2 },
  { bead: [1, 2], prior: 0.089 / 2 },
  { bead: [2, 2], prior: 0.011 },
];

/**
 * Gale-Church alignment of `a` (non-CJK side) and `b` (CJK side) sentences: the beads of the cheapest path,
 * each as the sentence indices it joins. Cost of a bead = −log prior − log P(δ).
 */
export function alignSentences(
  a: readonly string[],
  b: readonly string[],
  isCjkLetter: (ch: string) => boolean,
  model: LengthModel,
): Array<{ a: number[]; b: number[] }> {
  const n = a.length;
  const m = b.length;
  const cost = Array.from({ length: n + 1 }, () => new Float64Array(m + 1).fill(Number.POSITIVE_INFINITY));
  const back: Array<Array<Bead | null>> = Array.from({ length: n + 1 }, () => new Array<Bead | null>(m + 1).fill(null));
  cost[0]![0] = 0;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      const here = cost[i]![j]!;
      if (!Number.isFinite(here)) continue;
      for (const { bead, prior } of BEADS) {
        const [da, db] = bead;
        if (i + da > n || j + db > m) continue;
        const aText = a.slice(i, i + da).join(" ");
        const bText = b.slice(j, j + db).join("");
        const p = Math.max(lengthProbability(textLengthDelta(bText, aText, isCjkLetter, model)), 1e-12);
        const c = here - Math.log(prior) - Math.log(p);
        if (c < cost[i + da]![j + db]!) {
          cost[i + da]![j + db] = c;
          back[i + da]![j + db] = bead;
        }
      }
    }
  }
  const out: Array<{ a: number[]; b: number[] }> = [];
  for (let i = n, j = m; i > 0 || j > 0; ) {
    const [da, db] = back[i]![j]!;
    out.push({ a: range(i - da, i), b: range(j - db, j) });
    i -= da;
    j -= db;
  }
  return out.reverse();
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}

/**
 * The sentence pairs of an extracted pair: itself when either side is one sentence or when the alignment
 * leaves a sentence without a partner, otherwise one pair per bead (same score, method and source).
 */
export function splitIntoSentencePairs(pair: SentencePair): SentencePair[] {
  const langs: LanguagePair = pair.langs;
  const a = splitSentences(pair.a, langs.a);
  const b = splitSentences(pair.b, langs.b);
  if (a.length < 2 || b.length < 2) return [pair];
  const isCjkLetter = (ch: string) => charLang(ch, langs) === langs.b;
  const beads = alignSentences(a, b, isCjkLetter, lengthModelFor(langs.b));
  if (beads.some((x) => x.a.length === 0 || x.b.length === 0)) return [pair];
  return beads.map((x) => ({
    ...pair,
    a: x.a.map((i) => a[i]!).join(" "),
    b: x.b.map((j) => b[j]!).join(""),
  }));
}
