import { type Clock, systemClock, type TimerHandle } from '@ringflow/client';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { KvLease } from './KvLease.ts';

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
  private readonly lease: KvLease;
  private readonly clock: Clock;
  private readonly watchMs: number;
  /** The entry's revision as last read, and when (this clock) it was first seen. */
  private seen: { readonly revision: number; readonly since: number } | undefined;
  private lastRenewal = Number.NEGATIVE_INFINITY;
  private timer: TimerHandle | undefined;
  private busy = false;
  private stopped = true;
  /** The last failure logged (one line per kind of failure, not one per turn). */
  private failing: string | undefined;

  constructor(private readonly options: HolderElectionOptions) {
    this.clock = options.clock ?? systemClock;
    this.watchMs = options.watchMs ?? Math.max(10, Math.floor(options.renewMs / 4));
    this.lease = new KvLease({
      kv: options.kv,
      key: options.key,
      value: () => options.me,
      ttlMs: options.takeoverMs,
      marginMs: options.renewMs,
      lost: (why) => {
        this.seen = undefined;
        options.lost(why);
      },
      clock: this.clock,
    });
  }

  /** True while this process holds the lease (as far as it knows). */
  get holding(): boolean {
    return this.lease.held;
  }

  /** Starts renewing or watching, every `watchMs`. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    this.timer = this.clock.setTimeout(() => void this.turn(), delayMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** One turn: renew when held and due, else read the entry and take it when it is stale. */
  private async turn(): Promise<void> {
    if (this.stopped || this.busy) return;
    this.busy = true;
    try {
      if (this.lease.held) await this.renewIfDue();
      else await this.watch();
      this.failing = undefined;
    } catch (error) {
      // NATS away or restarting: a standby forgets what it saw (the holder could not renew
      // either), so it waits a whole takeover time again once NATS answers.
      this.seen = undefined;
      const kind = (error as Error | null)?.message ?? String(error);
      if (this.failing !== kind)
        this.options.logger.warn(
          { err: error, holding: this.lease.held },
          'event connection lease: NATS did not answer (tried again every turn)',
        );
      this.failing = kind;
    } finally {
      this.busy = false;
      if (!this.stopped) this.schedule(this.watchMs);
    }
  }

  private async renewIfDue(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastRenewal < this.options.renewMs) return;
    this.lastRenewal = now;
    await this.lease.renew();
  }

  private async watch(): Promise<void> {
    const { kv, key, me, takeoverMs } = this.options;
    const entry = await kv.get(key);
    if (this.stopped || this.lease.held) return;
    const now = this.clock.now();
    if (entry?.operation !== 'PUT') {
      this.seen = undefined;
      if (await this.lease.acquire()) this.took('the lease was free');
      return;
    }
    if (this.seen?.revision !== entry.revision) this.seen = { revision: entry.revision, since: now };
    const mine = entry.string() === me;
    const stale = now - this.seen.since >= takeoverMs;
    if (!mine && !stale) return;
    if (await this.lease.takeOver(entry.revision))
      this.took(
        mine
          ? 'this process wrote it last (it gave it up while NATS did not answer)'
          : `its revision did not change for ${now - this.seen.since} ms (holder ${entry.string()})`,
      );
    else this.seen = undefined;
  }

  private took(why: string): void {
    this.seen = undefined;
    this.lastRenewal = this.clock.now();
    this.options.logger.info({ why }, 'took the event connection lease');
    this.options.held();
  }

  /** Stops the turns and releases the lease if held (the entry deleted: a standby takes it at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    await this.lease.release();
  }

  /** Releases the lease (if held) and goes on watching: another process takes it at its next read. */
  async release(): Promise<void> {
    await this.lease.release();
  }
}
