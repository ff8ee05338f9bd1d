import type { Clock } from '@ringflow/client';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import { BehaviorSubject, filter, firstValueFrom, Subject } from '../rx.ts';
import type { QueueRevisions, StoredQueueStep } from './QueueRevisions.ts';
import { applyQueueChange, type QueueChange, type QueueState, type QueueStep } from './QueueState.ts';
import type { QueueCell, QueueStore } from './QueueStore.ts';

/** Options of {@link SharedQueueStore}. */
export interface SharedQueueStoreOptions {
  /** Where the queues live (a JetStream KV bucket: `@ringflow/cluster`'s `JetStreamQueueStore`). */
  readonly revisions: QueueRevisions;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * How long after its ring timeout an offer neither answered nor missed takes its caller out
   * (the caller's process died and nobody drives its call). Default 15 s. Milliseconds.
   */
  readonly staleOfferGraceMs?: number;
}

const DEFAULT_STALE_OFFER_GRACE_MS = 15_000;
/** A change waiting this long for the store's answer to show in the queue is logged. */
const SLOW_STORE_MS = 10_000;

/** Two states alike (a change that changed nothing is not written). */
function sameQueue(a: QueueState, b: QueueState): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * One queue shared by the processes of a cluster, kept in a store with revision checks. Every
 * process applies its own changes (a caller joining, an agent answering...) to the latest state
 * it has seen, and writes the result naming that state's revision: of two processes changing the
 * queue at once the store accepts one; the other sees the new state arrive, applies its change
 * to it and writes again. Every step (state and notices) reaches every process through the
 * store's watch, in revision order: a process tells the notices to the callers it holds (an
 * offer made by a change on another process reaches its caller here). Changes of one process
 * go to the store one after the other.
 */
class SharedQueueCell implements QueueCell {
  readonly staleOfferMs: number;
  readonly #revisions: QueueRevisions;
  readonly #server: string;
  readonly #name: string;
  readonly #clock: Clock;
  readonly #logger: Logger;
  /** The latest step seen from the store (revision 0: none yet, the queue as made here). */
  readonly #latest: BehaviorSubject<StoredQueueStep>;
  readonly #steps = new Subject<QueueStep>();
  readonly #stopWatching: () => void;
  #chain: Promise<void>;
  #closed = false;

  constructor(server: string, name: string, initial: QueueState, options: SharedQueueStoreOptions) {
    this.#revisions = options.revisions;
    this.#server = server;
    this.#name = name;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.staleOfferMs =
      initial.settings.ringTimeoutMs + (options.staleOfferGraceMs ?? DEFAULT_STALE_OFFER_GRACE_MS);
    this.#latest = new BehaviorSubject<StoredQueueStep>({
      step: { state: initial, notices: [] },
      revision: 0,
    });
    this.#stopWatching = this.#revisions.watch(
      server,
      name,
      (stored) => this.#seen(stored),
      (error) =>
        this.#logger.error(
          { queue: name, err: error },
          `queue ${name}: the shared store stopped reporting its changes; this process no longer follows the queue`,
        ),
    );
    this.#chain = this.#revisions.create(server, name, { state: initial, notices: [] }).then(
      () => {},
      (error: unknown) =>
        this.#logger.warn(
          { queue: name, err: error },
          `queue ${name}: could not make it in the shared store`,
        ),
    );
  }

  get steps$(): Observable<QueueStep> {
    return this.#steps.asObservable();
  }

  get state(): QueueState {
    return this.#latest.value.step.state;
  }

  change(change: QueueChange, applied?: (before: QueueState) => void): void {
    this.#chain = this.#chain
      .then(() => this.#apply(change, applied))
      .catch((error: unknown) =>
        this.#logger.error(
          { queue: this.#name, change: change.type, err: error },
          `queue ${this.#name}: a change could not be written to the shared store and is lost`,
        ),
      );
  }

  close(): void {
    this.#closed = true;
    this.#stopWatching();
  }

  /** A step from the store: newer ones only, in order. The first one seen predates this process's callers: no notices. */
  #seen(stored: StoredQueueStep): void {
    const previous = this.#latest.value;
    if (stored.revision <= previous.revision) return;
    const step = previous.revision === 0 ? { state: stored.step.state, notices: [] } : stored.step;
    this.#latest.next({ step, revision: stored.revision });
    this.#steps.next(step);
  }

  async #apply(change: QueueChange, applied?: (before: QueueState) => void): Promise<void> {
    while (!this.#closed) {
      const before = await this.#after(0);
      const step = applyQueueChange(before.step.state, change);
      if (step.notices.length === 0 && sameQueue(step.state, before.step.state)) {
        applied?.(before.step.state);
        return;
      }
      const written = await this.#revisions.update(this.#server, this.#name, step, before.revision);
      if (written !== undefined) {
        // Seen through the watch like any step: its notices are told there, in order.
        await this.#after(written - 1);
        applied?.(before.step.state);
        return;
      }
      // Another process changed the queue first: its step arrives, then this change goes again.
      await this.#after(before.revision);
    }
  }

  /** The first step seen from the store with a revision above `revision`. */
  async #after(revision: number): Promise<StoredQueueStep> {
    const current = this.#latest.value;
    if (current.revision > revision) return current;
    const slow = this.#clock.setTimeout(
      () =>
        this.#logger.warn(
          { queue: this.#name, revision },
          `queue ${this.#name}: the shared store has not shown its latest change for ${SLOW_STORE_MS} ms; changes wait`,
        ),
      SLOW_STORE_MS,
    );
    try {
      return await firstValueFrom(this.#latest.pipe(filter((s) => s.revision > revision)));
    } finally {
      this.#clock.clearTimeout(slow);
    }
  }
}

/**
 * The queues of an application shared by every process of a cluster (`createApplication({
 * queueStore })`): callers of all processes wait in one order, an agent is offered one caller at
 * a time cluster-wide, and no process owns a queue, so none takes it away when it dies. See
 * docs/cluster.md, "Call queues shared by the cluster".
 *
 * @example
 * const queueStore = new SharedQueueStore({ revisions: await JetStreamQueueStore.open(nc), clock, logger });
 */
export class SharedQueueStore implements QueueStore {
  readonly #options: SharedQueueStoreOptions;

  constructor(options: SharedQueueStoreOptions) {
    const grace = options.staleOfferGraceMs;
    if (grace !== undefined && (!Number.isFinite(grace) || grace < 0))
      throw new Error(`SharedQueueStore: staleOfferGraceMs must be 0 or more milliseconds, got ${grace}`);
    this.#options = options;
  }

  open(server: string, name: string, initial: QueueState): QueueCell {
    return new SharedQueueCell(server, name, initial, this.#options);
  }
}
