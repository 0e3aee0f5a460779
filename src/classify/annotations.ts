/** Annotation files: JSONL, one annotated record a line (see `Annotation`). Appended to, never rewritten. */
import { type ParallelText, parallelText } from "../language-pair.js";
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { assertWritable } from "../paths.js";
import { dirname } from "node:path";
import { inputError } from "../errors.js";
import { readUserTextFile } from "../io/index.js";
import type { Annotation, ClassifierInput, Label } from "./types.js";

const LABELS: readonly Label[] = ["bilingual", "monolingual"];

function str(where: { file: string; line: number }, o: Record<string, unknown>, field: string, optional = false): string {
  const v = o[field];
  if (v === undefined && optional) return "";
  if (typeof v !== "string") throw inputError({ ...where, field }, v === undefined ? "missing" : "expected a string");
  return v;
}

/** Parse one record of the classifier's input shape (stdin of `bitext classify`, annotation lines). */
export function parseClassifierInput(where: { file: string; line: number }, o: unknown): ClassifierInput & Record<string, unknown> {
  if (typeof o !== "object" || o === null || Array.isArray(o)) throw inputError(where, "expected a JSON object");
  const rec = o as Record<string, unknown>;
  const q = rec.query;
  if (typeof q !== "object" || q === null) throw inputError({ ...where, field: "query" }, 'expected {"en": …, "zh": …}');
  const query = q as Record<string, unknown>;
  for (const side of ["en", "zh"]) {
    if (query[side] !== undefined && typeof query[side] !== "string")
      throw inputError({ ...where, field: `query.${side}` }, "expected a string");
  }
  return {
    ...rec,
    // The file format names the sides en/zh (source/target of the default pair).
    query: parallelText((query.en as string | undefined) ?? "", (query.zh as string | undefined) ?? ""),
    title: str(where, rec, "title", true),
    url: str(where, rec, "url", true),
    snippet: str(where, rec, "snippet"),
  };
}

/** Parse an annotations file. Later lines for the same record (same query, url, snippet) override earlier ones (undo/relabel). */
export function parseAnnotations(file: string, text: string): Annotation[] {
  const byKey = new Map<string, Annotation>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const where = { file, line: i + 1 };
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      throw inputError(where, "not valid JSON");
    }
    const rec = parseClassifierInput(where, o);
    const label = rec.label;
    const key = annotationKey(rec);
    // An undo line: {"undo": true, …record…} withdraws the record's label.
    if (rec.undo === true) {
      byKey.delete(key);
      continue;
    }
    if (!LABELS.includes(label as Label)) throw inputError({ ...where, field: "label" }, 'expected "bilingual" or "monolingual"');
    byKey.delete(key);
    byKey.set(key, rec as unknown as Annotation);
  }
  return [...byKey.values()];
}

/** The query as annotation files write it: `{"en": source, "zh": target}` (the format predates other pairs). */
export function annotationQuery(q: ParallelText): { en: string; zh: string } {
  return { en: q.source.text, zh: q.target.text };
}

export function annotationKey(r: ClassifierInput): string {
  return JSON.stringify([r.query.source.text, r.query.target.text, r.url, r.title, r.snippet]);
}

/** An annotation line is one record (query, title, url, snippet, label): far under this. */
const MAX_ANNOTATION_LINE = 1_000_000;

export function readAnnotations(file: string): { annotations: Annotation[]; sha256: string } {
  const text = readUserTextFile(file, { what: "annotations file", maxLineLength: MAX_ANNOTATION_LINE });
  return { annotations: parseAnnotations(file, text), sha256: createHash("sha256").update(text).digest("hex") };
}

/** Append one line to an annotations file and flush it to disk (a crash loses at most the line being written). */
export function appendAnnotationLine(file: string, line: Record<string, unknown>): void {
  assertWritable(file);
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(line)}\n`);
  const fd = openSync(file, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
