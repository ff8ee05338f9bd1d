import type { KV } from '@nats-io/kv';
import { isWrongRevision } from '../KvLease.ts';

/** Rivals' writes a move gives way to before it gives up (each one moved the channel since). */
const MAX_TRIES = 5;

/**
 * Assigns a channel to `me` for as long as `stillMine()` says this worker owns the channel's call
 * (by the store): written at the revision read, so that of two workers that took the call one
 * after the other (a rolling restart: a process starting claims every call), a late write of the
 * first cannot undo the second's; the second, refused, reads again and writes. Resolves once the
 * channel is assigned here, or the call is another's.
 */
export async function moveAssignment(
  assignments: KV,
  key: string,
  me: string,
  stillMine: () => Promise<boolean>,
): Promise<void> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const entry = await assignments.get(key);
    if (entry?.operation === 'PUT' && entry.string() === me) return;
    if (!(await stillMine())) return;
    try {
      if (entry) await assignments.update(key, me, entry.revision);
      else await assignments.create(key, me);
      return;
    } catch (error) {
      // Another worker wrote it since it was read: read again.
      if (!isWrongRevision(error) && !/key exists/i.test((error as Error | null)?.message ?? '')) throw error;
    }
  }
}
