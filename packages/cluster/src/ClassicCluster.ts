import {
  type Clock,
  createRestClient,
  type RestClient,
  type StasisStart,
  systemClock,
  UndiciTransport,
} from '@ringflow/client';
import type { Application, CallRecord, ServerOptions } from '@ringflow/runtime';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { AssigningRestTransport } from './AssigningRestTransport.ts';
import { adoptRestoredCalls } from './classic/adoptRestoredCalls.ts';
import { moveAssignment } from './classic/moveAssignment.ts';
import { classicSettings, type ClassicSettings } from './classic/classicSettings.ts';
import { followNatsStatus } from './classic/followNatsStatus.ts';
import { offerRefusedCalls } from './classic/offerRefusedCalls.ts';
import { type ClassicBuckets, LEASES_BUCKET, openClassicBuckets } from './classic/openClassicBuckets.ts';
import { WorkerRole } from './classic/WorkerRole.ts';
import { EventConnectionHolder } from './EventConnectionHolder.ts';
import { assignmentKey } from './EventSubjects.ts';
import type { HolderElection } from './HolderElection.ts';
import type { JetStreamCallStore } from './JetStreamCallStore.ts';
import { JetStreamEventFeed } from './JetStreamEventFeed.ts';
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
  /**
   * The clock of the roles' turns and deadlines (default: the real one). Tests give a virtual
   * clock to drive fencing, renewal and takeover without waiting.
   */
  readonly clock?: Clock;
}

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
 * The roles' turns are statecharts on one clock (`classic/`): the holder's election
 * ({@link HolderElection}), the worker's lease ({@link WorkerRole}) and the takeover
 * ({@link OrphanTakeover}).
 *
 * @example
 * const cluster = await ClassicCluster.start({ connection, store, server, app: 'ivr', logger });
 * const app = createApplication({ servers: [cluster.serverOptions], apps: ['ivr'], store,
 *   acceptCall: cluster.acceptCall, restoreAtStart: cluster.restoreAtStart, call: machine });
 * await app.start();
 * cluster.run(app);
 * // on SIGTERM: await cluster.stopHolding(); await app.detach(); await cluster.stop();
 */
export class ClassicCluster {
  /** The server as the application should use it: its events come from the JetStream feed. */
  readonly serverOptions: ServerOptions;
  /** For `ApplicationOptions.acceptCall`: only the calls assigned to this worker start here. */
  readonly acceptCall: (start: StasisStart) => boolean;
  /**
   * For `ApplicationOptions.restoreAtStart`: the calls of the store this worker takes at start are
   * its own (a worker of the same name restarted: the lease it took proves the other one gone) and
   * those of workers gone as its takeover judges them ({@link OrphanTakeover}); a live worker's
   * calls stay with it. (Gone is judged from several turns' listings, so at start it is mostly
   * own calls; the calls of workers that are gone follow at the takeover's first searches.)
   */
  readonly restoreAtStart: (record: CallRecord) => boolean;
  /** Which workers are gone, from the leases listed at each turn. */
  private readonly absences: WorkerAbsences;
  private readonly workers: WorkerDirectory;
  private readonly holder: EventConnectionHolder;
  /** Claims and restores the calls of gone workers. */
  private readonly takeover: OrphanTakeover;
  /** This worker's lease and turns (made once the lease is taken, in {@link start}). */
  private role: WorkerRole | undefined;
  private readonly serverToken: string;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** The server's REST, to tell the records of ended calls (their channels gone) from the others. */
  private readonly rest: RestClient;
  private app: Application | undefined;
  private stopped = false;

  private constructor(
    private readonly options: ClassicClusterOptions,
    private readonly settings: ClassicSettings,
    private readonly buckets: ClassicBuckets,
    private readonly feed: JetStreamEventFeed,
  ) {
    const { server } = settings;
    const me = options.store.owner;
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.serverToken = natsToken(server.name);
    this.rest = createRestClient({ url: server.url, username: server.username, password: server.password });
    this.absences = new WorkerAbsences(me, Math.ceil(settings.ttlMs / settings.renewMs) + GONE_AFTER_TURNS);
    this.workers = new WorkerDirectory({
      leases: buckets.leases,
      leasesBucket: LEASES_BUCKET,
      jsm: buckets.jsm,
      me,
      load: () => this.app?.activeCalls().length ?? 0,
      logger: this.logger,
    });
    this.holder = new EventConnectionHolder({
      js: buckets.js,
      leases: buckets.leases,
      assignments: buckets.assignments,
      store: options.store,
      workers: this.workers,
      server,
      app: options.app,
      me,
      renewMs: settings.holderRenewMs,
      takeoverMs: settings.holderTakeoverMs,
      logger: this.logger,
      clock: this.clock,
    });
    // Channels this worker makes (dial legs) or takes over are its own: their events come here.
    const assign = async (channelIds: readonly string[], callId?: string) => {
      for (const id of channelIds) {
        const key = assignmentKey(this.serverToken, id);
        if (callId === undefined) await buckets.assignments.put(key, me);
        else
          await moveAssignment(
            buckets.assignments,
            key,
            me,
            async () => (await options.store.ownerOf(callId)) === me,
          );
      }
    };
    this.takeover = new OrphanTakeover({
      store: options.store,
      feed,
      rest: this.rest,
      app: options.app,
      isGone: (worker) => this.absences.isGone(worker),
      assign,
      logger: this.logger,
      clock: this.clock,
    });
    this.serverOptions = {
      url: server.url,
      username: server.username,
      password: server.password,
      name: server.name,
      eventTransport: feed,
      restTransport: new AssigningRestTransport(
        new UndiciTransport({ url: server.url, username: server.username, password: server.password }),
        assign,
      ),
    };
    this.restoreAtStart = (record) => {
      const owner = options.store.listedOwner(record.callId);
      return (
        !this.role?.fenced &&
        record.app === options.app &&
        owner !== undefined &&
        (owner === me || this.absences.isGone(owner))
      );
    };
    // A fenced worker starts no call (its lease may lapse, and the holder give the call to
    // another); one assigned here is kept, to be offered again when the lease is back.
    this.acceptCall = (start) => {
      if (!feed.accepts(start)) return false;
      if (!this.role?.fenced) return true;
      this.role.refuse(start);
      return false;
    };
  }

  /**
   * Opens the lease and assignment buckets and the events stream (made when missing), starts
   * consuming the server's events and takes this worker's lease (its turns start at once). Then
   * create the application with {@link serverOptions}, {@link acceptCall} and
   * {@link restoreAtStart}, start it, and call
   * {@link run}.
   */
  static async start(options: ClassicClusterOptions): Promise<ClassicCluster> {
    const settings = classicSettings(options);
    const buckets = await openClassicBuckets(options.connection, settings, (message) =>
      options.logger.warn(message),
    );
    const feed = await JetStreamEventFeed.start({
      js: buckets.js,
      serverToken: natsToken(settings.server.name),
      me: options.store.owner,
      logger: options.logger.child({ server: settings.server.name, role: 'worker' }),
      eventsMaxAgeMs: settings.eventsMaxAgeMs,
      replicas: settings.replicas,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const cluster = new ClassicCluster(options, settings, buckets, feed);
    try {
      await cluster.join();
    } catch (error) {
      await feed.stop();
      await cluster.rest.close();
      throw error;
    }
    return cluster;
  }

  /** Takes this worker's lease and starts its turns (renewal, listing, fencing). */
  private async join(): Promise<void> {
    const at = this.clock.now();
    const revision = await this.workers.join();
    const { ttlMs, renewMs } = this.settings;
    this.role = new WorkerRole({
      directory: this.workers,
      absences: this.absences,
      joined: { revision, at },
      ttlMs,
      renewMs,
      // A lease is given up locally this long before it can expire on the server.
      marginMs: renewMs * 1.5,
      hooks: {
        turn: () => this.holder.turn(),
        workersLeft: () => this.holder.workersLeft((worker) => this.absences.isGone(worker)),
        search: () => this.takeover.schedule(),
        detachCalls: () => this.app?.detachCalls() ?? 0,
        fenced: () => this.takeover.fenced(),
        rejoined: (refused) => {
          this.takeover.rejoined();
          void offerRefusedCalls(refused, {
            assignments: this.buckets.assignments,
            store: this.options.store,
            feed: this.feed,
            serverToken: this.serverToken,
            logger: this.logger,
          }).catch((error: unknown) =>
            this.logger.warn({ err: error }, 'could not offer again the calls refused while fenced'),
          );
        },
      },
      logger: this.logger,
      clock: this.clock,
    });
    this.role.start();
  }

  /**
   * True while this worker has lost its lease and let its calls go, until it holds its lease
   * again (see `classic/workerRoleMachine.ts`: self-fencing).
   */
  get fenced(): boolean {
    return this.role?.fenced ?? false;
  }

  /** The workers whose lease this process saw at its last turn (itself included). */
  get liveWorkers(): ReadonlySet<string> {
    return this.absences.liveWorkers;
  }

  /** Times this process lost the event connection's lease while it held it. */
  get holderLeasesLost(): number {
    return this.holder.leasesLost;
  }

  /** Calls this worker took over from gone workers (or took back after a fence). */
  get callsTakenOver(): number {
    return this.takeover.callsTaken;
  }

  /**
   * The leases' timings it runs with (defaults filled in): how long a process's leases outlive
   * its last renewal, and how long the event connection's holder may go without an accepted
   * renewal before another process takes the connection over.
   */
  get timings(): { readonly leaseTtlMs: number; readonly holderTakeoverMs: number } {
    return { leaseTtlMs: this.settings.ttlMs, holderTakeoverMs: this.settings.holderTakeoverMs };
  }

  /** True while this process holds the server's event connection and it is open (events flow). */
  get holding(): boolean {
    return this.holder.holding;
  }

  /** Starts the other roles: the holder's election, and the takeover of dead workers' calls. */
  run(app: Application): void {
    this.app = app;
    // Each role turns on its own: a slow holder (connecting, publishing a gap marker) or a slow
    // takeover must never hold this worker's lease renewal back and let it lapse.
    this.holder.start();
    void adoptRestoredCalls(app, {
      store: this.options.store,
      feed: this.feed,
      assignments: this.buckets.assignments,
      serverToken: this.serverToken,
      fromSeq: this.feed.startSeq,
      logger: this.logger,
    })
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not move here the calls restored at start'),
      )
      .finally(() => this.takeover.run(app));
    void followNatsStatus(
      this.options.connection,
      () => {
        this.holder.natsReconnected();
        this.feed.natsReconnected();
      },
      () => this.stopped,
      this.logger,
    );
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
    await this.holder.stop();
    await this.role?.stop();
    await this.feed.stop();
    await this.rest.close();
  }
}
