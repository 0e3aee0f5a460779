import { nowIso, type Store } from "./db.js";
import { sql } from "./sql.js";

/**
 * What `auto` fetching learned of an engine: its result pages come only through the browser (the HTML it
 * serves gives no records: script-built, consent, block). Remembered per engine, so later runs do not download
 * each page twice; forgotten after `maxAgeMs` (engines change), when HTTP is tried again.
 */

/** Why the engine needs the browser, if that was noted within `maxAgeMs`; null otherwise. */
export async function engineNeedsBrowser(store: Store, engine: string, maxAgeMs: number, now: number = Date.now()): Promise<string | null> {
  const row = await store.sql.get<{ reason: string; noted_at: string }>(
    sql`SELECT reason, noted_at FROM engine_needs_browser WHERE engine = ${engine}`,
  );
  return row && now - Date.parse(row.noted_at) <= maxAgeMs ? row.reason : null;
}

export async function noteEngineNeedsBrowser(store: Store, engine: string, reason: string): Promise<void> {
  await store.sql.run(
    sql`INSERT INTO engine_needs_browser (engine, reason, noted_at) VALUES (${engine}, ${reason}, ${nowIso()})
       ON CONFLICT (engine) DO UPDATE SET reason = excluded.reason, noted_at = excluded.noted_at`,
  );
}
