/**
 * Where a store is: the path of a SQLite file, or a PostgreSQL connection URL. Pure, so settings code can
 * tell them apart (a URL is not resolved against the config file's folder) without loading a driver.
 */

/** Is this store location a PostgreSQL connection URL rather than a SQLite file? */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL as shown in messages: never with its password. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ":***@");
  }
}
