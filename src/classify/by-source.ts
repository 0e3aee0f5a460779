/**
 * Leave-one-source-out evaluation: for each source of real data, a model trained on the annotations that do not
 * come from that source is tested on it. Bilingual-page sources give recall (engine-like snippets, `pageSnippets`)
 * and the false-positive rate on mismatched snippets (`mismatchedSnippets`); result-page sets give the false-positive
 * rate on their real monolingual records. Held-out pages are tested with the model trained on everything (they are
 * never in the annotations). Decisions by P ≥ threshold, as the classifier decides; the probabilities of every
 * left-out test are pooled into a calibration report.
 */
import { parallelText } from "../language-pair.js";
import { EN_ZH, type LanguagePair } from "../text/index.js";
import type { SerpSource } from "./bootstrap.js";
import { pageSourceFolder } from "./bootstrap.js";
import { type Calibration, calibration } from "./calibration.js";
import { recordFeatures } from "./features.js";
import { applyScaling, fitMinMax } from "./scaling.js";
import { NEGATIVE, POSITIVE, type SvmParams, trainSvm } from "./svm.js";
import { featurise } from "./trainer.js";
import { type BilingualPageUnits, mismatchedSnippets, pageSnippets } from "./page-snippets.js";
import type { Annotation, ClassifierInput } from "./types.js";
import { loadLexicon } from "../text/index.js";

export interface SourceRow {
  source: string;
  kind: "bilingual pages" | "mismatched snippets" | "monolingual results";
  /** Held-out pages: tested with the model trained on all annotations. */
  heldOut: boolean;
  /** Annotations left out of training for this row (0 for held-out pages and sets never trained on). */
  leftOut: number;
  n: number;
  /** Records labelled bilingual. */
  bilingual: number;
  /** Recall for bilingual pages, false-positive rate otherwise. */
  rate: number;
}

export interface BySourceReport {
  params: SvmParams & { threshold: number };
  rows: SourceRow[];
  /** Pools of sources (e.g. literary = two page sources): recall and mismatched FPR over their snippets, development pages only. */
  pools: Array<{ name: string; sources: string[]; recall: number; snippets: number; mismatchedRate: number; mismatched: number }>;
  calibration: Calibration;
}

export interface BySourceOptions {
  params: SvmParams;
  threshold?: number;
  pair?: LanguagePair;
  pools?: ReadonlyArray<{ name: string; sources: string[] }>;
  onStep?: () => void;
}

/** Whether an annotation was made from the given source: a page source folder or a result-page set. */
function fromSource(a: Annotation, source: string, kind: "pages" | "serps"): boolean {
  const s = a.source ?? "";
  return kind === "pages" ? s.includes(`: ${source}/`) || s.includes(` crossed with ${source}/`) : s.includes(`serp ${source}/`);
}

export function evaluateBySource(
  annotations: readonly Annotation[],
  data: {
    pages: readonly BilingualPageUnits[];
    heldOutPages?: readonly BilingualPageUnits[];
    serpSets: ReadonlyArray<{ name: string; records: readonly SerpSource[] }>;
  },
  options: BySourceOptions,
): BySourceReport {
  const pair = options.pair ?? EN_ZH;
  const threshold = options.threshold ?? 0.5;
  const lex = loadLexicon(pair);
  const set = featurise(annotations, pair);
  const featuresOf = (inputs: readonly ClassifierInput[]) => inputs.map((r) => recordFeatures(r, lex, pair));
  const probe = { probabilities: [] as number[], truth: [] as boolean[] };
  /** P(bilingual) of the inputs under a model trained on the annotations `keep` accepts. */
  const trainAndScore = (keep: (a: Annotation) => boolean, tests: number[][][]): number[][] => {
    const idx = annotations.flatMap((a, i) => (keep(a) ? [i] : []));
    const scaling = fitMinMax(idx.map((i) => set.rows[i]!));
    const model = trainSvm(
      idx.map((i) => applyScaling(scaling, set.rows[i]!)),
      idx.map((i) => (set.labels[i] ? POSITIVE : NEGATIVE)),
      options.params,
      true,
    );
    const out = tests.map((rows) => model.probabilities(rows.map((r) => applyScaling(scaling, r))));
    model.free();
    options.onStep?.();
    return out;
  };
  const rows: SourceRow[] = [];
  const row = (source: string, kind: SourceRow["kind"], heldOut: boolean, leftOut: number, probs: number[], truth: boolean) => {
    const bilingual = probs.filter((p) => p >= threshold).length;
    if (!heldOut) {
      probe.probabilities.push(...probs);
      probe.truth.push(...probs.map(() => truth));
    }
    rows.push({ source, kind, heldOut, leftOut, n: probs.length, bilingual, rate: probs.length ? bilingual / probs.length : 0 });
  };
  const byFolder = (pages: readonly BilingualPageUnits[]) => {
    const m = new Map<string, BilingualPageUnits[]>();
    for (const p of pages) m.set(pageSourceFolder(p.source), [...(m.get(pageSourceFolder(p.source)) ?? []), p]);
    return [...m].sort((x, y) => x[0].localeCompare(y[0]));
  };
  for (const [folder, pages] of byFolder(data.pages)) {
    const leftOut = annotations.filter((a) => fromSource(a, folder, "pages")).length;
    const pos = featuresOf(pages.flatMap((p) => pageSnippets(p)));
    const neg = featuresOf(pages.flatMap((p) => mismatchedSnippets(p)));
    const [pp, pn] = trainAndScore((a) => !fromSource(a, folder, "pages"), [pos, neg]);
    row(folder, "bilingual pages", false, leftOut, pp!, true);
    row(folder, "mismatched snippets", false, leftOut, pn!, false);
  }
  for (const s of data.serpSets) {
    const leftOut = annotations.filter((a) => fromSource(a, s.name, "serps")).length;
    const inputs = s.records.map((r) => ({
      query: r.lang === "en" ? parallelText(r.query, "") : parallelText("", r.query),
      title: r.title,
      url: r.url,
      snippet: r.snippet,
    }));
    const [p] = trainAndScore((a) => !fromSource(a, s.name, "serps"), [featuresOf(inputs)]);
    row(s.name, "monolingual results", false, leftOut, p!, false);
  }
  const held = byFolder(data.heldOutPages ?? []);
  if (held.length) {
    const tests = held.flatMap(([, pages]) => [
      featuresOf(pages.flatMap((p) => pageSnippets(p))),
      featuresOf(pages.flatMap((p) => mismatchedSnippets(p))),
    ]);
    const probs = trainAndScore(() => true, tests);
    held.forEach(([folder], k) => {
      row(folder, "bilingual pages", true, 0, probs[2 * k]!, true);
      row(folder, "mismatched snippets", true, 0, probs[2 * k + 1]!, false);
    });
  }
  const pools = (options.pools ?? []).map((pool) => pooled(rows, pool));
  return { params: { ...options.params, threshold }, rows, pools, calibration: calibration(probe.probabilities, probe.truth) };
}

/** A pool's recall and mismatched FPR over the development rows of its sources. */
function pooled(rows: readonly SourceRow[], { name, sources }: { name: string; sources: string[] }): BySourceReport["pools"][number] {
  const mine = rows.filter((r) => !r.heldOut && sources.includes(r.source));
  const sum = (kind: SourceRow["kind"], k: "n" | "bilingual") => mine.filter((r) => r.kind === kind).reduce((a, r) => a + r[k], 0);
  const snippets = sum("bilingual pages", "n");
  const mismatched = sum("mismatched snippets", "n");
  return {
    name,
    sources,
    snippets,
    recall: snippets ? sum("bilingual pages", "bilingual") / snippets : 0,
    mismatched,
    mismatchedRate: mismatched ? sum("mismatched snippets", "bilingual") / mismatched : 0,
  };
}
