/**
 * `bitext eval classifier`: cross-validated precision / recall / F1 and confusion matrix on annotated
 * records, the seed's ablation (W, W+L, W+L+F) on the same folds, errors by kind of example, and —
 * given a model — that model's decisions on the same records as a held-out test set.
 */
import { parallelText } from "../language-pair.js";
import { confusion } from "../eval/index.js";
import { EN_ZH, type LanguagePair } from "../text/index.js";
import { createClassifier } from "./classifier.js";
import type { ModelFile } from "./model-file.js";
import { type CvResult, crossValidate, type Grid, summarise } from "./grid-search.js";
import { type AblationRow, ablation, featurise, foldsOf } from "./trainer.js";
import type { SerpSource } from "./bootstrap.js";
import { type BilingualPageUnits, type PageSnippet, pageSnippets } from "./page-snippets.js";
import type { Annotation, Classifier } from "./types.js";

export interface ClassifierReport {
  size: number;
  positives: number;
  negatives: number;
  folds: number;
  seed: number;
  /** W, W+L, W+L+F: each with its best (C, γ) by CV F1, decisions by the SVM's sign. */
  ablation: AblationRow[];
  /** All features at their best (C, γ), deciding by P(bilingual) ≥ threshold as the classifier does. */
  full: CvResult & { C: number; gamma: number; threshold: number };
  /** Errors of `full` by kind of example (the first words of each annotation's `source`). */
  byKind: Array<{ kind: string; label: string; n: number; errors: number }>;
  /** The given model applied to every record (no training on them). */
  model?: CvResult & { modelId: string; threshold: number };
}

/** "composed ecec", "serp", "bitext-user" …: what kind of example an annotation is, for the error table. */
export function annotationKind(a: Annotation): string {
  const s = a.source ?? "";
  if (!s) return a.who ? `annotated by ${a.who}` : "annotated";
  return s
    .split(/[:(]/)[0]!
    .replace(/ (\S+\/)?\S+\.json#\S+$/, "")
    .trim();
}

export function evaluateClassifier(
  annotations: readonly Annotation[],
  options: {
    folds?: number;
    seed?: number;
    grid?: Grid;
    threshold?: number;
    pair?: LanguagePair;
    model?: { path: string; file: ModelFile };
    onStep?: () => void;
  } = {},
): ClassifierReport {
  const folds = options.folds ?? 5;
  const seed = options.seed ?? 1;
  const threshold = options.threshold ?? 0.5;
  const set = featurise(annotations, options.pair ?? EN_ZH);
  const foldOf = foldsOf(annotations, set.labels, folds, seed);
  const rows = ablation(set, { folds, seed, grid: options.grid, onStep: options.onStep, foldOf });
  const best = rows.at(-1)!;
  const cv = crossValidate(set.rows, set.labels, foldOf, { C: best.C, gamma: best.gamma }, { probability: true, threshold });
  const kinds = new Map<string, { kind: string; label: string; n: number; errors: number }>();
  annotations.forEach((a, i) => {
    const kind = annotationKind(a);
    const key = `${a.label}\u0000${kind}`;
    const k = kinds.get(key) ?? { kind, label: a.label, n: 0, errors: 0 };
    k.n++;
    if (cv.predictions[i] !== set.labels[i]) k.errors++;
    kinds.set(key, k);
  });
  const { predictions: _p, ...full } = cv;
  const positives = set.labels.filter(Boolean).length;
  const report: ClassifierReport = {
    size: annotations.length,
    positives,
    negatives: annotations.length - positives,
    folds,
    seed,
    ablation: rows,
    full: { ...full, C: best.C, gamma: best.gamma, threshold },
    byKind: [...kinds.values()].sort((a, b) => a.label.localeCompare(b.label) || a.kind.localeCompare(b.kind)),
  };
  if (options.model) {
    const classifier = createClassifier(options.model.path, options.model.file);
    const predicted = classifier.classify(annotations).map((p) => p.label === "bilingual");
    report.model = { ...summarise(confusion(predicted, set.labels)), modelId: classifier.modelId, threshold: classifier.threshold };
  }
  return report;
}

/** One row of the real-data report: a source of bilingual pages (recall) or of monolingual result records (false positives). */
export interface RealDataRow {
  source: string;
  kind: "bilingual pages" | "monolingual results";
  n: number;
  /** Records labelled bilingual. */
  bilingual: number;
  /** recall for bilingual pages, false-positive rate for monolingual results. */
  rate: number;
}

/**
 * A model on real data, per source: recall on engine-like snippets of real bilingual pages (`pageSnippets`),
 * grouped by the pages' source folder, and the false-positive rate on real monolingual result records,
 * grouped by result-page set. No training happens here: the pages and records are test data.
 */
export function evaluateOnRealData(
  classifier: Classifier,
  pages: readonly BilingualPageUnits[],
  serpSets: ReadonlyArray<{ name: string; records: readonly SerpSource[] }>,
): RealDataRow[] {
  const rows: RealDataRow[] = [];
  const bySource = new Map<string, PageSnippet[]>();
  for (const p of pages) {
    const key = p.source.split("/")[0]!;
    bySource.set(key, [...(bySource.get(key) ?? []), ...pageSnippets(p)]);
  }
  for (const [source, snippets] of [...bySource].sort((x, y) => x[0].localeCompare(y[0]))) {
    const hits = classifier.classify(snippets).filter((p) => p.label === "bilingual").length;
    rows.push({ source, kind: "bilingual pages", n: snippets.length, bilingual: hits, rate: snippets.length ? hits / snippets.length : 0 });
  }
  for (const set of serpSets) {
    const inputs = set.records.map((r) => ({
      query: r.lang === "en" ? parallelText(r.query, "") : parallelText("", r.query),
      title: r.title,
      url: r.url,
      snippet: r.snippet,
    }));
    const fp = classifier.classify(inputs).filter((p) => p.label === "bilingual").length;
    rows.push({
      source: set.name,
      kind: "monolingual results",
      n: inputs.length,
      bilingual: fp,
      rate: inputs.length ? fp / inputs.length : 0,
    });
  }
  return rows;
}
