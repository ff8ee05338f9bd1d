import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { isWrongRevision } from '../KvLease.ts';

/**
 * What a lease machine does with a key of a KV bucket: each write names the revision it replaces
 * (NATS 2.9 has no per-key TTL, so a lease is an entry rewritten by revision). A refusal (the
 * entry changed since, or exists already) is an answer, not a failure: `undefined`; any other
 * failure (NATS away, a timeout) is thrown as it came.
 */
export interface LeaseWrites {
  /** Makes the entry; undefined when it exists. */
  create(value: string): Promise<number | undefined>;
  /** Rewrites the entry naming `revision`; undefined when it changed since. */
  update(value: string, revision: number): Promise<number | undefined>;
  /** Deletes the entry if it is still at `revision`; false when it changed since (another's now). */
  remove(revision: number): Promise<boolean>;
}

/** {@link LeaseWrites} on one key of a bucket. */
export function leaseWrites(kv: KV, key: string): LeaseWrites {
  return {
    async create(value) {
      try {
        return await kv.create(key, value);
      } catch (error) {
        if (isRefusal(error)) return undefined;
        throw error;
      }
    },
    async update(value, revision) {
      try {
        return await kv.update(key, value, revision);
      } catch (error) {
        if (isRefusal(error)) return undefined;
        throw error;
      }
    },
    async remove(revision) {
      try {
        await kv.delete(key, { previousSeq: revision });
        return true;
      } catch (error) {
        if (isRefusal(error)) return false;
        throw error;
      }
    },
  };
}

/** The entry changed since the revision named, or exists already (nats.js words it either way). */
function isRefusal(error: unknown): boolean {
  return (
    isWrongRevision(error) || /wrong last sequence|key exists/i.test((error as Error | null)?.message ?? '')
  );
}

/**
 * Logs a failure once per kind (its message): a lease's turns fail every few hundred ms while
 * NATS is away, and one line says it. Returns the kind to remember.
 */
export function reportOnce(
  logger: Logger,
  last: string | undefined,
  error: unknown,
  message: string,
  fields: Record<string, unknown> = {},
): string {
  const kind = (error as Error | null)?.message ?? String(error);
  if (kind !== last) logger.warn({ err: error, ...fields }, message);
  return kind;
}
