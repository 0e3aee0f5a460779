/**
 * What a page loader (the browser driver, the HTTP path) is asked with a load, and the engine's lease it takes
 * right before the request leaves (`RequestPacer`: see `request-pacer.ts`).
 */

export interface LoadOptions {
  /** Keep the page's bytes (`body`). */
  keepBody?: boolean;
  /**
   * Awaited right before the request leaves, after everything the loader prepares (the browser, the engine's
   * context, a tab): the engine's lease (`RequestPacer`). A loader awaits nothing else between it and the
   * request. False: nothing is sent (the caller stopped waiting for its turn) and the load fails, for the caller
   * to drop; an error it throws (the pacer's) is the loader's caller's, not a failure of the engine.
   */
  beforeSend?: () => Promise<boolean>;
}

/** The load's `beforeSend` said not to send: the request never left. */
export class RequestNotSent extends Error {
  constructor(url: string) {
    super(`not sent: the run stopped while the request waited for the engine's turn (${url})`);
  }
}

/**
 * Take the engine's lease for a load (`LoadOptions.beforeSend`). Throws `RequestNotSent` when the caller said
 * not to send.
 */
export async function leaseBeforeSend(options: LoadOptions, url: string): Promise<void> {
  if (options.beforeSend && !(await options.beforeSend())) throw new RequestNotSent(url);
}

/** An error of the lease, not of the request (the request never left): the loader's caller's to handle. */
export function isLeaseError(err: unknown, sent: boolean): boolean {
  return !sent && !(err instanceof RequestNotSent);
}
