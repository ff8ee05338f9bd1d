import {
  createRestClient,
  ErrorCode,
  type RestClient,
  RingflowError,
  type StasisStart,
  UndiciTransport,
} from '@ringflow/client';
import type { Application, ServerOptions } from '@ringflow/runtime';
import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  StorageType,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { EventConnectionHolder, type HeldServer } from './EventConnectionHolder.ts';
import { AssigningRestTransport } from './AssigningRestTransport.ts';
import { assignmentKey, EVENTS_STREAM } from './EventSubjects.ts';
import { ensureEventsStream } from './EventsStream.ts';
import { JetStreamEventFeed } from './JetStreamEventFeed.ts';
import type { JetStreamCallStore } from './JetStreamCallStore.ts';
import { natsToken } from './natsToken.ts';
import { OrphanTakeover } from './OrphanTakeover.ts';
import { GONE_AFTER_TURNS, WorkerAbsences } from './WorkerAbsences.ts';
import { WorkerDirectory } from './WorkerDirectory.ts';

/** Options of {@link ClassicCluster.start}. */
export interface ClassicClusterOptions {
  /** A connection to NATS with JetStream (the store's); never closed here. */
  readonly connection: NatsConnection;
  /** The cluster's call store: its owner is this process's name. */
  readonly store: JetStreamCallStore;
  /** The server, reached the classic way (REST and one event connection per application). */
  readonly server: {
    readonly url: string;
    readonly username: string;
    readonly password: string;
    /** The server's name in subjects and keys, the same in every process. Default: the URL's host. */
    readonly name?: string;
  };
  readonly app: string;
  readonly logger: Logger;
  /**
   * How long a lease lives without a renewal (the lease bucket's TTL): a dead holder's or worker's
   * role is taken over within about this. Default 5000 ms; at least 3 renewals.
   */
  readonly leaseTtlMs?: number;
  /** How often leases are renewed and the workers listed. Default 1000 ms. */
  readonly renewMs?: number;
  /** How often the event connection holder renews its lease. Default 200 ms. */
  readonly holderRenewMs?: number;
  /**
   * How long the holder's lease must stay unchanged before a standby takes it (the holder gives
   * it up one renewal earlier when it cannot renew): a dead holder is replaced within about this.
   * Default 800 ms; at least 3 holder renewals (see `HolderElection`).
   */
  readonly holderTakeoverMs?: number;
  /** How long events stay in the stream. Default 10 minutes. */
  readonly eventsMaxAgeMs?: number;
  /**
   * Copies of the lease and assignment buckets and of the events stream in a NATS cluster (1, 3
   * or 5; give the store's). Default 1 (a single NATS server); 3 on a cluster of three nodes, so
   * that one node lost loses nothing. Buckets and stream already there keep their own.
   */
  readonly replicas?: number;
}

const LEASES_BUCKET = 'ringflow-leases';
const ASSIGNMENTS_BUCKET = 'ringflow-assignments';
/** Assignments are needed until the call's first record is written; kept an hour (a long ring). */
const ASSIGNMENT_TTL_MS = 60 * 60 * 1000;
/** Every this many turns, the store is also searched for calls of dead workers (not only on a change). */
const FULL_SCAN_TURNS = 10;

/**
 * Cluster mode for a server reached the classic way, which gives an application's events to one
 * connection only. Every process plays two roles (docs/cluster.md):
 * - **event connection holder**, for one process at a time, elected by a KV lease: it holds the
 *   server's event connection and publishes the events into a JetStream stream, assigning each
 *   new call to the least loaded worker ({@link EventConnectionHolder});
 * - **worker**: its application is fed from that stream ({@link JetStreamEventFeed}), starts the
 *   calls assigned to it, sends REST straight to the server, writes records to the store, and
 *   keeps a lease of its own; when another worker's lease lapses, it claims that worker's calls
 *   from the store and restores them (the store's claim by revision decides between rivals).
 *
 * @example
 * const cluster = await ClassicCluster.start({ connection, store, server, app: 'ivr', logger });
 * const app = createApplication({ servers: [cluster.serverOptions], apps: ['ivr'], store,
 *   acceptCall: cluster.acceptCall, call: machine });
 * await app.start();
 * cluster.run(app);
 * // on SIGTERM: await cluster.stopHolding(); await app.detach(); await cluster.stop();
 */
export class ClassicCluster {
  /** The server as the application should use it: its events come from the JetStream feed. */
  readonly serverOptions: ServerOptions;
  /** For `ApplicationOptions.acceptCall`: only the calls assigned to this worker start here. */
  readonly acceptCall: (start: StasisStart) => boolean;
  private turn = 0;
  /** Which workers are gone, from the leases listed at each turn. */
  private readonly absences: WorkerAbsences;
  /** Claims and restores the calls of gone workers. */
  private readonly takeover: OrphanTakeover;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;
  /**
   * This worker lost its lease and let its calls go: it starts no call until it holds its lease
   * again, and then takes back those of its calls nobody claimed meanwhile.
   */
  private isFenced = false;
  /**
   * New calls assigned to this worker whose StasisStart reached it while it was fenced: offered
   * to the application again once it holds its lease, if they are still its own (the holder
   * assigns again the calls of a worker it saw gone).
   */
  private readonly refusedWhileFenced: StasisStart[] = [];
  private readonly serverToken: string;
  private app: Application | undefined;
  private readonly logger: Logger;
  /** The server's REST, to tell the records of ended calls (their channels gone) from the others. */
  private readonly rest: RestClient;

  private constructor(
    private readonly options: ClassicClusterOptions,
    private readonly feed: JetStreamEventFeed,
    private readonly holder: EventConnectionHolder,
    private readonly workers: WorkerDirectory,
    server: HeldServer,
    private readonly assignments: KV,
    ttlMs: number,
    private readonly renewMs: number,
  ) {
    this.logger = options.logger;
    this.serverToken = natsToken(server.name);
    this.rest = createRestClient({ url: server.url, username: server.username, password: server.password });
    const me = options.store.owner;
    this.absences = new WorkerAbsences(me, Math.ceil(ttlMs / renewMs) + GONE_AFTER_TURNS);
    this.takeover = new OrphanTakeover({
      store: options.store,
      feed,
      rest: this.rest,
      app: options.app,
      isGone: (worker) => this.absences.isGone(worker),
      fenced: () => this.isFenced,
      logger: this.logger,
    });
    this.serverOptions = {
      url: server.url,
      username: server.username,
      password: server.password,
      name: server.name,
      eventTransport: feed,
      // Channels this worker makes (dial legs) are its own: their StasisStart comes here.
      restTransport: new AssigningRestTransport(
        new UndiciTransport({ url: server.url, username: server.username, password: server.password }),
        async (channelIds) => {
          for (const id of channelIds) await this.assignments.put(assignmentKey(this.serverToken, id), me);
        },
      ),
    };
    // A fenced worker starts no call (its lease may lapse, and the holder give the call to
    // another); one assigned here is kept, to be offered again when the lease is back.
    this.acceptCall = (start) => {
      if (!feed.accepts(start)) return false;
      if (!this.isFenced) return true;
      this.refusedWhileFenced.push(start);
      return false;
    };
  }

  /**
   * Opens the lease and assignment buckets and the events stream (made when missing), takes this
   * worker's lease and starts consuming the server's events. Then create the application with
   * {@link serverOptions} and {@link acceptCall}, start it, and call {@link run}.
   */
  static async start(options: ClassicClusterOptions): Promise<ClassicCluster> {
    const ttlMs = options.leaseTtlMs ?? 5_000;
    const renewMs = options.renewMs ?? 1_000;
    if (!Number.isFinite(ttlMs) || !Number.isFinite(renewMs) || renewMs < 50 || ttlMs < 3 * renewMs)
      throw new RingflowError(
        ErrorCode.CONFIG,
        `ClassicCluster: leaseTtlMs ${String(ttlMs)} and renewMs ${String(renewMs)}: give renewMs of at least 50 ms and a lease TTL of at least 3 renewals (default 5000 and 1000).`,
      );
    const holderRenewMs = options.holderRenewMs ?? 200;
    const holderTakeoverMs = options.holderTakeoverMs ?? 800;
    if (
      !Number.isFinite(holderRenewMs) ||
      !Number.isFinite(holderTakeoverMs) ||
      holderRenewMs < 20 ||
      holderTakeoverMs < 3 * holderRenewMs ||
      holderTakeoverMs >= ttlMs
    )
      throw new RingflowError(
        ErrorCode.CONFIG,
        `ClassicCluster: holderRenewMs ${String(holderRenewMs)} and holderTakeoverMs ${String(holderTakeoverMs)}: give holderRenewMs of at least 20 ms and a takeover time of at least 3 holder renewals, below the lease TTL (default 200 and 800).`,
      );
    let name = options.server.name;
    if (name === undefined) {
      try {
        name = new URL(options.server.url).host;
      } catch {
        throw new RingflowError(ErrorCode.CONFIG, `ClassicCluster: "${options.server.url}" is not a URL.`);
      }
    }
    const server: HeldServer = { ...options.server, name };
    const eventsMaxAgeMs = options.eventsMaxAgeMs ?? 10 * 60 * 1000;
    const connection = options.connection;
    const replicas = options.replicas ?? 1;
    if (replicas !== 1 && replicas !== 3 && replicas !== 5)
      throw new RingflowError(
        ErrorCode.CONFIG,
        `ClassicCluster: replicas is ${String(replicas)}: give 1, 3 or 5 (copies in a NATS cluster).`,
      );
    let leases: KV;
    let assignments: KV;
    let js: JetStreamClient;
    let jsm: JetStreamManager;
    try {
      const kvm = new Kvm(connection);
      leases = await kvm.create(LEASES_BUCKET, {
        history: 1,
        ttl: ttlMs,
        storage: StorageType.File,
        replicas,
      });
      assignments = await kvm.create(ASSIGNMENTS_BUCKET, {
        history: 1,
        ttl: ASSIGNMENT_TTL_MS,
        storage: StorageType.File,
        replicas,
      });
      jsm = await jetstreamManager(connection);
      await ensureEventsStream(jsm, eventsMaxAgeMs, replicas);
      js = jetstream(connection);
    } catch (error) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `ClassicCluster: cannot open the lease bucket, the assignment bucket or the ${EVENTS_STREAM} stream: ${(error as Error).message} (a lease bucket made with another TTL must be removed first: nats kv del ${LEASES_BUCKET})`,
        { cause: error },
      );
    }
    const me = options.store.owner;
    // A lease is given up locally this long before it can expire on the server (see KvLease).
    const marginMs = renewMs * 1.5;
    let cluster: ClassicCluster | undefined;
    const workers = new WorkerDirectory({
      leases,
      leasesBucket: LEASES_BUCKET,
      jsm,
      me,
      load: () => cluster?.app?.activeCalls().length ?? 0,
      ttlMs,
      marginMs,
      lost: () => cluster?.fence(),
      logger: options.logger,
    });
    await workers.join();
    const feed = await JetStreamEventFeed.start({
      js,
      serverToken: natsToken(name),
      me,
      logger: options.logger.child({ server: name, role: 'worker' }),
      eventsMaxAgeMs,
      replicas,
    });
    const holder = new EventConnectionHolder({
      js,
      leases,
      assignments,
      store: options.store,
      workers,
      server,
      app: options.app,
      me,
      renewMs: holderRenewMs,
      takeoverMs: holderTakeoverMs,
      logger: options.logger,
    });
    cluster = new ClassicCluster(options, feed, holder, workers, server, assignments, ttlMs, renewMs);
    return cluster;
  }

  /**
   * True while this worker has lost its lease and let its calls go, until it holds its lease
   * again (see {@link KvLease}: self-fencing).
   */
  get fenced(): boolean {
    return this.isFenced;
  }

  /** The workers whose lease this process saw at its last turn (itself included). */
  get liveWorkers(): ReadonlySet<string> {
    return this.absences.liveWorkers;
  }

  /** True while this process holds the server's event connection and it is open (events flow). */
  get holding(): boolean {
    return this.holder.holding;
  }

  /** Starts the turns: leases renewed, the holder elected, dead workers' calls taken over. */
  run(app: Application): void {
    this.app = app;
    // Each role turns on its own: a slow holder (connecting, publishing a gap marker) or a slow
    // takeover must never hold this worker's lease renewal back and let it lapse.
    this.holder.start();
    this.timers.push(this.every('worker lease', () => this.workerTurn()));
    void this.watchNats();
  }

  /** Runs `work` now and every turn, skipping a turn while the previous one is still under way. */
  private every(what: string, work: () => Promise<void>): NodeJS.Timeout {
    let busy = false;
    const turn = () => {
      if (busy) return;
      busy = true;
      void work()
        .catch((error: unknown) => this.logger.warn({ err: error }, `${what}: turn failed`))
        .finally(() => {
          busy = false;
        });
    };
    turn();
    return setInterval(turn, this.renewMs);
  }

  /** Says when NATS goes and comes back; the holder then tells the workers to reconcile. */
  private async watchNats(): Promise<void> {
    for await (const status of this.options.connection.status()) {
      if (this.stopped) return;
      if (status.type === 'disconnect') this.logger.warn('NATS connection lost; reconnecting');
      else if (status.type === 'reconnect') {
        this.logger.info('NATS connection back');
        this.holder.natsReconnected();
        this.feed.natsReconnected();
      }
    }
  }

  /**
   * This worker lost its lease (see {@link KvLease}: before it can lapse on the server): the
   * others may claim its calls from now on, so every call is let go untouched at once (its last
   * record written if the store still takes it). Two processes never act for one call.
   */
  private fence(): void {
    if (this.stopped || this.isFenced) return;
    this.isFenced = true;
    this.absences.distrust();
    const calls = this.app?.detachCalls() ?? 0;
    this.logger.warn(
      { calls },
      'worker lease lost: let every call go untouched; those nobody claims are taken back when the lease is',
    );
  }

  private async workerTurn(): Promise<void> {
    this.holder.turn();
    let listed: { live: ReadonlySet<string>; renewed: boolean; rejoined: boolean };
    try {
      listed = await this.workers.tick();
    } catch (error) {
      this.absences.distrust();
      throw error;
    }
    if (listed.rejoined) {
      this.isFenced = false;
      this.takeover.reclaimOwnNext();
      this.scheduleTakeover();
      void this.offerRefusedCalls().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not offer again the calls refused while fenced'),
      );
    }
    if (!listed.renewed) {
      // This worker's own lease was not renewed (NATS away or restarted: every lease may have
      // lapsed at once): the others' absence means nothing yet.
      this.absences.listed(listed.live);
      this.absences.distrust();
      return;
    }
    const newlyGone = this.absences.observe(listed.live);
    if (newlyGone) this.holder.workersLeft((worker) => this.absences.isGone(worker));
    if (newlyGone || this.turn++ % FULL_SCAN_TURNS === 0) this.scheduleTakeover();
  }

  /**
   * Offers the application again the new calls refused while this worker was fenced that are
   * still assigned to it and that nobody started (no record): with its lease back within a turn
   * or two, the holder never saw it gone and will not assign them to another worker.
   */
  private async offerRefusedCalls(): Promise<void> {
    const me = this.options.store.owner;
    for (const start of this.refusedWhileFenced.splice(0)) {
      const channelId = start.channel.id;
      const entry = await this.assignments.get(assignmentKey(this.serverToken, channelId));
      if (entry?.operation !== 'PUT' || entry.string() !== me) continue;
      if (await this.options.store.has(channelId)) continue;
      this.logger.info({ call: channelId }, 'a call refused while this worker was fenced: started now');
      this.feed.offerAgain(start);
    }
  }

  /** Looks for the calls of gone workers (see {@link OrphanTakeover}). */
  private scheduleTakeover(): void {
    if (this.app && !this.stopped) this.takeover.schedule(this.app);
  }

  /** Lets the event connection go (another process takes it at its next turn). */
  async stopHolding(): Promise<void> {
    await this.holder.stop();
  }

  /**
   * Stops the turns, the holder and the feed, and deletes this worker's lease so the others take
   * its calls at once: call it after `app.detach()` (which writes the calls' last records).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.takeover.stop();
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.holder.stop();
    await this.workers.leave();
    await this.feed.stop();
    await this.rest.close();
  }
}
