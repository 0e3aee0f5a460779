import type { Store } from "./db.js";

/** How a result page was fetched: through which proxy (null: direct), by the browser or by plain HTTP. */
export interface FetchTransport {
  proxy: string | null;
  fetchedWith: "browser" | "http";
}

/** Note how a stored fetch was made (run inside the transaction that stored it). */
export function setFetchTransport(store: Store, fetchId: number, t: FetchTransport): void {
  store.sql.prepare("UPDATE fetches SET proxy = ?, fetched_with = ? WHERE id = ?").run(t.proxy, t.fetchedWith, fetchId);
}

/** How a fetch was made; null for an unknown fetch or one stored before this was recorded. */
export function getFetchTransport(store: Store, fetchId: number): FetchTransport | null {
  const row = store.sql.prepare("SELECT proxy, fetched_with FROM fetches WHERE id = ?").get(fetchId) as
    | { proxy: string | null; fetched_with: "browser" | "http" | null }
    | undefined;
  return row?.fetched_with ? { proxy: row.proxy, fetchedWith: row.fetched_with } : null;
}
