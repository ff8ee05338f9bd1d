import { ErrorCode, RingflowError } from '@ringflow/client';
import {
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { EVENTS_STREAM } from '../EventSubjects.ts';
import { ensureEventsStream } from '../EventsStream.ts';

export const LEASES_BUCKET = 'ringflow-leases';
const ASSIGNMENTS_BUCKET = 'ringflow-assignments';
/** Assignments are needed until the call's first record is written; kept an hour (a long ring). */
const ASSIGNMENT_TTL_MS = 60 * 60 * 1000;

/** What a classic cluster keeps in NATS. */
export interface ClassicBuckets {
  readonly leases: KV;
  readonly assignments: KV;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
}

/**
 * Opens the lease and assignment buckets and the events stream, made when missing; any failure is
 * a configuration error saying which and how to fix the usual one (a lease bucket of another TTL).
 */
export async function openClassicBuckets(
  connection: NatsConnection,
  settings: { readonly ttlMs: number; readonly eventsMaxAgeMs: number; readonly replicas: number },
  /** Told when the events stream exists with other settings than asked (see `ensureEventsStream`). */
  warn: (message: string) => void,
): Promise<ClassicBuckets> {
  const { ttlMs, eventsMaxAgeMs, replicas } = settings;
  try {
    const kvm = new Kvm(connection);
    const leases = await kvm.create(LEASES_BUCKET, {
      history: 1,
      ttl: ttlMs,
      storage: StorageType.File,
      replicas,
    });
    const assignments = await kvm.create(ASSIGNMENTS_BUCKET, {
      history: 1,
      ttl: ASSIGNMENT_TTL_MS,
      storage: StorageType.File,
      replicas,
    });
    const jsm = await jetstreamManager(connection);
    await ensureEventsStream(jsm, eventsMaxAgeMs, replicas, warn);
    return { leases, assignments, jsm, js: jetstream(connection) };
  } catch (error) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `ClassicCluster: cannot open the lease bucket, the assignment bucket or the ${EVENTS_STREAM} stream: ${(error as Error).message} (a lease bucket made with another TTL must be removed first: nats kv del ${LEASES_BUCKET})`,
      { cause: error },
    );
  }
}
