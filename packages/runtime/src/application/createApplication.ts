import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  RingflowError,
  type ServerSocketListener,
  type StasisStart,
  type StreamEvent,
  systemClock,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { BridgeSession } from '../bridge/BridgeSession.ts';
import { createRuntimeLogger } from '../logging/createRuntimeLogger.ts';
import { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import { QueueDirectory } from '../queue/QueueDirectory.ts';
import { ApplicationRecovery } from '../recovery/ApplicationRecovery.ts';
import type { GapReport } from '../recovery/GapReport.ts';
import type { CallEnded } from '../session/CallEnded.ts';
import type { CallSession } from '../session/CallSession.ts';
import { SessionRouter } from '../session/SessionRouter.ts';
import { TrackingClock } from '../session/TrackingClock.ts';
import type { CallRecord } from '../snapshot/CallRecord.ts';
import { CallSessions } from './CallSessions.ts';
import type {
  ApplicationOptions,
  CallInfo,
  CreateBridgeOptions,
  OriginateOptions,
  RuntimeCounters,
} from './ApplicationOptions.ts';
import { appOfName } from './appNames.ts';
import { checkApplicationOptions, linkContextOf } from './applicationSetup.ts';
import { BroadcastClaims } from './BroadcastClaims.ts';
import { countResources } from './countResources.ts';
import { LeftoverSweeps } from './LeftoverSweeps.ts';
import { refuseCall } from './refuseCall.ts';
import { MachinePicker } from './MachinePicker.ts';
import type { ServerLink } from './ServerLink.ts';
import { ServerLinks } from './ServerLinks.ts';
import { StoredCalls } from './StoredCalls.ts';
import { handleUnroutedEvent, type UnroutedEventHost } from './unroutedEvent.ts';

/**
 * A running telephony application: connects to every server, starts a call session (one XState
 * actor) for each channel entering the application, routes every event to its session by
 * `asterisk_id` and resource id, and gets back what event stream gaps lose (see
 * {@link ApplicationRecovery}).
 */
export class Application {
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  /** Each call session as it starts. */
  readonly calls$: Observable<CallSession>;
  /** Each event stream gap, after its calls were checked with the server. */
  readonly gaps$: Observable<GapReport>;
  /** How each call ended, as its session ends (see {@link CallEnded}). */
  readonly callEnded$: Observable<CallEnded>;
  /** The call queues of this application (per server and name). */
  readonly queues: QueueDirectory;
  private readonly options: ApplicationOptions;
  private readonly apps: readonly string[];
  private readonly clock: TrackingClock;
  /** Claims of calls offered by StasisBroadcast (with `claimBroadcasts`). */
  private readonly claims: BroadcastClaims | undefined;
  private readonly router = new SessionRouter();
  private readonly links: ServerLinks;
  /** The calls and bridges in progress. */
  private readonly sessions: CallSessions;
  private readonly ids: () => string;
  private state: 'new' | 'starting' | 'running' | 'draining' | 'stopped' = 'new';
  private unrouted = 0;
  private readonly recovery: ApplicationRecovery;
  private readonly sweeps: LeftoverSweeps;
  /** The calls taken over from the store (at start, and by `takeOverCalls`). */
  private readonly stored: StoredCalls;

  constructor(options: ApplicationOptions) {
    const { apps, leftoverSweepMs } = checkApplicationOptions(options);
    this.apps = apps;
    this.options = options;
    const clock = options.clock ?? systemClock;
    this.clock = new TrackingClock(clock);
    const claiming = options.claimBroadcasts;
    this.claims = claiming
      ? new BroadcastClaims(claiming === true ? {} : claiming, () => this.sessions.size)
      : undefined;
    this.ids = options.ids ?? randomUUID;
    this.logger = createRuntimeLogger(options.logger);
    this.metrics = new RuntimeMetrics(clock);
    this.queues = new QueueDirectory({
      ...(options.queues ? { configured: options.queues } : {}),
      clock,
      logger: this.logger,
      observer: this.metrics.queueObserver,
      ...(options.queueStore ? { store: options.queueStore } : {}),
    });
    this.sessions = new CallSessions({
      metrics: this.metrics,
      logger: this.logger,
      machines: new MachinePicker(options.call, (name) => this.appOf(name)),
      store: options.store,
      sharedStream: this.apps.length > 1,
      linkOf: (session) => this.linkOf(session),
      started: (session, link) => {
        this.claims?.settled(session.channelId);
        this.links.accepted?.sessionStarted(session, link);
        this.recovery.callStarted();
      },
      ended: (session, callsLeft) => {
        this.recovery.callEnded(session.channelId, callsLeft);
        this.claims?.roomFreed();
      },
      onCallEnded: options.onCallEnded,
    });
    this.calls$ = this.sessions.calls$;
    this.callEnded$ = this.sessions.callEnded$;
    this.sweeps = new LeftoverSweeps(this.clock, leftoverSweepMs);
    this.recovery = new ApplicationRecovery(
      {
        apps: this.apps,
        router: this.router,
        metrics: this.metrics,
        logger: this.logger,
        clock: this.clock,
        state: () => this.state,
        sessions: () => this.sessions.all,
        sessionsOn: (link) => this.sessions.on(link),
        bridgesOn: (link) => this.sessions.bridgesOn(link),
        clientOf: (session) => {
          const link = this.linkOf(session);
          return link?.stream.state.kind === 'open' ? link.client : undefined;
        },
        accepts: (link, start) => this.options.acceptCall?.(start, link.name) ?? true,
        adopt: (link, start) => {
          if (this.state !== 'running') this.inbound(link, start);
          else this.sessions.start(link, start.channel.id, 'inbound', start.application).adopt(start);
        },
        onGap: options.onGap,
      },
      options.watchdog,
    );
    this.gaps$ = this.recovery.gaps$;
    const restore = (link: ServerLink, record: CallRecord) => this.sessions.restore(link, record);
    this.stored = new StoredCalls({ store: options.store, apps: this.apps, router: this.router, restore });
    this.links = new ServerLinks(
      options,
      linkContextOf(
        options,
        { apps, router: this.router, metrics: this.metrics, logger: this.logger, queues: this.queues, clock },
        () => this.ids(),
      ),
      {
        event: (link, event) => this.onEvent(link, event),
        gap: (link, gap) => this.recovery.gap(link, gap),
        leftover: (link) => this.sweeps.schedule(link),
        store: options.store,
        appOf: (name) => this.appOf(name),
        sessions: () => this.sessions.all,
        call: (channelId) => this.sessions.call(channelId),
        restoreOn: restore,
        claim: (store, listed, link) => this.stored.claim(store, listed, link),
      },
      this.clock,
    );
  }

  /** Connects to every server; resolves when every event stream is open. */
  async start(): Promise<void> {
    if (this.state !== 'new')
      throw new RingflowError(ErrorCode.CONFIG, `start() called twice (state: ${this.state})`);
    this.state = 'starting';
    const { dialled } = this.links;
    await this.links.connect();
    await Promise.all(dialled.map((link) => this.stored.restoreOn(link, this.options.restoreAtStart)));
    await this.links.listen();
    const ids = new Set(dialled.map((l) => l.server.asteriskId));
    if (ids.size !== dialled.length) {
      this.logger.warn('two servers report the same asterisk_id; events cannot be told apart by server');
    }
    this.state = 'running';
    this.logger.info({ apps: this.apps, servers: dialled.map((l) => l.name) }, 'application started');
  }

  /** Where servers dial the application (with `listen`), once started. */
  get listening(): ServerSocketListener | undefined {
    return this.links.listener;
  }

  /** The call sessions in progress. */
  activeCalls(): CallSession[] {
    return [...this.sessions.all];
  }

  /** The session of a call by its channel id. */
  call(channelId: string): CallSession | undefined {
    return this.sessions.call(channelId);
  }

  /** The bridge sessions in progress. */
  activeBridges(): BridgeSession[] {
    return [...this.sessions.bridges];
  }

  /** The REST client of a server (by name; default the first), for work outside calls. */
  client(server?: string) {
    return this.links.byName(server).client;
  }

  /** Events received that no session owned and that did not start a call. */
  get unroutedEvents(): number {
    return this.unrouted;
  }

  /** Calls being checked with the server after an event stream gap now (for readiness). */
  get recoveringCalls(): number {
    return this.recovery.recovering;
  }

  counters(): RuntimeCounters {
    const { sessions, clock, router } = this;
    return countResources(sessions.all, sessions.bridges, this.links.all(), clock.pendingTimers, router.size);
  }

  /**
   * Each server's event stream and where it stands (`open` while events flow), with the
   * applications another connection took over there (`ApplicationReplaced`); for readiness probes.
   */
  connections(): ReturnType<ServerLinks['connections']> {
    return this.links.connections();
  }

  /** The link a call lives on: an accepted socket's, or its server's. */
  private linkOf(session: CallSession): ServerLink | undefined {
    return this.links.linkOf(session);
  }

  /** The application a name given by the server belongs to: itself, or `<app>` of `<app>:<channel>`. */
  private appOf(name: string): string | undefined {
    return appOfName(this.apps, name);
  }

  /** An event: to the sessions it is about, else what the application itself does with it. */
  private onEvent(link: ServerLink, event: StreamEvent): void {
    this.metrics.eventReceived(link.name);
    const asteriskId = typeof event.asterisk_id === 'string' ? event.asterisk_id : link.server.asteriskId;
    if (this.router.route(asteriskId, event) > 0) return;
    if (!handleUnroutedEvent(this.unroutedHost, link, event)) this.unrouted++;
  }

  /** What the events no session owns may reach (see {@link handleUnroutedEvent}); made once. */
  private get unroutedHost(): UnroutedEventHost {
    this.#unroutedHost ??= {
      queues: this.queues,
      claims: this.claims,
      links: this.links,
      sessions: this.sessions,
      hasStore: this.options.store !== undefined,
      appOf: (name) => this.appOf(name),
      accepts: (start, link) => this.options.acceptCall?.(start, link.name) !== false,
      inbound: (link, start) => this.inbound(link, start),
    };
    return this.#unroutedHost;
  }
  #unroutedHost: UnroutedEventHost | undefined;

  private inbound(link: ServerLink, start: StasisStart): void {
    if (this.state === 'draining' || this.state === 'stopped')
      refuseCall(link, start.channel.id, this.options.whileDraining ?? 'hangup');
    else this.sessions.start(link, start.channel.id, 'inbound', start.application).deliver(start);
  }

  /**
   * Places an outbound call that runs a machine once answered. Stage, then execute: the channel id
   * is picked and the session routed before the originate request, so no event is missed.
   * Resolves with the session once the server accepted the request.
   *
   * @example
   * const session = await app.originate({ endpoint: 'PJSIP/alice', callerId: 'Reminder <100>' });
   * const outcome = await session.done; // 'completed', 'unanswered', ...
   */
  async originate(options: OriginateOptions): Promise<CallSession> {
    if (this.state !== 'running') {
      throw new RingflowError(
        ErrorCode.CLOSED,
        `cannot originate while the application is ${this.state}; call start() first`,
      );
    }
    const { server, app, machine, ...params } = options;
    const link = this.links.byName(server);
    const channelId = `channel-${this.ids()}`;
    const into = app ?? this.apps[0]!;
    return this.sessions.originate(link, channelId, into, machine, params);
  }

  /**
   * Creates a bridge owned by the application (a conference room) and its bridge session.
   *
   * @example
   * const room = await app.createBridge({ name: 'sales', type: 'mixing,dtmf_events' });
   */
  async createBridge(options: CreateBridgeOptions = {}): Promise<BridgeSession> {
    const { server, ...rest } = options;
    const link = this.links.byName(server);
    return this.sessions.createBridge(link, { ...rest, bridgeId: `bridge-${this.ids()}` });
  }

  /**
   * Stops taking calls and lets active ones finish until `deadlineMs` (on the application's clock),
   * then hangs up the ones left. New channels are refused (see `whileDraining`). Machines get
   * `call.draining` with the deadline. Resolves when no call is left.
   *
   * @example
   * process.on('SIGTERM', async () => { await app.drain({ deadlineMs: 30_000 }); await app.stop(); });
   */
  async drain(options: { readonly deadlineMs: number }): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'draining';
    await this.sessions.drain(options.deadlineMs, this.clock);
  }

  /**
   * Lets every call go without touching it on the server, then stops like {@link stop}: each
   * call's last record is written to the store and its machine stopped; its channel, playbacks,
   * recordings and bridges stay as they are. An application started with the same store (in this
   * process or another) takes the calls over. Without a store the calls are lost to the
   * application (their channels stay in it until they hang up): give `store`.
   *
   * @example
   * process.on('SIGTERM', async () => { await app.detach(); process.exit(0); });
   */
  async detach(): Promise<void> {
    if (this.state === 'stopped') return;
    if (!this.options.store)
      this.logger.warn(
        { activeCalls: this.sessions.size },
        'detach without a store: the calls stay on the server, but no process can take them over',
      );
    this.detachCalls();
    await this.stop();
  }

  /**
   * Lets every call in progress go untouched, as {@link detach} does, but goes on running: new
   * calls start as before. Cluster mode calls it when this process lost its lease (another process
   * may be taking its calls over). Returns how many calls were let go.
   */
  detachCalls(): number {
    return this.sessions.endAll('detached');
  }

  /**
   * Takes over, on every server, the calls of the store that `accept` picks and whose channels
   * are still up, as at start (claimed first, restored from their records): cluster mode calls it
   * with the calls of a process that stopped renewing its lease. Resolves with how many it took.
   *
   * @example
   * await app.takeOverCalls((record) => deadOwners.has(ownerOf(record)));
   */
  async takeOverCalls(accept: (record: CallRecord) => boolean): Promise<number> {
    if (this.state !== 'running') return 0;
    let restored = 0;
    for (const link of this.links.dialled) restored += await this.stored.restoreOn(link, accept);
    return restored;
  }

  /**
   * Stops: hangs up calls still active, destroys the application's bridges, closes every event
   * stream and REST client. Resolves when everything is released.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.sessions.endAll('stopped', true);
    this.sweeps.stop();
    this.recovery.stop();
    for (const b of [...this.sessions.bridges]) b.destroy();
    this.queues.stop();
    this.clock.clearAll();
    await this.links.close();
    this.sessions.complete();
    this.logger.info('application stopped');
  }
}

/**
 * Creates an application serving one or more servers.
 *
 * @example
 * const app = createApplication({
 *   servers: [{ url: 'http://127.0.0.1:8088/ari', username: 'asterisk', password: 'secret' }],
 *   apps: ['ivr'],
 *   call: ivrMachine,
 * });
 * await app.start();
 */
export function createApplication(options: ApplicationOptions): Application {
  return new Application(options);
}

export type { ApplicationOptions, CallInfo, CreateBridgeOptions, OriginateOptions, RuntimeCounters };
