import { nowIso, type Store } from "./db.js";

/**
 * What `auto` fetching learned of an engine: its result pages come only through the browser (the HTML it
 * serves gives no records: script-built, consent, block). Remembered per engine, so later runs do not download
 * each page twice; forgotten after `maxAgeMs` (engines change), when HTTP is tried again.
 */

/** Why the engine needs the browser, if that was noted within `maxAgeMs`; null otherwise. */
export function engineNeedsBrowser(store: Store, engine: string, maxAgeMs: number, now: number = Date.now()): string | null {
  const row = store.sql.prepare("SELECT reason, noted_at FROM engine_needs_browser WHERE engine = ?").get(engine) as
    | { reason: string; noted_at: string }
    | undefined;
  return row && now - Date.parse(row.noted_at) <= maxAgeMs ? row.reason : null;
}

export function noteEngineNeedsBrowser(store: Store, engine: string, reason: string): void {
  store.sql
    .prepare(
      `INSERT INTO engine_needs_browser (engine, reason, noted_at) VALUES (?, ?, ?)
       ON CONFLICT (engine) DO UPDATE SET reason = excluded.reason, noted_at = excluded.noted_at`,
    )
    .run(engine, reason, nowIso());
}
