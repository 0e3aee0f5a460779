import { LEGACY_COLUMNS } from "../language-pair.js";
import type { Store } from "./db.js";
import { raw, sql } from "./sql.js";

const T = LEGACY_COLUMNS.text;
const N = LEGACY_COLUMNS.norm;

/** A sentence pair extracted from a stored page. */
export interface SentencePairInput {
  en: string;
  zh: string;
  score?: number | null;
  /** How it was found (e.g. "seed", "wrapper", "rwr"). */
  method?: string | null;
  /** Normalised forms: the corpus is deduplicated on (enNorm, zhNorm). */
  enNorm: string;
  zhNorm: string;
  /** The languages of the two sides (the pair's codes). */
  srcLang?: string | null;
  tgtLang?: string | null;
  /** The pair scorer's probability of translation, and the rules against the pair ([] when kept); null: not scored. */
  quality?: number | null;
  reasons?: readonly string[] | null;
}

export interface StoredSentencePair extends SentencePairInput {
  id: number;
  pageId: number;
  score: number | null;
  method: string | null;
}

/** One corpus entry: a distinct (enNorm, zhNorm) with every page it came from. */
export interface CorpusPair {
  en: string;
  zh: string;
  enNorm: string;
  zhNorm: string;
  /** The best score among its occurrences (null if none was scored). */
  score: number | null;
  methods: string[];
  /** Every source page URL, in page-id order. */
  urls: string[];
  /** The stored pages it came from (ids), in order. */
  pageIds: number[];
  occurrences: number;
  /** The best quality among its occurrences, and that occurrence's reasons (null: not scored). */
  quality: number | null;
  reasons: string[] | null;
}

/** Replace the pairs extracted from a page (re-extraction never duplicates). */
export async function replacePairs(store: Store, pageId: number, pairs: readonly SentencePairInput[]): Promise<void> {
  const db = store.sql;
  const columns = raw(`${T.source}, ${T.target}, score, method, ${N.source}, ${N.target}`);
  await db.transaction(async () => {
    await db.run(sql`DELETE FROM sentence_pairs WHERE page_id = ${pageId}`);
    for (const p of pairs) {
      const reasons = p.reasons ? JSON.stringify(p.reasons) : null;
      await db.run(
        sql`INSERT INTO sentence_pairs (page_id, ${columns}, src_lang, tgt_lang, quality, reasons)
           VALUES (${pageId}, ${p.en}, ${p.zh}, ${p.score ?? null}, ${p.method ?? null}, ${p.enNorm}, ${p.zhNorm},
             ${p.srcLang ?? null}, ${p.tgtLang ?? null}, ${p.quality ?? null}, ${reasons})`,
      );
    }
  });
}

/** A stored pair to score: its id and texts. */
export interface UnscoredPair {
  id: number;
  en: string;
  zh: string;
}

/** Stored pairs without a quality score (extracted before the scorer, or by a store before migration 6). */
export function listUnscoredPairs(store: Store): Promise<UnscoredPair[]> {
  return store.sql.all<UnscoredPair>(
    sql`SELECT id, ${raw(T.source)} AS en, ${raw(T.target)} AS zh FROM sentence_pairs WHERE quality IS NULL ORDER BY id`,
  );
}

/** Record the scorer's verdicts on stored pairs, in one transaction. */
export async function setPairQualities(
  store: Store,
  verdicts: ReadonlyArray<{ id: number; quality: number; reasons: readonly string[] }>,
): Promise<void> {
  await store.sql.transaction(async () => {
    for (const v of verdicts) {
      await store.sql.run(sql`UPDATE sentence_pairs SET quality = ${v.quality}, reasons = ${JSON.stringify(v.reasons)} WHERE id = ${v.id}`);
    }
  });
}

export async function listPagePairs(store: Store, pageId: number): Promise<StoredSentencePair[]> {
  const rows = await store.sql.all<{
    id: number;
    page_id: number;
    en: string;
    zh: string;
    score: number | null;
    method: string | null;
    en_norm: string;
    zh_norm: string;
  }>(sql`SELECT id, page_id, en, zh, score, method, en_norm, zh_norm FROM sentence_pairs WHERE page_id = ${pageId} ORDER BY id`);
  return rows.map((r) => ({
    id: r.id,
    pageId: r.page_id,
    en: r.en,
    zh: r.zh,
    score: r.score,
    method: r.method,
    enNorm: r.en_norm,
    zhNorm: r.zh_norm,
  }));
}

/**
 * The corpus: pairs deduplicated on (enNorm, zhNorm), each with the text of its best-scored occurrence
 * and every source URL. Ordered by best score (unscored last), then text.
 */
export async function listCorpusPairs(store: Store, filter: { minScore?: number } = {}): Promise<CorpusPair[]> {
  // The text is that of the best-scored occurrence (the first stored among equals). A pair's sources are the
  // pages it came from: where a redirect led (an engine's link?url=…), not the redirect link.
  const best = (column: string) =>
    raw(`(SELECT b.${column} FROM sentence_pairs b WHERE b.en_norm = sp.en_norm AND b.zh_norm = sp.zh_norm
       ORDER BY b.score IS NULL, b.score DESC, b.id LIMIT 1)`);
  // SQLite's json_group_array is PostgreSQL's json_agg.
  const agg = raw(store.sql.backend === "sqlite" ? "json_group_array" : "json_agg");
  const rows = await store.sql.all<{
    en: string;
    zh: string;
    en_norm: string;
    zh_norm: string;
    score: number | null;
    methods: string;
    occurrences: number;
    urls: string;
    quality: number | null;
    reasons: string | null;
    page_ids: string;
  }>(
    sql`SELECT ${best("en")} AS en, ${best("zh")} AS zh, sp.en_norm AS en_norm, sp.zh_norm AS zh_norm, max(sp.score) AS score,
              ${agg}(DISTINCT sp.method) AS methods, count(*) AS occurrences,
              (SELECT ${agg}(u.url ORDER BY u.first_id) FROM (
                 SELECT coalesce(p2.final_url, p2.url) AS url, min(p2.id) AS first_id FROM sentence_pairs s2
                 JOIN pages p2 ON p2.id = s2.page_id
                 WHERE s2.en_norm = sp.en_norm AND s2.zh_norm = sp.zh_norm
                 GROUP BY coalesce(p2.final_url, p2.url)) u) AS urls,
              max(sp.quality) AS quality,
              (SELECT q.reasons FROM sentence_pairs q WHERE q.en_norm = sp.en_norm AND q.zh_norm = sp.zh_norm
                ORDER BY q.quality IS NULL, q.quality DESC, q.id LIMIT 1) AS reasons,
              (SELECT ${agg}(pp.page_id) FROM (
                 SELECT s3.page_id AS page_id FROM sentence_pairs s3 WHERE s3.en_norm = sp.en_norm AND s3.zh_norm = sp.zh_norm
                 GROUP BY s3.page_id ORDER BY s3.page_id) pp) AS page_ids
       FROM sentence_pairs sp
       GROUP BY sp.en_norm, sp.zh_norm
       ${filter.minScore !== undefined ? sql`HAVING max(sp.score) >= ${filter.minScore}` : raw("")}
       ORDER BY max(sp.score) IS NULL, max(sp.score) DESC, sp.en_norm, sp.zh_norm`,
  );
  return rows.map((r) => ({
    en: r.en,
    zh: r.zh,
    enNorm: r.en_norm,
    zhNorm: r.zh_norm,
    score: r.score,
    methods: (JSON.parse(r.methods) as Array<string | null>).filter((m): m is string => m !== null),
    urls: JSON.parse(r.urls) as string[],
    pageIds: (JSON.parse(r.page_ids) as Array<number | string>).map(Number),
    occurrences: r.occurrences,
    quality: r.quality,
    reasons: r.reasons === null ? null : (JSON.parse(r.reasons) as string[]),
  }));
}
