import { eventResources, type StreamEvent } from '@ringflow/client';
import type { KV, KvEntry } from '@nats-io/kv';
import type { Logger } from 'pino';
import { natsToken } from './natsToken.ts';

/** A channel's worker as the holder knows it, with the assignment's revision (newer wins). */
interface Route {
  readonly worker: string;
  readonly revision: number;
}

/** The worker of a channel changed (a takeover): the holder tells the new one (a hand-over marker). */
export type Moved = (channelToken: string, to: string, from: string, revision: number) => void;

/**
 * The holder's view of which worker drives each channel, so that each event is published only to
 * the workers that need it (see {@link targets}). Channels are learned from the assignment
 * bucket: those the holder assigns itself (StasisStart), a KV watch of the updates (a worker's
 * dial legs, a takeover's moves), and a read of the bucket for a channel not known yet (a watch
 * running late, or started after the assignment). A route is kept until its channel is destroyed.
 *
 * @example
 * const routes = new WorkerRoutes(assignments, serverToken, moved, logger);
 * await routes.watch();
 * const workers = await routes.targets(event, () => directory.live);
 */
export class WorkerRoutes {
  private readonly routes = new Map<string, Route>();
  /** Channels the bucket had no assignment for when read (not the cluster's: any worker may care). */
  private readonly unassigned = new Set<string>();
  private watching: { stop(): void } | undefined;

  constructor(
    private readonly assignments: KV,
    private readonly serverToken: string,
    private readonly moved: Moved,
    private readonly logger: Logger,
  ) {}

  /** Follows the assignment bucket's updates (once; until {@link stop}). */
  async watch(): Promise<void> {
    if (this.watching) return;
    const updates = await this.assignments.watch({
      key: `${this.serverToken}.*`,
      include: 'updates',
      ignoreDeletes: true,
    });
    this.watching = updates;
    void (async () => {
      try {
        for await (const entry of updates) this.learn(entry);
      } catch (error) {
        this.logger.error(
          { err: error },
          'the watch of the assignment bucket stopped: channels are read one by one',
        );
      }
      if (this.watching === updates) this.watching = undefined;
    })();
  }

  /** An assignment written or read: kept when newer than the one known; a move is told. */
  learn(entry: Pick<KvEntry, 'key' | 'revision' | 'operation' | 'string'>): void {
    if (entry.operation !== 'PUT') return;
    const token = entry.key.slice(this.serverToken.length + 1);
    this.set(token, entry.string(), entry.revision);
  }

  /** This holder assigned the channel itself (`create` or `update` at `revision`). */
  assigned(channelId: string, worker: string, revision: number): void {
    this.set(natsToken(channelId), worker, revision);
  }

  private set(token: string, worker: string, revision: number): void {
    const known = this.routes.get(token);
    if (known && known.revision >= revision) return;
    this.routes.set(token, { worker, revision });
    this.unassigned.delete(token);
    if (known && known.worker !== worker) this.moved(token, worker, known.worker, revision);
  }

  /** The worker driving a channel's call, read from the bucket when not known yet. */
  async workerOf(channelId: string): Promise<string | undefined> {
    const token = natsToken(channelId);
    const known = this.routes.get(token);
    if (known) return known.worker;
    if (this.unassigned.has(token)) return undefined;
    const entry = await this.assignments.get(`${this.serverToken}.${token}`);
    if (entry?.operation === 'PUT') this.learn(entry);
    else this.unassigned.add(token);
    return this.routes.get(token)?.worker;
  }

  /**
   * The workers an event goes to: those driving the channels it names; every live worker for an
   * event that names a bridge (a conference spans workers: each member's call follows the bridge),
   * names no channel (device states, text messages, application events), or names a channel no
   * worker drives.
   */
  async targets(event: StreamEvent, live: () => Iterable<string>): Promise<ReadonlySet<string>> {
    const workers = new Set<string>();
    let everyone = true;
    for (const ref of eventResources(event)) {
      if (ref.kind === 'bridge') return new Set(live());
      if (ref.kind !== 'channel') continue;
      const worker = await this.workerOf(ref.id);
      if (worker === undefined) return new Set(live());
      workers.add(worker);
      everyone = false;
    }
    return everyone ? new Set(live()) : workers;
  }

  /** The workers that drive a channel known here (for gap markers). */
  workers(): ReadonlySet<string> {
    return new Set([...this.routes.values()].map((r) => r.worker));
  }

  /** The channel is gone (ChannelDestroyed): its route is dropped. */
  forget(channelId: string): void {
    const token = natsToken(channelId);
    this.routes.delete(token);
    this.unassigned.delete(token);
  }

  stop(): void {
    this.watching?.stop();
    this.watching = undefined;
  }
}
