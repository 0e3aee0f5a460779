import type { ParallelText } from "../language-pair.js";

/** The types that cross the classifier's boundary (harvest, the CLI, the annotation UI). */

/** What the classifier sees of a search-engine result record. */
export interface ClassifierInput {
  /** The parallel query pair the record was found with (either side may be empty). */
  query: ParallelText;
  title: string;
  url: string;
  snippet: string;
}

export type Label = "bilingual" | "monolingual";

export interface Prediction {
  label: Label;
  /** Probability that the linked page is bilingual (libsvm's Platt-scaled estimate). */
  probability: number;
}

export interface Classifier {
  /** Identifies the model file's content (name@hash): stored with every decision. */
  readonly modelId: string;
  /** The probability at or above which a record is labelled bilingual. */
  readonly threshold: number;
  classify(inputs: readonly ClassifierInput[]): Prediction[];
}

/** An annotated record: a line of `data/annotations.jsonl` or `data/annotations.bootstrap.jsonl`. */
export interface Annotation extends ClassifierInput {
  label: Label;
  /** Who labelled it ("bootstrap", a user name, …). */
  who?: string;
  /** ISO time of the decision. */
  when?: string;
  /** Where the example comes from (bootstrap set: the real data it was built from). */
  source?: string;
  /** The model's probability when the annotator saw it. */
  probability?: number;
  model?: string;
  /** The store record id, when annotated from the store. */
  recordId?: number;
}
