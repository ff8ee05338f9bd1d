import { type Clock, systemClock } from '@ringflow/client';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { type Actor, createActor, waitFor } from 'xstate';
import { holderElectionMachine } from './classic/holderElectionMachine.ts';
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
  /** How often a standby reads the entry. Default a quarter of `renewMs`. */
  readonly watchMs?: number;
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
 * - each **standby** reads the entry every `watchMs` and notes when its revision last changed (by
 *   its own clock). When the revision has not moved for `takeoverMs`, it rewrites the entry naming
 *   that revision (compare-and-swap, {@link KvLease.takeOver}): of several standbys one wins, and
 *   a holder that renewed meanwhile moved the revision, so the take is refused;
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
    const machine = holderElectionMachine({
      writes: leaseWrites(options.kv, options.key),
      read: async () => {
        const entry = await options.kv.get(options.key);
        return entry?.operation === 'PUT' ? { revision: entry.revision, value: entry.string() } : undefined;
      },
      me: options.me,
      renewMs: options.renewMs,
      takeoverMs: options.takeoverMs,
      watchMs: options.watchMs ?? Math.max(10, Math.floor(options.renewMs / 4)),
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

  /** Starts renewing or watching, every `watchMs`. */
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

  /** Releases the lease (if held) and goes on watching: another process takes it at its next read. */
  async release(): Promise<void> {
    // Sent even from the `held` callback (the machine is then still entering `holding`: the
    // event waits its turn).
    this.actor.send({ type: 'release' });
    await waitFor(this.actor, (s) => !s.matches('holding') && !s.matches('releasing'));
  }
}
