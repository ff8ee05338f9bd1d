import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { KvLease } from './KvLease.ts';
import { natsToken } from './natsToken.ts';

export interface WorkerDirectoryOptions {
  readonly leases: KV;
  readonly leasesBucket: string;
  readonly jsm: JetStreamManager;
  /** This process's name (the store's owner). */
  readonly me: string;
  /** Calls this process drives now (its load, published in its lease). */
  readonly load: () => number;
  readonly ttlMs: number;
  /** How long before the TTL runs out this worker gives its lease up when renewals fail (see {@link KvLease}). */
  readonly marginMs: number;
  /**
   * This worker lost its lease (renewals failed until the margin, or one was refused): the
   * others may take its calls over from now on, so it must stop acting for them at once.
   */
  readonly lost: () => void;
  readonly logger: Logger;
}

/** What a worker's lease says. */
interface WorkerLease {
  readonly worker: string;
  readonly load: number;
}

/**
 * The workers of the cluster, by their leases: each process keeps a lease `worker.<name>` in the
 * lease bucket (bucket TTL), rewritten at every turn with its load (calls it drives). A worker
 * whose entry expired stopped renewing: it is dead (or hung), and the others take its calls over.
 * The event connection holder assigns each new call to the least loaded live worker, counting the
 * calls it assigned since the last listing so that a burst of calls spreads.
 */
export class WorkerDirectory {
  private readonly lease: KvLease;
  private loads = new Map<string, number>();
  private leaseLost = false;
  /** The live workers at the last listing. */
  private listed: ReadonlySet<string> = new Set();

  constructor(private readonly options: WorkerDirectoryOptions) {
    this.lease = new KvLease({
      kv: options.leases,
      key: `worker.${natsToken(options.me)}`,
      value: () => JSON.stringify({ worker: options.me, load: options.load() } satisfies WorkerLease),
      ttlMs: options.ttlMs,
      marginMs: options.marginMs,
      lost: (why) => {
        this.leaseLost = true;
        options.logger.error(
          { why },
          'lost this worker lease: the other processes may take its calls over; letting them go',
        );
        options.lost();
      },
    });
  }

  /** Takes this worker's lease (at start, and again after losing it). */
  async join(): Promise<void> {
    if (!(await this.lease.acquire()))
      throw new Error(`worker lease of ${this.options.me} is held by another process with the same name`);
    this.leaseLost = false;
  }

  /**
   * Renews this worker's lease (or takes it again after losing it) and reads everybody's;
   * resolves with the live workers, whether this worker's own lease was renewed (else its view of
   * the others is not to be trusted: NATS restarted or was away, and every lease may have lapsed
   * at once), and whether it was taken again in this turn after being lost.
   */
  async tick(): Promise<{
    readonly live: ReadonlySet<string>;
    readonly renewed: boolean;
    readonly rejoined: boolean;
  }> {
    let renewed = false;
    let rejoined = false;
    if (this.lease.held) {
      await this.lease.renew();
      renewed = this.lease.held;
    } else if (this.leaseLost && (await this.lease.acquire())) {
      this.leaseLost = false;
      rejoined = true;
      this.options.logger.warn('worker lease taken again');
    }
    const prefix = `$KV.${this.options.leasesBucket}.`;
    // Keys from the stream info (not kv.keys(), which could hang on NATS 2.9: see JetStreamCallStore).
    const info = await this.options.jsm.streams.info(`KV_${this.options.leasesBucket}`, {
      subjects_filter: `${prefix}worker.*`,
    });
    const loads = new Map<string, number>();
    for (const subject of Object.keys(info.state.subjects ?? {})) {
      const entry = await this.options.leases.get(subject.slice(prefix.length));
      if (entry?.operation !== 'PUT') continue;
      try {
        const lease = entry.json<WorkerLease>();
        loads.set(lease.worker, lease.load);
      } catch {}
    }
    const before = [...this.loads.keys()].filter((w) => this.listed.has(w));
    const now = [...loads.keys()];
    if (before.length !== now.length || now.some((w) => !this.listed.has(w)))
      this.options.logger.info({ workers: now.sort() }, 'cluster workers changed');
    this.listed = new Set(now);
    this.loads = loads;
    return { live: this.listed, renewed, rejoined };
  }

  /** The live worker with the fewest calls (this process when none is known yet). */
  leastLoaded(): string {
    let best = this.options.me;
    let least = Number.POSITIVE_INFINITY;
    for (const [worker, load] of [...this.loads].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (load < least) {
        best = worker;
        least = load;
      }
    }
    return best;
  }

  /** A call was assigned to `worker`: counted until the next listing. */
  assigned(worker: string): void {
    this.loads.set(worker, (this.loads.get(worker) ?? 0) + 1);
  }

  /** Deletes this worker's lease: the others take its calls at their next turn. */
  leave(): Promise<void> {
    return this.lease.release();
  }
}
