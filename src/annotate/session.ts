/**
 * An annotation session: which records to show (from the store or a JSONL file, minus those already
 * annotated), in which order (the model's most uncertain first), and where decisions go (appended to the
 * annotations file; with the store, also its `annotation` column).
 */
import { existsSync } from "node:fs";
import {
  annotationKey,
  annotationQuery,
  appendAnnotationLine,
  type Classifier,
  type ClassifierInput,
  type Label,
  prepareRecordText,
  readAnnotations,
  stripHighlights,
} from "../classify/index.js";
import type { ParallelText } from "../language-pair.js";
import { segmentByLanguage, normalizeText, EN_ZH, type LanguagePair } from "../text/index.js";
import { AnnotationQueue, type Decision, type QueueItem } from "./queue.js";

/** A piece of displayed text and its language (null: between segments). */
export interface Piece {
  text: string;
  lang: string | null;
}

export interface RecordView {
  key: string;
  query: ParallelText;
  url: string;
  titlePieces: Piece[];
  snippetPieces: Piece[];
  languageString: string;
  probability: number | null;
}

export interface SessionState {
  record: RecordView | null;
  remaining: number;
  labelled: number;
}

/** Where a decision is stored besides the annotations file (the store's annotation column). */
export interface DecisionSink {
  label(recordId: number, label: Label | null): void | Promise<void>;
}

export interface AnnotationSession {
  state(): SessionState;
  /** Resolves once the decision is in the annotations file and the sink (the store). */
  decide(key: string, decision: Decision): Promise<void>;
  undo(): Promise<void>;
}

/** Cut displayed text into language pieces, keeping every character (spaces between segments too). */
export function languagePieces(text: string, pair: LanguagePair = EN_ZH): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const s of segmentByLanguage(text, pair)) {
    if (s.start > at) pieces.push({ text: text.slice(at, s.start), lang: null });
    pieces.push({ text: s.text, lang: s.lang });
    at = s.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), lang: null });
  return pieces;
}

const LETTERS: Record<string, string> = { en: "E", zh: "C" };

function view(item: QueueItem): RecordView {
  const r = item.record;
  const title = normalizeText(stripHighlights(r.title));
  const snippet = normalizeText(stripHighlights(r.snippet));
  const prepared = prepareRecordText(r);
  return {
    key: item.key,
    query: r.query,
    url: r.url,
    titlePieces: languagePieces(title),
    snippetPieces: languagePieces(snippet),
    languageString: segmentByLanguage(prepared.text)
      .map((s) => LETTERS[s.lang] ?? s.lang)
      .join(""),
    probability: item.probability,
  };
}

export interface SessionOptions {
  /** Records to annotate (store records carry their id). */
  records: ReadonlyArray<ClassifierInput & { recordId?: number; probability?: number | null; model?: string | null }>;
  /** The append-only annotations file. */
  out: string;
  /** Orders records by its uncertainty, and its probability is written with each decision. */
  classifier?: Classifier;
  who: string;
  sink?: DecisionSink;
  now?: () => string;
}

export function createSession(options: SessionOptions): AnnotationSession {
  const done = new Set<string>();
  if (existsSync(options.out)) for (const a of readAnnotations(options.out).annotations) done.add(annotationKey(a));
  const fresh = options.records.filter((r) => !done.has(annotationKey(r)));
  // Reuse a probability the store already holds from this very model; compute the others.
  const modelId = options.classifier?.modelId;
  const known = fresh.map((r) => (modelId && r.model === modelId && typeof r.probability === "number" ? r.probability : null));
  const missing = fresh.flatMap((r, i) => (known[i] === null ? [r] : []));
  const computed = options.classifier ? options.classifier.classify(missing).map((p) => p.probability) : [];
  let c = 0;
  const items: QueueItem[] = fresh.map((r, i) => {
    const probability = known[i] ?? (options.classifier ? computed[c++]! : null);
    const record: ClassifierInput = { query: r.query, title: r.title, url: r.url, snippet: r.snippet };
    return { key: annotationKey(r), record, probability, ...(r.recordId !== undefined ? { recordId: r.recordId } : {}) };
  });
  const queue = new AnnotationQueue(items);
  const now = options.now ?? (() => new Date().toISOString());

  const line = (item: QueueItem, extra: Record<string, unknown>) => ({
    ...item.record,
    query: annotationQuery(item.record.query),
    ...extra,
    who: options.who,
    when: now(),
    ...(item.probability !== null ? { probability: item.probability } : {}),
    ...(modelId ? { model: modelId } : {}),
    ...(item.recordId !== undefined ? { recordId: item.recordId } : {}),
  });

  return {
    state() {
      const item = queue.current();
      return { record: item ? view(item) : null, remaining: queue.remaining, labelled: queue.labelledCount };
    },
    async decide(key, decision) {
      const entry = queue.decide(key, decision);
      if (decision === "skip") return;
      appendAnnotationLine(options.out, line(entry.item, { label: decision }));
      if (entry.item.recordId !== undefined) await options.sink?.label(entry.item.recordId, decision);
    },
    async undo() {
      const entry = queue.undo();
      if (!entry || entry.decision === "skip") return;
      // Append-only: an undo is a line of its own that withdraws the record's label.
      appendAnnotationLine(options.out, line(entry.item, { undo: true }));
      if (entry.item.recordId !== undefined) await options.sink?.label(entry.item.recordId, null);
    },
  };
}
