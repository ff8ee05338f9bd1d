import type { StasisStart } from '@ringflow/client';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { assignmentKey } from '../EventSubjects.ts';
import type { JetStreamCallStore } from '../JetStreamCallStore.ts';
import type { JetStreamEventFeed } from '../JetStreamEventFeed.ts';

/**
 * Offers the application again the new calls refused while this worker was fenced that are still
 * assigned to it and that nobody started (no record): with its lease back within a turn or two,
 * the holder never saw it gone and will not assign them to another worker.
 */
export async function offerRefusedCalls(
  refused: readonly StasisStart[],
  parts: {
    readonly assignments: KV;
    readonly store: JetStreamCallStore;
    readonly feed: JetStreamEventFeed;
    readonly serverToken: string;
    readonly logger: Logger;
  },
): Promise<void> {
  const me = parts.store.owner;
  for (const start of refused) {
    const channelId = start.channel.id;
    const entry = await parts.assignments.get(assignmentKey(parts.serverToken, channelId));
    if (entry?.operation !== 'PUT' || entry.string() !== me) continue;
    if (await parts.store.has(channelId)) continue;
    parts.logger.info({ call: channelId }, 'a call refused while this worker was fenced: started now');
    parts.feed.offerAgain(start);
  }
}
