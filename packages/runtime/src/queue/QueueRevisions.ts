import type { QueueStep } from './QueueState.ts';

/** A queue's step as a shared store holds it, with the store's revision of it. */
export interface StoredQueueStep {
  readonly step: QueueStep;
  /** Grows with every write (of this queue, or of the whole store). */
  readonly revision: number;
}

/**
 * A key-value store with revision checks, as a queue shared by processes needs it (NATS JetStream
 * KV in `@ringflow/cluster`, {@link MemoryQueueRevisions} in tests). Keys are a queue's server and
 * name; values are a queue's latest step.
 */
export interface QueueRevisions {
  /** Writes `step` if the key has no value yet; resolves false when it has one. */
  create(server: string, name: string, step: QueueStep): Promise<boolean>;
  /**
   * Writes `step` if the key's latest revision is still `revision`; resolves with the new
   * revision, or undefined when another write came first (nothing written).
   */
  update(server: string, name: string, step: QueueStep, revision: number): Promise<number | undefined>;
  /**
   * Calls `seen` with the key's latest value, then every later one, in revision order and none
   * left out (a process tells callers the notices of every step); `failed` once if the store can
   * no longer tell. Returns what stops watching.
   */
  watch(
    server: string,
    name: string,
    seen: (stored: StoredQueueStep) => void,
    failed: (error: unknown) => void,
  ): () => void;
}
