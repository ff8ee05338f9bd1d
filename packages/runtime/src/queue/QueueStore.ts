import type { Observable } from 'rxjs';
import type { QueueChange, QueueState, QueueStep } from './QueueState.ts';

/**
 * Where the state of one call queue lives, and how it changes: in this process (the default,
 * {@link LocalQueueStore}), or in a store every process of a cluster shares
 * ({@link SharedQueueStore}). A `CallQueue` sends it changes and follows its steps.
 */
export interface QueueCell {
  /**
   * Every new state of the queue, with the notices of the change that made it, in the order the
   * changes were applied: this process's changes and, in a shared store, those of the others.
   * A process tells the notices to the callers it holds.
   */
  readonly steps$: Observable<QueueStep>;
  /** The queue as this process knows it now. */
  readonly state: QueueState;
  /**
   * Applies `change` to the queue (now, or once the store accepted it). `applied` is called once
   * it is part of the queue, with the state it was applied to.
   */
  change(change: QueueChange, applied?: (before: QueueState) => void): void;
  /**
   * A shared store: how long an offer may stay neither answered nor missed before its caller is
   * taken out (its process died). None in a single process.
   */
  readonly staleOfferMs: number | undefined;
  /** Stops following the queue (the application is stopping). */
  close(): void;
}

/** Opens the cells of an application's queues (one per server and queue name). */
export interface QueueStore {
  /**
   * The cell of queue `name` on `server` (the server's name as the application knows it), made
   * with `initial` when nobody made it yet.
   */
  open(server: string, name: string, initial: QueueState): QueueCell;
}
