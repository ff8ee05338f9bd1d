import { ErrorCode, RingflowError } from '@ringflow/client';
import type { QueueRevisions, QueueStep, StoredQueueStep } from '@ringflow/runtime';
import { StorageType } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { isWrongRevision } from '../KvLease.ts';
import { natsToken } from '../natsToken.ts';
import { retryWhileUnavailable } from '../retryWhileUnavailable.ts';

/** Options of {@link JetStreamQueueRevisions.open}. */
export interface JetStreamQueueRevisionsOptions {
  /** A connection to NATS with JetStream; used, never closed. */
  readonly connection: NatsConnection;
  /** The key-value bucket (made when missing). Default `ringflow-queues`. */
  readonly bucket?: string;
  /** Copies of the bucket in a NATS cluster (1, 3 or 5). Default 1. */
  readonly replicas?: number;
  /** `file` (default: queues survive a NATS restart) or `memory`. */
  readonly storage?: 'file' | 'memory';
}

const DEFAULT_BUCKET = 'ringflow-queues';
/**
 * Revisions kept per queue: a watch that lost its consumer (a NATS node restarting) starts again
 * after the last revision it delivered, and finds the ones in between still there.
 */
const HISTORY = 16;
/** How long a write NATS cannot answer now (an election, a restart) is tried again. */
const UNAVAILABLE_RETRY_MS = 15_000;

/**
 * The call queues of a cluster in a NATS JetStream key-value bucket (`ringflow-queues`): one
 * entry per queue, `queue.<server>.<name>` (each part a {@link natsToken}), holding the queue's
 * latest step (state and notices) as JSON. Writes name the revision they replace (JetStream's
 * expected last subject sequence), so of two processes changing a queue at once one wins and the
 * other applies its change again on the new state (runtime `SharedQueueStore`). No time to live:
 * a queue lasts as long as the bucket.
 *
 * @example
 * const queueStore = new SharedQueueStore({
 *   revisions: await JetStreamQueueRevisions.open({ connection: store.connection }), clock, logger });
 * createApplication({ ..., store, queueStore });
 */
export class JetStreamQueueRevisions implements QueueRevisions {
  private constructor(private readonly kv: KV) {}

  static async open(options: JetStreamQueueRevisionsOptions): Promise<JetStreamQueueRevisions> {
    const bucket = options.bucket ?? DEFAULT_BUCKET;
    if (!/^[-\w]+$/.test(bucket))
      throw new RingflowError(
        ErrorCode.CONFIG,
        `JetStreamQueueRevisions: bucket "${bucket}" is not a valid bucket name: use letters, digits, - and _.`,
      );
    const replicas = options.replicas ?? 1;
    if (replicas !== 1 && replicas !== 3 && replicas !== 5)
      throw new RingflowError(
        ErrorCode.CONFIG,
        `JetStreamQueueRevisions: replicas is ${String(replicas)}: give 1, 3 or 5 (copies in a NATS cluster).`,
      );
    try {
      const kv = await retryWhileUnavailable(
        () =>
          new Kvm(options.connection).create(bucket, {
            history: HISTORY,
            storage: options.storage === 'memory' ? StorageType.Memory : StorageType.File,
            replicas,
          }),
        UNAVAILABLE_RETRY_MS,
      );
      return new JetStreamQueueRevisions(kv);
    } catch (error) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `JetStreamQueueRevisions: cannot open the key-value bucket "${bucket}": ${(error as Error).message} (it needs JetStream on the NATS server: nats-server -js; replicas above 1 need a NATS cluster)`,
        { cause: error },
      );
    }
  }

  async create(server: string, name: string, step: QueueStep): Promise<boolean> {
    try {
      await retryWhileUnavailable(
        () => this.kv.create(queueKey(server, name), JSON.stringify(step)),
        UNAVAILABLE_RETRY_MS,
      );
      return true;
    } catch (error) {
      if (isWrongRevision(error) || /wrong last sequence|key exists/i.test((error as Error).message))
        return false;
      throw error;
    }
  }

  async update(server: string, name: string, step: QueueStep, revision: number): Promise<number | undefined> {
    try {
      return await retryWhileUnavailable(
        () => this.kv.update(queueKey(server, name), JSON.stringify(step), revision),
        UNAVAILABLE_RETRY_MS,
      );
    } catch (error) {
      // Another process wrote first (or this write landed and its answer was lost: it shows in
      // the watch, and the change, applied again, changes nothing).
      if (isWrongRevision(error)) return undefined;
      throw error;
    }
  }

  watch(
    server: string,
    name: string,
    seen: (stored: StoredQueueStep) => void,
    failed: (error: unknown) => void,
  ): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    void (async () => {
      // An ordered consumer: NATS's client makes it again after a gap, from the last revision seen.
      const entries = await this.kv.watch({ key: queueKey(server, name) });
      stop = () => entries.stop();
      if (stopped) return stop();
      for await (const entry of entries)
        if (entry.operation === 'PUT') seen({ step: entry.json<QueueStep>(), revision: entry.revision });
    })().catch((error: unknown) => {
      if (!stopped) failed(error);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }
}

/** The bucket key of a queue. */
function queueKey(server: string, name: string): string {
  return `queue.${natsToken(server)}.${natsToken(name)}`;
}
