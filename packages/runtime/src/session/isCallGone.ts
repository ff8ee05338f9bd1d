const goneErrors = new WeakSet<object>();

/** Marks an error as "one of the call's own channels is gone" (done by the session). */
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
