import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { leastLoaded } from './classic/leastLoaded.ts';
import { type LeaseWrites, leaseWrites } from './classic/leaseWrites.ts';
import { natsToken } from './natsToken.ts';

export interface WorkerDirectoryOptions {
  readonly leases: KV;
  readonly leasesBucket: string;
  readonly jsm: JetStreamManager;
  /** This process's name (the store's owner). */
  readonly me: string;
  /** Calls this process drives now (its load, published in its lease). */
  readonly load: () => number;
  readonly logger: Logger;
}

/** What a worker's lease says. */
interface WorkerLease {
  readonly worker: string;
  readonly load: number;
}

/**
 * The workers of the cluster, by their leases: each process keeps a lease `worker.<name>` in the
 * lease bucket (bucket TTL), rewritten at every turn with its load (calls it drives) by its
 * worker role (`classic/workerRoleMachine.ts`). A worker whose entry expired stopped renewing: it
 * is dead (or hung), and the others take its calls over. The event connection holder assigns
 * each new call to the least loaded live worker, counting the calls it assigned since the last
 * listing so that a burst of calls spreads, and its own publishing as load.
 */
export class WorkerDirectory {
  /** Writes of this worker's own lease entry. */
  readonly lease: LeaseWrites;
  private loads = new Map<string, number>();
  /** The live workers at the last listing. */
  private listed: ReadonlySet<string> = new Set();
  /** Every worker ever listed by this process (gap markers go to them all). */
  private readonly everListed = new Set<string>();

  constructor(private readonly options: WorkerDirectoryOptions) {
    this.lease = leaseWrites(options.leases, `worker.${natsToken(options.me)}`);
  }

  /** This worker's lease value: its name and load. */
  leaseValue(): string {
    return JSON.stringify({ worker: this.options.me, load: this.options.load() } satisfies WorkerLease);
  }

  /** Takes this worker's lease at start; resolves with its revision. */
  async join(): Promise<number> {
    const revision = await this.lease.create(this.leaseValue());
    if (revision === undefined)
      throw new Error(`worker lease of ${this.options.me} is held by another process with the same name`);
    return revision;
  }

  /** Reads every worker's lease: resolves with the live workers (their loads kept for {@link leastLoaded}). */
  async list(): Promise<ReadonlySet<string>> {
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
      } catch (error) {
        this.options.logger.warn(
          { err: error, key: entry.key },
          'a worker lease that is not one of ours (not JSON): ignored',
        );
      }
    }
    const before = [...this.loads.keys()].filter((w) => this.listed.has(w));
    const now = [...loads.keys()];
    if (before.length !== now.length || now.some((w) => !this.listed.has(w)))
      this.options.logger.info({ workers: now.sort() }, 'cluster workers changed');
    this.listed = new Set(now);
    for (const worker of now) this.everListed.add(worker);
    this.loads = loads;
    return this.listed;
  }

  /** The live workers at the last listing. */
  get live(): ReadonlySet<string> {
    return this.listed;
  }

  /** Every worker this process has listed since it started, gone ones included. */
  get known(): ReadonlySet<string> {
    return this.everListed;
  }

  /**
   * The live worker with the fewest calls (this process when none is known yet); the `holder`'s
   * load counts its publishing of every call too (see `classic/leastLoaded.ts`).
   */
  leastLoaded(holder?: string): string {
    return leastLoaded(this.loads, holder, this.options.me);
  }

  /** A call was assigned to `worker`: counted until the next listing. */
  assigned(worker: string): void {
    this.loads.set(worker, (this.loads.get(worker) ?? 0) + 1);
  }
}
