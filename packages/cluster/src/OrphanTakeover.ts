import { type Clock, type RestClient, systemClock } from '@ringflow/client';
import type { Application, CallRecord } from '@ringflow/runtime';
import type { Logger } from 'pino';
import { type Actor, createActor } from 'xstate';
import { takeoverMachine } from './classic/takeoverMachine.ts';
import type { JetStreamCallStore } from './JetStreamCallStore.ts';
import type { JetStreamEventFeed } from './JetStreamEventFeed.ts';

/** A replay that has not finished by then is given up (its keys are lost, the call goes on). */
const REPLAY_TIMEOUT_MS = 10_000;

export interface OrphanTakeoverOptions {
  readonly store: JetStreamCallStore;
  readonly feed: JetStreamEventFeed;
  /** The server's REST, to tell the records of ended calls (their channels gone) from the others. */
  readonly rest: RestClient;
  /** The application name whose calls this worker drives. */
  readonly app: string;
  /** Whether a worker is gone (see `WorkerAbsences`). */
  readonly isGone: (worker: string) => boolean;
  readonly logger: Logger;
  readonly clock?: Clock;
}

/**
 * The takeover of a classic-cluster worker: claims and restores the calls of gone workers from the
 * store (`Application.takeOverCalls`: the claim by revision decides between rivals), replays the
 * keys pressed on them since their records were written, and removes the records of their calls
 * whose channels are gone (the caller hung up meanwhile: nobody else would ever remove them).
 * After this worker was fenced, its own records nobody claimed meanwhile are taken back the same
 * way ({@link rejoined}). One search at a time, none while fenced: the statechart
 * `classic/takeoverMachine.ts` says when.
 *
 * @example
 * const takeover = new OrphanTakeover({ store, feed, rest, app: 'ivr', isGone, logger });
 * takeover.run(application);
 * takeover.schedule(); // a worker's lease lapsed
 */
export class OrphanTakeover {
  private readonly actor: Actor<ReturnType<typeof takeoverMachine>>;
  private app: Application | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: OrphanTakeoverOptions) {
    this.clock = options.clock ?? systemClock;
    this.actor = createActor(
      takeoverMachine({
        search: async (reclaimOwn) => {
          if (!this.app) return false;
          await this.takeOver(this.app, reclaimOwn);
          return true;
        },
        logger: options.logger,
      }),
    ).start();
  }

  /** The application whose calls are taken over; a first search follows. */
  run(app: Application): void {
    this.app = app;
    this.schedule();
  }

  /** Looks for the calls of gone workers (once more after the search under way, if any). */
  schedule(): void {
    this.actor.send({ type: 'search' });
  }

  /** This worker lost its lease: it takes nothing over until {@link rejoined}. */
  fenced(): void {
    this.actor.send({ type: 'fence' });
  }

  /** The lease is held again: a search that also takes back this worker's own orphans. */
  rejoined(): void {
    this.actor.send({ type: 'rejoin' });
  }

  /** The role's state (for logs and tests): `idle`, `{"searching":"again"}`, `fenced`, … */
  get state(): string {
    return JSON.stringify(this.actor.getSnapshot().value);
  }

  stop(): void {
    if (this.actor.getSnapshot().status === 'active') this.actor.send({ type: 'stop' });
  }

  /**
   * Claims and restores the calls whose owner holds no worker lease any more, and, after this
   * worker was fenced, its own calls that nobody claimed meanwhile (records of its own with no
   * call here).
   */
  private async takeOver(app: Application, reclaimOwn: boolean): Promise<void> {
    const { store, logger } = this.options;
    const me = store.owner;
    /** Whether this worker may take a call its owner holds now: a gone worker's, or its own orphan. */
    const takeable = (record: CallRecord, owner: string) =>
      record.app === this.options.app &&
      (owner === me ? reclaimOwn && app.call(record.channelId) === undefined : this.options.isGone(owner));
    const orphaned = new Map<string, { owner: string; record: CallRecord }>();
    for (const { record, owner } of await store.listOwners())
      if (takeable(record, owner)) orphaned.set(record.callId, { owner, record });
    if (orphaned.size === 0) return;
    const startedAt = this.clock.now();
    // Judged again on the listing the takeover itself makes (the claim takes a call from the owner
    // that listing shows): a live worker may have claimed one of these calls since the first
    // listing, and must not have it taken from it.
    const taken = await app.takeOverCalls((record) => {
      const owner = store.listedOwner(record.callId);
      return orphaned.has(record.callId) && owner !== undefined && takeable(record, owner);
    });
    await this.removeEnded(app, orphaned, takeable);
    if (taken === 0) return;
    logger.info(
      {
        calls: taken,
        // Records of this worker's own (after a fence) count among them.
        from: [...new Set([...orphaned.values()].map((o) => o.owner))],
        ms: this.clock.now() - startedAt,
      },
      'took over the calls of workers whose lease lapsed',
    );
    // The keys pressed since the record was written reached no one: handed to the calls again.
    const counts = await Promise.all(
      [...orphaned.values()]
        .filter(({ record }) => app.call(record.channelId) !== undefined)
        .map(({ record }) =>
          withTimeout(
            this.options.feed.replayDigits(record.channelId, record.writtenAt),
            REPLAY_TIMEOUT_MS,
            this.clock,
          ).catch((error: unknown) => {
            logger.warn({ err: error, call: record.callId }, 'could not replay the keys pressed meanwhile');
            return 0;
          }),
        ),
    );
    logger.info(
      {
        calls: counts.length,
        replayedDigits: counts.reduce((a, b) => a + b, 0),
        ms: this.clock.now() - startedAt,
      },
      'replayed the keys pressed on the calls taken over',
    );
  }

  /**
   * Removes the records of gone workers' calls that were not taken over because their channels
   * are gone (the caller hung up while nobody drove the call): nobody else would remove them.
   */
  private async removeEnded(
    app: Application,
    orphaned: ReadonlyMap<string, { owner: string; record: CallRecord }>,
    takeable: (record: CallRecord, owner: string) => boolean,
  ): Promise<void> {
    const { store } = this.options;
    const left = [...orphaned.values()].filter(({ record }) => {
      const owner = store.listedOwner(record.callId);
      return app.call(record.channelId) === undefined && owner !== undefined && takeable(record, owner);
    });
    if (left.length === 0) return;
    const live = new Set((await this.options.rest.channels.list()).map((c) => c.id));
    const ended = left.filter(({ record }) => !live.has(record.channelId)).map(({ record }) => record.callId);
    if (ended.length === 0) return;
    const removed = await store.removeOrphans(ended);
    if (removed > 0)
      this.options.logger.info(
        { calls: removed },
        "removed the records of gone workers' calls whose channels are gone (the callers left meanwhile)",
      );
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, clock: Clock): Promise<T> {
  let timer: ReturnType<Clock['setTimeout']> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => reject(new Error(`no answer from JetStream within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clock.clearTimeout(timer));
}
