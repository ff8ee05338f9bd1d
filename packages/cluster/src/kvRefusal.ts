/** JetStream's "wrong last sequence": a write naming another revision than the entry's. */
const WRONG_LAST_SEQUENCE = 10071;

/**
 * True when a KV write was refused because the entry is not as the writer named it: it changed
 * since the revision given, or it exists already (a `create`; nats.js words that either as
 * "wrong last sequence" or as "key exists"). Another process wrote the entry: an answer, not a
 * failure. Any other error (NATS away, a permission, a size limit) is not one.
 */
export function isKvRefusal(error: unknown): boolean {
  const e = error as { code?: unknown; api_error?: { err_code?: unknown }; message?: unknown } | null;
  if (e?.code === WRONG_LAST_SEQUENCE || e?.api_error?.err_code === WRONG_LAST_SEQUENCE) return true;
  return /wrong last sequence|key exists/i.test(typeof e?.message === 'string' ? e.message : '');
}
