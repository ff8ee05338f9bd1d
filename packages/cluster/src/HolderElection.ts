import { type Clock, systemClock, type TimerHandle } from '@ringflow/client';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { type Actor, createActor, waitFor } from 'xstate';
import { holderElectionMachine, type LeaseEntry } from './classic/holderElectionMachine.ts';
import { leaseWrites } from './classic/leaseWrites.ts';

/** Options of a {@link HolderElection}. */
export interface HolderElectionOptions {
  /** The lease bucket (its bucket TTL only clears a key nobody renews or takes: see below). */
  readonly kv: KV;
  readonly key: string;
  /** This process's name, the lease's value. */
  readonly me: string;
  /** How often the holder rewrites the entry. */
  readonly renewMs: number;
  /**
   * How long a standby must see the entry's revision unchanged before it takes the lease (at
   * least 3 renewals). The holder gives the lease up on its own side one renewal earlier.
   */
  readonly takeoverMs: number;
  /**
   * How long a standby that knows no revision of the entry (after a failure, a refused take-over,
   * its own release) waits before it reads the entry, and how long a watch that ended waits before
   * it is made again. Default 1000 ms.
   */
  readonly safetyReadMs?: number;
  /** This process holds the lease now (took it, or took it over). */
  readonly held: () => void;
  /** This process lost the lease (see {@link KvLease}): stop acting as the holder at once. */
  readonly lost: (why: string) => void;
  readonly logger: Logger;
  readonly clock?: Clock;
}

/**
 * The election of one role (the event connection holder) on one key of a KV bucket, with a fast
 * takeover that works on NATS 2.9 (no per-key TTL):
 * - the **holder** rewrites the entry every `renewMs`, naming the revision it wrote last
 *   ({@link KvLease});
 * - each **standby** follows the entry with a KV watch (NATS pushes each revision: no polling)
 *   and notes when its revision last changed (by its own clock). When no new revision was pushed
 *   for `takeoverMs`, it reads the entry once to confirm (so a watch that died silently still
 *   ends in a take-over) and, the revision unchanged, rewrites the entry naming that revision
 *   (compare-and-swap, {@link KvLease.takeOver}): of several standbys one wins, and a holder that
 *   renewed meanwhile moved the revision, so the take is refused. A pushed delete (the holder
 *   released it) is taken with `create` at once. A watch that ends or fails is made again after
 *   `safetyReadMs` (logged once per kind);
 * - the holder gives the lease up on its own side when no renewal was accepted for
 *   `takeoverMs − renewMs` after the one before was sent: a standby counts from when the revision
 *   last changed, which is after that send, so the holder has stopped before any standby can take
 *   the lease (as long as the clocks run at the same rate; a paused holder that wakes up finds
 *   its next renewal refused);
 * - an entry that is missing (released, or expired with the bucket TTL) is taken with `create`;
 *   an entry this process wrote last but no longer holds (it gave it up while NATS was away) is
 *   taken back at once, naming its revision.
 *
 * @example
 * const election = new HolderElection({ kv, key, me, renewMs: 200, takeoverMs: 800, held: connect, lost: disconnect, logger });
 * election.start();
 */
export class HolderElection {
  private readonly actor: Actor<ReturnType<typeof holderElectionMachine>>;
  private started = false;

  constructor(options: HolderElectionOptions) {
    const clock: Clock = options.clock ?? systemClock;
    const safetyReadMs = options.safetyReadMs ?? 1000;
    const machine = holderElectionMachine({
      writes: leaseWrites(options.kv, options.key),
      read: async () => {
        const entry = await options.kv.get(options.key);
        return entry?.operation === 'PUT' ? { revision: entry.revision, value: entry.string() } : undefined;
      },
      follow: followEntry(options.kv, options.key, options.logger, clock, safetyReadMs),
      me: options.me,
      renewMs: options.renewMs,
      takeoverMs: options.takeoverMs,
      safetyReadMs,
      held: options.held,
      lost: options.lost,
      logger: options.logger,
      clock,
    });
    this.actor = createActor(machine, { clock });
  }

  /** True while this process holds the lease (as far as it knows). */
  get holding(): boolean {
    return this.actor.getSnapshot().matches('holding');
  }

  /** The election's state (for logs and tests): `watching`, `holding.renewing`, … */
  get state(): string {
    return JSON.stringify(this.actor.getSnapshot().value);
  }

  /** Starts renewing or watching. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.actor.start();
  }

  /** Stops the turns and releases the lease if held (the entry deleted: a standby takes it at once). */
  async stop(): Promise<void> {
    if (!this.started || this.actor.getSnapshot().status !== 'active') return;
    this.actor.send({ type: 'stop' });
    await waitFor(this.actor, (s) => s.status === 'done');
  }

  /** Releases the lease (if held) and goes on watching: a standby is pushed the delete and takes it. */
  async release(): Promise<void> {
    // Sent even from the `held` callback (the machine is then still entering `holding`: the
    // event waits its turn).
    this.actor.send({ type: 'release' });
    await waitFor(this.actor, (s) => !s.matches('holding') && !s.matches('releasing'));
  }
}

/**
 * Follows one key with a KV watch (its last value, then each write; a delete or purge is `gone`),
 * made again `retryMs` after it ends or fails; each kind of end is logged once in a row.
 */
function followEntry(kv: KV, key: string, logger: Logger, clock: Clock, retryMs: number) {
  return (seen: (entry: LeaseEntry) => void, gone: () => void): (() => void) => {
    let stopped = false;
    let current: { stop(): void } | undefined;
    let retry: TimerHandle | undefined;
    let lastKind: string | undefined;
    const run = async (): Promise<void> => {
      let kind: string;
      let error: unknown;
      try {
        const updates = await kv.watch({ key });
        if (stopped) {
          updates.stop();
          return;
        }
        current = updates;
        for await (const entry of updates) {
          if (entry.isUpdate) lastKind = undefined;
          if (entry.operation === 'PUT') seen({ revision: entry.revision, value: entry.string() });
          else gone();
        }
        kind = 'the watch ended';
      } catch (failure) {
        error = failure;
        kind = (failure as Error | null)?.message ?? String(failure);
      }
      current = undefined;
      if (stopped) return;
      if (kind !== lastKind)
        logger.warn(
          { err: error, key, retryMs },
          `the watch of the event connection lease stopped (${kind}): made again after ${retryMs} ms, the lease read meanwhile`,
        );
      lastKind = kind;
      retry = clock.setTimeout(() => void run(), retryMs);
      (retry as { unref?: () => void }).unref?.();
    };
    void run();
    return () => {
      stopped = true;
      current?.stop();
      clock.clearTimeout(retry);
    };
  };
}
