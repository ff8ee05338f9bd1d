import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { channelSubjects, EVENTS_STREAM, HANDOVER_HEADER, subjectParts } from './EventSubjects.ts';
import { natsToken } from './natsToken.ts';

/** What {@link readTakenOverEvents} reads. */
export interface TakenOverChannel {
  readonly js: JetStreamClient;
  readonly serverToken: string;
  /** This worker, the call's new one. */
  readonly me: string;
  readonly channelId: string;
  /** When the call's record was written (stream time): the keys pressed since are replayed. */
  readonly sinceMs: number;
  /**
   * The stream's last sequence before the call was claimed: every event of the channel after it
   * is replayed (the restored call checked on the server what happened before).
   */
  readonly fromSeq: number;
  /** True once reading should stop without the switch (a gap marker: the holder changed). */
  readonly cancelled: () => boolean;
  /** How long to wait for the switch after the last message read (counted in reads that found none). */
  readonly timeoutMs: number;
  /** How many reads at most (the holder may never learn the move: its watch broken). */
  readonly maxReads: number;
}

/** How long one read waits for the next message before the loop looks at the deadline again. */
const READ_WAIT_MS = 1_000;

/**
 * The events of a channel taken over from a gone worker that the holder published for another
 * worker, read from the stream up to the **switch**: the first message of the channel published
 * for this worker after the claim (the holder's hand-over marker, or an event when the holder
 * already knew). The holder publishes in order, so every event before the switch went to the
 * worker before and every one after comes to this worker's own feed: none is lost, none given
 * twice. Before `fromSeq` only keys pressed are kept (the server does not keep them; the rest
 * the restored call asked the server about); from `fromSeq` on, every event. Reading stops at
 * the switch, when `cancelled` (a gap marker: every call reconciles anyway) or when nothing came
 * for `timeoutMs` or after `maxReads` messages (the holder did not learn the move in time: what
 * was read is given, and the caller logs it).
 */
export async function readTakenOverEvents(
  channel: TakenOverChannel,
): Promise<{ readonly events: object[]; readonly switched: boolean }> {
  const { js, me, sinceMs, fromSeq } = channel;
  const mine = natsToken(me);
  const consumer = await js.consumers.get(EVENTS_STREAM, {
    filter_subjects: channelSubjects(channel.serverToken, channel.channelId),
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: new Date(sinceMs).toISOString(),
  });
  const events: object[] = [];
  let idle = 0;
  let reads = 0;
  let switched = false;
  try {
    while (!channel.cancelled() && idle * READ_WAIT_MS < channel.timeoutMs && reads++ < channel.maxReads) {
      const msg = await consumer.next({ expires: READ_WAIT_MS });
      if (!msg) {
        idle++;
        continue;
      }
      idle = 0;
      const { worker } = subjectParts(msg.subject);
      if (worker === mine) {
        if (msg.seq > fromSeq) {
          switched = true;
          break;
        }
        continue;
      }
      if (msg.headers?.has(HANDOVER_HEADER)) continue;
      const event = msg.json<{ type?: unknown }>();
      if (msg.seq > fromSeq || event.type === 'ChannelDtmfReceived') events.push(event);
    }
  } finally {
    // An ordered consumer: the server drops it by itself after a while if this delete fails.
    await consumer.delete().catch(() => {});
  }
  return { events, switched };
}
