import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { EVENTS_STREAM, EVENTS_SUBJECTS } from './EventSubjects.ts';

/** How long the stream remembers a `Nats-Msg-Id` (de-duplication around a holder hand-over). */
const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

/** True when JetStream answered that the stream does not exist (any other failure is not that). */
export function isStreamNotFound(error: unknown): boolean {
  return (
    (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) ||
    (error as Error | null)?.message === 'stream not found'
  );
}

/**
 * Makes the events stream when it is missing (limits retention, file storage, de-duplication,
 * `replicas` copies in a NATS cluster: default 1);
 * resolves with whether it made it. Only "stream not found" leads to making it: any other failure
 * (NATS or JetStream not answering, no permission) is thrown as it came.
 *
 * @example
 * await ensureEventsStream(jsm, 10 * 60 * 1000);
 */
export async function ensureEventsStream(
  jsm: JetStreamManager,
  maxAgeMs: number,
  replicas = 1,
): Promise<boolean> {
  try {
    await jsm.streams.info(EVENTS_STREAM);
    return false;
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
  }
  try {
    await jsm.streams.add({
      name: EVENTS_STREAM,
      subjects: [EVENTS_SUBJECTS],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: maxAgeMs * 1_000_000,
      duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
      num_replicas: replicas,
    });
  } catch (error) {
    // Another process made it at the same time: it is there now.
    await jsm.streams.info(EVENTS_STREAM).catch(() => {
      throw error;
    });
    return false;
  }
  return true;
}
