import type { Application, CallRecord } from '@ringflow/runtime';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { assignmentKey } from '../EventSubjects.ts';
import type { JetStreamCallStore } from '../JetStreamCallStore.ts';
import type { JetStreamEventFeed } from '../JetStreamEventFeed.ts';
import { moveAssignment } from './moveAssignment.ts';

/**
 * The calls the application restored from the store when it started (those
 * `ClassicCluster.restoreAtStart` picks: this worker's own, from a process of the same name that
 * stopped, and gone workers') whose channels are still assigned to another worker: their
 * channels are moved here and their events since the feed started replayed, as for a takeover
 * (`JetStreamEventFeed.replayTakenOver`), so that the holder publishes their events here. Resolves
 * with how many calls moved.
 */
export async function adoptRestoredCalls(
  app: Application,
  parts: {
    readonly store: JetStreamCallStore;
    readonly feed: JetStreamEventFeed;
    readonly assignments: KV;
    readonly serverToken: string;
    /** The stream's last sequence before the application restored its calls. */
    readonly fromSeq: number;
    readonly logger: Logger;
  },
): Promise<number> {
  const { store, feed, assignments, serverToken, fromSeq } = parts;
  const me = store.owner;
  const mine = (await store.listOwners()).filter(
    ({ owner, record }) => owner === me && app.call(record.channelId) !== undefined,
  );
  let moved = 0;
  await Promise.all(
    mine.map(async ({ record }) => {
      let elsewhere = false;
      for (const channel of channelsOf(record)) {
        const entry = await assignments.get(assignmentKey(serverToken, channel));
        if (entry?.operation === 'PUT' && entry.string() === me) continue;
        elsewhere = true;
        await feed.replayTakenOver(channel, record.writtenAt, fromSeq, () =>
          moveAssignment(
            assignments,
            assignmentKey(serverToken, channel),
            me,
            async () => (await store.ownerOf(record.callId)) === me,
          ),
        );
      }
      if (elsewhere) moved++;
    }),
  );
  if (moved > 0)
    parts.logger.info(
      { calls: moved },
      'calls restored at start from other workers: their events come here now',
    );
  return moved;
}

/** A call's own channel and the channels it owns (dial legs). */
export function channelsOf(record: CallRecord): string[] {
  return [record.channelId, ...record.owned.filter((o) => o.kind === 'channel').map((o) => o.id)];
}
