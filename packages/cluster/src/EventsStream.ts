import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
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

/** The events stream's settings as this process wants them. */
function wantedConfig(maxAgeMs: number, replicas: number) {
  return {
    name: EVENTS_STREAM,
    subjects: [EVENTS_SUBJECTS],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: maxAgeMs * 1_000_000,
    duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
    num_replicas: replicas,
  };
}

/**
 * How an existing stream's settings differ from those wanted, one phrase each (empty when they
 * agree): `replicas 1 (wanted 3)`, ...
 */
export function streamDifferences(
  config: Partial<StreamConfig>,
  wanted: ReturnType<typeof wantedConfig>,
): string[] {
  const differences: string[] = [];
  const compare = (what: string, have: unknown, want: unknown, show: (v: unknown) => string = String) => {
    if (JSON.stringify(have) !== JSON.stringify(want))
      differences.push(`${what} ${show(have)} (wanted ${show(want)})`);
  };
  const ms = (v: unknown) => (typeof v === 'number' ? `${v / 1_000_000} ms` : String(v));
  compare('replicas', config.num_replicas, wanted.num_replicas);
  compare('subjects', config.subjects, wanted.subjects, (v) => JSON.stringify(v));
  compare('storage', config.storage, wanted.storage);
  compare('retention', config.retention, wanted.retention);
  compare('max age', config.max_age, wanted.max_age, ms);
  compare('duplicate window', config.duplicate_window, wanted.duplicate_window, ms);
  return differences;
}

/**
 * Makes the events stream when it is missing (limits retention, file storage, de-duplication,
 * `replicas` copies in a NATS cluster: default 1); resolves with whether it made it. Only
 * "stream not found" leads to making it: any other failure (NATS or JetStream not answering, no
 * permission) is thrown as it came. A stream already there keeps its settings: where they differ
 * from those asked (say `--cluster-replicas 3` on a stream made with 1), `warn` is told which
 * (a stream's replicas are changed with `nats stream edit`). A failure to make it is thrown unless
 * another process made it meanwhile with the settings asked.
 *
 * @example
 * await ensureEventsStream(jsm, 10 * 60 * 1000, 3, (message) => logger.warn(message));
 */
export async function ensureEventsStream(
  jsm: JetStreamManager,
  maxAgeMs: number,
  replicas = 1,
  warn: (message: string) => void = () => {},
): Promise<boolean> {
  const wanted = wantedConfig(maxAgeMs, replicas);
  try {
    const info = await jsm.streams.info(EVENTS_STREAM);
    const differences = streamDifferences(info.config, wanted);
    if (differences.length > 0)
      warn(
        `the ${EVENTS_STREAM} stream exists with other settings than asked, and keeps its own: ${differences.join(', ')}`,
      );
    return false;
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
  }
  try {
    await jsm.streams.add(wanted);
  } catch (error) {
    // Another process made it at the same time: there now, as asked. Anything else: the failure.
    const info = await jsm.streams.info(EVENTS_STREAM).catch(() => undefined);
    if (info === undefined || streamDifferences(info.config, wanted).length > 0) throw error;
    return false;
  }
  return true;
}
