const goneErrors = new WeakSet<object>();

/**
 * Errors of requests that failed because the call they were made for is gone: kept here, in the
 * package every other one depends on, so that the runtime (which marks them) and the flows
 * (which treat them as the caller's hang-up, not as failures) share one rule.
 */

/** Marks an error as "one of the call's own channels is gone" (done by the runtime's session). */
export function markCallGone(error: unknown): void {
  if (typeof error === 'object' && error !== null) goneErrors.add(error);
}

/**
 * True when a request failed because one of the call's own channels no longer exists (the caller
 * hung up). The session has already sent `call.gone` to the machine; helpers treat it as an
 * ordinary outcome, not as a failure.
 *
 * @example
 * try { await call.channel.answer(); } catch (e) { if (!isCallGone(e)) throw e; }
 */
export function isCallGone(error: unknown): boolean {
  return typeof error === 'object' && error !== null && goneErrors.has(error);
}
