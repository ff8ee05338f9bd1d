import { type Clock, type RestClient, systemClock } from '@ringflow/client';
import type { Application, CallRecord } from '@ringflow/runtime';
import type { Logger } from 'pino';
import { type Actor, createActor } from 'xstate';
import { channelsOf } from './classic/adoptRestoredCalls.ts';
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
  /**
   * Assigns channels to this worker (the holder then publishes their events here); with `callId`,
   * only while this worker owns that call (see `classic/moveAssignment.ts`).
   */
  readonly assign: (channelIds: readonly string[], callId?: string) => Promise<void>;
  readonly logger: Logger;
  readonly clock?: Clock;
}

/**
 * The takeover of a classic-cluster worker: claims and restores the calls of gone workers from the
 * store (`Application.takeOverCalls`: the claim by revision decides between rivals), moves their
 * channels' assignments here (the holder publishes their events for this worker from then on),
 * replays the keys pressed on them since their records were written and every event of theirs the
 * holder published for the gone worker since the claim (`JetStreamEventFeed.replayTakenOver`),
 * and removes the records of their calls
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
  /**
   * Calls a search tried to take that are not driven here although their channels are up, with
   * the gone worker they were taken from. A claim NATS left unanswered for longer than the store
   * tries may have landed: the bucket then names this worker, no call runs here, and the others
   * leave it (this worker is alive). The next searches take such a call back like this worker's
   * own orphan; it is forgotten once a listing names another owner or the call runs here.
   */
  private readonly unsettled = new Map<string, string>();

  /** Calls claimed from gone workers (or taken back after a fence) since this process started. */
  private takenSoFar = 0;

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

  /** How many calls its searches took since this process started. */
  get callsTaken(): number {
    return this.takenSoFar;
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
    /** Fenced since this search began: it takes nothing more (see {@link settleFenced}). */
    const fenced = () => this.actor.getSnapshot().matches({ searching: 'fenceAfter' });
    /**
     * Whether this worker may take a call its owner holds now: a gone worker's, or its own orphan
     * (after a fence, or a claim of its own that may have landed unanswered).
     */
    const takeable = (record: CallRecord, owner: string) =>
      !fenced() &&
      record.app === this.options.app &&
      (owner === me
        ? (reclaimOwn || this.unsettled.has(record.callId)) && app.call(record.channelId) === undefined
        : this.options.isGone(owner));
    const listing = await store.listOwners();
    for (const [callId] of this.unsettled) {
      const listed = listing.find((l) => l.record.callId === callId);
      if (listed?.owner !== me || app.call(listed.record.channelId) !== undefined)
        this.unsettled.delete(callId);
    }
    const orphaned = new Map<string, { owner: string; record: CallRecord }>();
    for (const { record, owner } of listing)
      if (takeable(record, owner))
        // A call whose claim landed unanswered is still the gone worker's call moving here.
        orphaned.set(record.callId, { owner: this.unsettled.get(record.callId) ?? owner, record });
    if (orphaned.size === 0) return;
    const startedAt = this.clock.now();
    // Every event of these calls after this point is replayed (before it: keys only; the restored
    // calls ask the server about the rest).
    const fromSeq = await this.options.feed.streamLastSeq();
    // Judged again on the listing the takeover itself makes (the claim takes a call from the owner
    // that listing shows): a live worker may have claimed one of these calls since the first
    // listing, and must not have it taken from it.
    const taken = await app.takeOverCalls((record) => {
      const owner = store.listedOwner(record.callId);
      return orphaned.has(record.callId) && owner !== undefined && takeable(record, owner);
    });
    if (this.settleFenced(app, taken)) return;
    // Records of ended calls left behind are removed at a later search if this fails: the calls
    // taken are handed their events all the same.
    await this.removeEnded(app, orphaned, takeable).catch((error: unknown) =>
      logger.warn(
        { err: error },
        "could not remove the records of gone workers' ended calls (tried again at the next search)",
      ),
    );
    if (taken === 0) return;
    this.takenSoFar += taken;
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
    // A gone worker's call moves here: its channels' events since the claim too (see
    // `takenOverReplay.ts`); this worker's own call got its events all along.
    const replay = ({ owner, record }: { owner: string; record: CallRecord }): Promise<Replayed>[] =>
      owner === me
        ? [
            this.options.feed
              .replayDigits(record.channelId, record.writtenAt)
              .then((digits) => ({ digits, events: 0 })),
          ]
        : channelsOf(record).map((channel) =>
            this.options.feed.replayTakenOver(channel, record.writtenAt, fromSeq, () =>
              this.options.assign([channel], record.callId),
            ),
          );
    const restored = [...orphaned.values()].filter(({ record }) => app.call(record.channelId) !== undefined);
    const counts = await Promise.all(
      restored.flatMap((orphan) =>
        replay(orphan).map((replaying) =>
          withTimeout(replaying, REPLAY_TIMEOUT_MS, this.clock).catch((error: unknown): Replayed => {
            logger.warn(
              { err: error, call: orphan.record.callId },
              'could not replay the events of a call taken over',
            );
            return { digits: 0, events: 0 };
          }),
        ),
      ),
    );
    logger.info(
      {
        calls: restored.length,
        replayedDigits: counts.reduce((n, c) => n + c.digits, 0),
        replayedEvents: counts.reduce((n, c) => n + c.events, 0),
        ms: this.clock.now() - startedAt,
      },
      'replayed the keys pressed on the calls taken over',
    );
  }

  /**
   * A worker fenced while its search ran lets go the calls the search took (as the fence let go
   * the others): their records name it, and once its lease lapsed the other workers take them
   * (or it takes them back on rejoining). True when it was fenced.
   */
  private settleFenced(app: Application, taken: number): boolean {
    if (!this.actor.getSnapshot().matches({ searching: 'fenceAfter' })) return false;
    const letGo = app.detachCalls();
    if (taken > 0 || letGo > 0)
      this.options.logger.warn(
        { calls: letGo },
        'fenced during a takeover: the calls it took are let go (the others take them once its lease lapsed)',
      );
    return true;
  }

  /**
   * Removes the records of gone workers' calls that were not taken over because their channels
   * are gone (the caller hung up while nobody drove the call): nobody else would remove them.
   * Those whose channels are up are kept as {@link unsettled}.
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
    for (const { owner, record } of left)
      if (live.has(record.channelId)) this.unsettled.set(record.callId, owner);
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

/** What a replay handed a call: keys pressed, and other events. */
interface Replayed {
  readonly digits: number;
  readonly events: number;
}

function withTimeout<T>(work: Promise<T>, ms: number, clock: Clock): Promise<T> {
  let timer: ReturnType<Clock['setTimeout']> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => reject(new Error(`no answer from JetStream within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clock.clearTimeout(timer));
}
