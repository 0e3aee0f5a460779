import type { Store } from "./db.js";
import { sql } from "./sql.js";

/**
 * The aggregates `bitext report` draws: records by engine and classifier label, sentence pairs kept and rejected
 * (by the quality scorer's reasons when the store has them), and the wrapper versions stored per engine.
 */

export interface LabelCount {
  engine: string;
  /** "bilingual", "monolingual", or "unclassified". */
  label: string;
  records: number;
}

export async function recordLabelCounts(store: Store): Promise<LabelCount[]> {
  const rows = await store.sql.all<{ engine: string; label: string; n: number }>(
    sql`SELECT engine, coalesce(label, 'unclassified') AS label, count(*) AS n FROM records
        GROUP BY engine, coalesce(label, 'unclassified') ORDER BY engine`,
  );
  return rows.map((r) => ({ engine: r.engine, label: r.label, records: Number(r.n) }));
}

export interface PairOutcomes {
  total: number;
  /** False when the store's pairs carry no quality verdict (no `reasons` column, or none scored yet). */
  scored: boolean;
  kept: number;
  /** Rejected pairs by the rule that rejected them (a pair rejected by two rules counts under each). */
  rejected: Array<{ reason: string; pairs: number }>;
  rejectedPairs: number;
}

/**
 * Pairs kept and rejected: `sentence_pairs.reasons` is the scorer's JSON array of the rules a pair failed ('[]':
 * kept; NULL: not scored). A store without that column (from before the quality scorer) has pairs only.
 */
export async function pairOutcomes(store: Store): Promise<PairOutcomes> {
  const total = Number((await store.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM sentence_pairs`))!.n);
  let rows: Array<{ reasons: string | null; n: number }>;
  try {
    rows = await store.sql.all<{ reasons: string | null; n: number }>(
      sql`SELECT reasons, count(*) AS n FROM sentence_pairs GROUP BY reasons`,
    );
  } catch {
    return { total, scored: false, kept: total, rejected: [], rejectedPairs: 0 }; // no reasons column in this store
  }
  let kept = 0;
  let rejectedPairs = 0;
  let scored = 0;
  const byReason = new Map<string, number>();
  for (const r of rows) {
    const n = Number(r.n);
    if (r.reasons === null) continue;
    scored += n;
    const reasons = parseReasons(r.reasons);
    if (reasons.length === 0) kept += n;
    else {
      rejectedPairs += n;
      for (const reason of reasons) byReason.set(reason, (byReason.get(reason) ?? 0) + n);
    }
  }
  if (scored === 0) return { total, scored: false, kept: total, rejected: [], rejectedPairs: 0 };
  const rejected = [...byReason].map(([reason, pairs]) => ({ reason, pairs })).sort((a, b) => b.pairs - a.pairs);
  return { total, scored: true, kept, rejected, rejectedPairs };
}

function parseReasons(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(String) : [String(v)];
  } catch {
    return [json];
  }
}

export interface WrapperVersion {
  engine: string;
  version: number;
  createdAt: string;
}

/** Wrapper versions stored for the workers of distributed harvests, oldest first. */
export async function listWrapperVersions(store: Store): Promise<WrapperVersion[]> {
  const rows = await store.sql.all<{ engine: string; version: number; created_at: string }>(
    sql`SELECT engine, version, created_at FROM wrappers ORDER BY created_at, engine`,
  );
  return rows.map((r) => ({ engine: r.engine, version: Number(r.version), createdAt: r.created_at }));
}
