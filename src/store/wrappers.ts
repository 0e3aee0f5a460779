import { nowIso, type Store } from "./db.js";
import { sql } from "./sql.js";

/**
 * Wrappers shared through the store: the workers of a distributed harvest read an engine's latest wrapper
 * from here and store a re-learned one as the next version. Versions are compare-and-set: of two workers
 * re-learning from the same version at once exactly one wins, and the other adopts the winner's wrapper.
 */

export interface StoredWrapper {
  engine: string;
  /** 1 for the first wrapper stored for the engine, then one more per re-learn. */
  version: number;
  /** The wrapper, as its JSON text. */
  json: string;
  createdAt: string;
}

export type SaveWrapperOutcome =
  | { won: true; version: number }
  /** Another worker stored this version first: `latest` is the wrapper to use now. */
  | { won: false; latest: StoredWrapper };

/**
 * Store `json` as the engine's wrapper following `expectedVersion` (0: the engine has none yet). Wins when
 * no other wrapper followed that version; otherwise leaves the store as it is and returns the latest one.
 */
export async function saveWrapper(store: Store, engine: string, json: string, expectedVersion: number): Promise<SaveWrapperOutcome> {
  if (!Number.isInteger(expectedVersion) || expectedVersion < 0) throw new RangeError(`saveWrapper: expectedVersion ${expectedVersion}`);
  const version = expectedVersion + 1;
  const inserted = await store.sql.get(
    sql`INSERT INTO wrappers (engine, version, json, created_at)
       SELECT ${engine}, ${version}, ${json}, ${nowIso()} WHERE (SELECT coalesce(max(version), 0) FROM wrappers WHERE engine = ${engine}) = ${expectedVersion}
       ON CONFLICT (engine, version) DO NOTHING RETURNING version`,
  );
  if (inserted !== undefined) return { won: true, version };
  const latest = await latestWrapper(store, engine);
  if (!latest) throw new Error(`saveWrapper: version ${version} of ${engine} conflicted but none is stored`);
  return { won: false, latest };
}

/** The engine's latest stored wrapper, or null when none was stored. */
export async function latestWrapper(store: Store, engine: string): Promise<StoredWrapper | null> {
  const row = await store.sql.get<{ engine: string; version: number; json: string; created_at: string }>(
    sql`SELECT engine, version, json, created_at FROM wrappers WHERE engine = ${engine} ORDER BY version DESC LIMIT 1`,
  );
  return row ? { engine: row.engine, version: row.version, json: row.json, createdAt: row.created_at } : null;
}
