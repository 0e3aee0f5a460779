import type { Store } from "./db.js";
import { sql } from "./sql.js";

/** How a result page was fetched: through which proxy (null: direct), by the browser or by plain HTTP. */
export interface FetchTransport {
  proxy: string | null;
  fetchedWith: "browser" | "http";
}

/** Note how a stored fetch was made (run inside the transaction that stored it). */
export async function setFetchTransport(store: Store, fetchId: number, t: FetchTransport): Promise<void> {
  await store.sql.run(sql`UPDATE fetches SET proxy = ${t.proxy}, fetched_with = ${t.fetchedWith} WHERE id = ${fetchId}`);
}

/** How a fetch was made; null for an unknown fetch or one stored before this was recorded. */
export async function getFetchTransport(store: Store, fetchId: number): Promise<FetchTransport | null> {
  const row = await store.sql.get<{ proxy: string | null; fetched_with: "browser" | "http" | null }>(
    sql`SELECT proxy, fetched_with FROM fetches WHERE id = ${fetchId}`,
  );
  return row?.fetched_with ? { proxy: row.proxy, fetchedWith: row.fetched_with } : null;
}
