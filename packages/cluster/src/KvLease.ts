import { type Clock, systemClock, type TimerHandle } from '@ringflow/client';
import type { KV } from '@nats-io/kv';
import { type Logger, pino } from 'pino';
import { isNatsUnavailable } from './retryWhileUnavailable.ts';

/** Options of a {@link KvLease}. */
export interface KvLeaseOptions {
  /** The lease bucket: made with a bucket TTL, so an entry nobody rewrites disappears. */
  readonly kv: KV;
  readonly key: string;
  /** What the holder writes (its name, its load): read by the others. */
  readonly value: () => string;
  /** The bucket's TTL (how long an entry lives without a rewrite), milliseconds. */
  readonly ttlMs: number;
  /**
   * How long before the TTL runs out, counted from the start of the last renewal accepted, the
   * holder gives the lease up on its own side (at least one renewal interval, so that the entry
   * cannot have expired on the server yet: another process may take it only after).
   */
  readonly marginMs: number;
  /**
   * Called when the lease is lost: a renewal refused (another process holds it now), or no
   * renewal accepted for the TTL less the margin (NATS unreachable or not answering: the entry
   * may expire and be taken). The holder must stop acting as one at once.
   */
  readonly lost: (why: string) => void;
  /** The clock of the local deadline (default: the real one). */
  readonly clock?: Clock;
  /** Where a release that failed is told (default: warnings on stderr). */
  readonly logger?: Logger;
}

/** JetStream's "wrong last sequence": the entry changed since the revision named. */
const WRONG_LAST_SEQUENCE = 10071;

/**
 * A lease on one key of a key-value bucket with a bucket TTL (NATS 2.9 has no per-key TTL): the
 * holder made the entry with `create` (refused while it exists) and rewrites it with `update`
 * naming the revision it wrote last. If the holder dies, the entry expires after the TTL and the
 * next `create` wins.
 *
 * **Self-fencing.** A holder that has had no renewal accepted for the TTL less the margin gives
 * the lease up on its own side, by a local timer (a renewal that hangs while NATS is away would
 * never tell it), before the entry can expire on the server and another process take it: the
 * lease's two holders never overlap as long as the processes' clocks run at the same rate.
 *
 * @example
 * const lease = new KvLease({ kv, key: 'events.pbx1.ivr', value: () => me, ttlMs: 5000, marginMs: 1500, lost: stop });
 * if (await lease.acquire()) startHolding();
 * setInterval(() => void lease.renew(), 1000);
 */
export class KvLease {
  private revision: number | undefined;
  private renewedAt = 0;
  /** Gives the lease up when no renewal was accepted in time (re-armed at each one). */
  private deadline: TimerHandle | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: KvLeaseOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** The revision of the entry as this process wrote it last (undefined while not held). */
  get heldRevision(): number | undefined {
    return this.revision;
  }

  /** True while this process holds the lease (as far as it knows). */
  get held(): boolean {
    return this.revision !== undefined;
  }

  /** Tries to take the lease; true when this process holds it now. */
  async acquire(): Promise<boolean> {
    if (this.revision !== undefined) return true;
    const startedAt = this.clock.now();
    try {
      this.revision = await this.options.kv.create(this.options.key, this.options.value());
      this.accepted(startedAt);
      return true;
    } catch (error) {
      if (isWrongRevision(error) || isExists(error)) return false;
      throw error;
    }
  }

  /**
   * Takes the lease from a holder that stopped renewing it: rewrites the entry naming `revision`,
   * the one seen unchanged for long enough. Of several processes taking it, NATS accepts one; a
   * holder that renewed meanwhile made the entry's revision move, and the take is refused. True
   * when this process holds the lease now.
   */
  async takeOver(revision: number): Promise<boolean> {
    if (this.revision !== undefined) return true;
    const startedAt = this.clock.now();
    try {
      this.revision = await this.options.kv.update(this.options.key, this.options.value(), revision);
      this.accepted(startedAt);
      return true;
    } catch (error) {
      if (isWrongRevision(error)) return false;
      throw error;
    }
  }

  /**
   * Rewrites the entry, naming the revision written last. A refusal means another process holds
   * the lease: `lost` is called. A failure (NATS unreachable) is thrown; the lease is kept until
   * the local deadline (TTL less margin after the last renewal accepted) gives it up.
   */
  async renew(): Promise<void> {
    const revision = this.revision;
    if (revision === undefined) return;
    const startedAt = this.clock.now();
    try {
      const next = await this.options.kv.update(this.options.key, this.options.value(), revision);
      // Given up meanwhile (the deadline passed while this renewal travelled): it stays given up,
      // and the entry expires on the server by itself.
      if (this.revision !== revision) return;
      this.revision = next;
      this.accepted(startedAt);
    } catch (error) {
      if (this.revision !== revision) return;
      if (isWrongRevision(error)) this.drop('another process holds the lease now (the renewal was refused)');
      else throw error;
    }
  }

  /** Gives the lease up: the entry is deleted (if it is still this process's), so the next `create` wins at once. */
  async release(): Promise<void> {
    const revision = this.revision;
    if (revision === undefined) return;
    this.revision = undefined;
    this.disarm();
    try {
      await this.options.kv.delete(this.options.key, { previousSeq: revision });
    } catch (error) {
      // Whatever the kind, the lease is given up here: the entry expires by itself (its TTL) if
      // it is still ours, and the next holder waits that long.
      const logger = this.options.logger ?? pino({ level: 'warn' }, pino.destination(2));
      const kind = releaseFailureKind(error);
      logger.warn(
        { err: error, key: this.options.key, kind },
        kind === 'refused'
          ? 'lease not released: another process wrote it since this one renewed it'
          : 'could not release the lease: it expires by itself after its TTL',
      );
    }
  }

  /** A write of the entry sent at `startedAt` was accepted: the lease is safe until TTL − margin after it. */
  private accepted(startedAt: number): void {
    this.renewedAt = startedAt;
    this.disarm();
    const { ttlMs, marginMs } = this.options;
    const deadline = this.clock.setTimeout(
      () => {
        if (this.deadline !== deadline) return;
        this.deadline = undefined;
        if (this.revision !== undefined)
          this.drop(
            `no renewal accepted for ${this.clock.now() - this.renewedAt} ms (the lease lives ${ttlMs} ms)`,
          );
      },
      Math.max(0, startedAt + ttlMs - marginMs - this.clock.now()),
    );
    this.deadline = deadline;
    (deadline as { unref?: () => void }).unref?.();
  }

  private disarm(): void {
    this.clock.clearTimeout(this.deadline);
    this.deadline = undefined;
  }

  private drop(why: string): void {
    this.revision = undefined;
    this.disarm();
    this.options.lost(why);
  }
}

export function isWrongRevision(error: unknown): boolean {
  const e = error as { code?: unknown; api_error?: { err_code?: unknown } } | null;
  return e?.code === WRONG_LAST_SEQUENCE || e?.api_error?.err_code === WRONG_LAST_SEQUENCE;
}

/** nats.js reports a `create` on an existing key this way on some paths. */
function isExists(error: unknown): boolean {
  return /wrong last sequence|key exists/i.test((error as Error | null)?.message ?? '');
}

/** Why a lease's release failed: refused (another process wrote it), NATS away, or another error. */
function releaseFailureKind(error: unknown): 'refused' | 'nats-unavailable' | 'error' {
  if (isWrongRevision(error) || isExists(error)) return 'refused';
  if (isNatsUnavailable(error)) return 'nats-unavailable';
  return 'error';
}
