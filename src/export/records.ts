/**
 * Harvested result records as export lines: JSON objects or CSV rows (RFC 4180), one per stored record.
 */
import type { StoredRecord } from "../store/index.js";

/** The CSV header, in column order. */
export const CSV_COLUMNS = [
  "id",
  "engine",
  "query_en",
  "query_zh",
  "rank",
  "page",
  "url",
  "title",
  "snippet",
  "first_seen",
  "last_seen",
  "seen_count",
  "label",
  "probability",
  "model",
  "annotation",
] as const;

/** A record as one JSON line's object (the export's stable field names). */
export function jsonRecord(r: StoredRecord): Record<string, unknown> {
  return {
    id: r.id,
    engine: r.engine,
    query: { en: r.query.source.text, zh: r.query.target.text }, // the export format predates other pairs
    rank: r.rank,
    page: r.page,
    url: r.url,
    title: r.title,
    snippet: r.snippet,
    firstSeen: r.firstSeen,
    lastSeen: r.lastSeen,
    seenCount: r.seenCount,
    label: r.label,
    probability: r.probability,
    model: r.model,
    annotation: r.annotation,
  };
}

/** A record as one CSV row (no line break). */
export function csvRow(r: StoredRecord): string {
  const values = [
    r.id,
    r.engine,
    r.query.source.text,
    r.query.target.text,
    r.rank,
    r.page,
    r.url,
    r.title,
    r.snippet,
    r.firstSeen,
    r.lastSeen,
    r.seenCount,
    r.label,
    r.probability,
    r.model,
    r.annotation,
  ];
  return values.map(csvField).join(",");
}

/** RFC 4180: quote fields holding a comma, quote or line break; double the quotes. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
