import { randomUUID } from 'node:crypto';
import {
  type ConnectionState,
  ErrorCode,
  isEventType,
  formatTimestamp,
  RingflowError,
  type ServerSocketListener,
  type StasisStart,
  type StreamEvent,
  systemClock,
  type TimerHandle,
} from '@ringflow/client';
import type { Logger } from 'pino';
import { type Observable, Subject, type Subscription } from 'rxjs';
import type { AnyStateMachine } from 'xstate';
import { BridgeSession } from '../bridge/BridgeSession.ts';
import { createRuntimeLogger } from '../logging/createRuntimeLogger.ts';
import { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { CallEnded } from '../session/CallEnded.ts';
import { CallSession } from '../session/CallSession.ts';
import { SessionRouter } from '../session/SessionRouter.ts';
import { TrackingClock } from '../session/TrackingClock.ts';
import type { CallRecord } from '../snapshot/CallRecord.ts';
import { AcceptedServers } from './AcceptedServers.ts';
import { BroadcastClaims } from './BroadcastClaims.ts';
import { CleanupRetry } from './CleanupRetry.ts';
import type { GapReport } from './GapReport.ts';
import type {
  ApplicationOptions,
  CallInfo,
  CreateBridgeOptions,
  OriginateOptions,
  RuntimeCounters,
} from './ApplicationOptions.ts';
import { GapReconciler } from './GapReconciler.ts';
import { MachinePicker } from './MachinePicker.ts';
import { ServerLink, type ServerLinkContext } from './ServerLink.ts';
import { StoredCalls } from './StoredCalls.ts';
import { QueueDirectory } from '../queue/QueueDirectory.ts';

/**
 * A running telephony application: connects to every server, starts a call session (one XState
 * actor) for each channel entering the application, routes every event to its session by
 * `asterisk_id` and resource id, and reconciles sessions after event stream gaps.
 */
export class Application {
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  /** Each call session as it starts. */
  readonly calls$: Observable<CallSession>;
  /** Each event stream gap, after sessions were reconciled. */
  readonly gaps$: Observable<GapReport>;
  /** How each call ended, as its session ends (see {@link CallEnded}). */
  readonly callEnded$: Observable<CallEnded>;
  private readonly options: ApplicationOptions;
  private readonly apps: readonly string[];
  private readonly clock: TrackingClock;
  /** Claims of calls offered by StasisBroadcast (with `claimBroadcasts`). */
  private readonly claims: BroadcastClaims | undefined;
  private readonly router = new SessionRouter();
  private readonly links: ServerLink[];
  private readonly sessions = new Set<CallSession>();
  private readonly bridges = new Set<BridgeSession>();
  /** The call queues of this application (per server and name). */
  readonly queues: QueueDirectory;
  private readonly callsSubject = new Subject<CallSession>();
  private readonly gapsSubject = new Subject<GapReport>();
  private readonly callEndedSubject = new Subject<CallEnded>();
  private readonly ids: () => string;
  private state: 'new' | 'starting' | 'running' | 'draining' | 'stopped' = 'new';
  private drainDeadline = 0;
  private unrouted = 0;
  private readonly reconciler: GapReconciler;
  private readonly sweeps = new Map<ServerLink, TimerHandle>();
  private readonly leftoverSweepMs: number;
  private readonly linkContext: ServerLinkContext;
  /** The servers that dial the application (with `listen`). */
  private readonly accepted: AcceptedServers | undefined;
  private readonly machines: MachinePicker;
  /** The calls taken over from the store (at start, and by `takeOverCalls`). */
  private readonly stored: StoredCalls;
  /** What the application follows of each link: its events, gaps and leftovers. */
  private readonly followed = new Map<ServerLink, Subscription>();

  constructor(options: ApplicationOptions) {
    if ((!options.servers || options.servers.length === 0) && !options.listen) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        "options.servers is empty: give at least one server, e.g. servers: [{ url: 'http://127.0.0.1:8088/ari', username, password }], or listen for servers that dial the application (listen: { port: 8765 }).",
      );
    }
    this.apps = typeof options.apps === 'string' ? [options.apps] : [...options.apps];
    if (this.apps.length === 0) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        "options.apps is empty: give the application name(s), e.g. apps: ['ivr'].",
      );
    }
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
    });
    this.calls$ = this.callsSubject.asObservable();
    this.gaps$ = this.gapsSubject.asObservable();
    this.callEnded$ = this.callEndedSubject.asObservable();
    const sweepMs = options.leftoverSweepMs ?? DEFAULT_LEFTOVER_SWEEP_MS;
    if (!(sweepMs >= 0) || !Number.isFinite(sweepMs)) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `options.leftoverSweepMs is ${String(sweepMs)}: give milliseconds, 0 or more (0: remove leftovers only after gaps).`,
      );
    }
    this.leftoverSweepMs = sweepMs;
    const cleanupRetry = new CleanupRetry(options.cleanupRetry);
    this.reconciler = new GapReconciler({
      apps: this.apps,
      router: this.router,
      metrics: this.metrics,
      logger: this.logger,
      state: () => this.state,
      sessionsOn: (link) => [...this.sessions].filter((s) => s.server.name === link.name),
      bridgesOn: (link) => [...this.bridges].filter((b) => b.server.name === link.name),
      accepts: (link, start) => this.options.acceptCall?.(start, link.name) ?? true,
      adopt: (link, start) => {
        if (this.state !== 'running') this.inbound(link, start);
        else this.newSession(link, start.channel.id, 'inbound', start.application).adopt(start);
      },
      timestamp: () => formatTimestamp(this.clock.now()),
      reported: (report) => {
        this.gapsSubject.next(report);
        try {
          this.options.onGap?.(report);
        } catch (error) {
          this.logger.error({ err: error }, 'onGap callback threw');
        }
      },
    });
    const names = new Set<string>();
    this.linkContext = {
      apps: this.apps,
      subscribeAll: options.subscribeAll ?? false,
      clock,
      router: this.router,
      metrics: this.metrics,
      logger: this.logger,
      pickId: (kind) => `${kind}-${this.ids()}`,
      cleanupRetry,
      leftoverRounds: LEFTOVER_ROUNDS,
      queues: this.queues,
    };
    this.links = options.servers.map((server, index) => {
      const link = new ServerLink(server, this.linkContext);
      if (names.has(link.name)) {
        throw new RingflowError(
          ErrorCode.CONFIG,
          `options.servers[${index}].name "${link.name}" is used twice: give each server its own name.`,
        );
      }
      names.add(link.name);
      return link;
    });
    this.machines = new MachinePicker(options.call, (name) => this.appOf(name));
    this.stored = new StoredCalls({
      store: options.store,
      apps: this.apps,
      router: this.router,
      restore: (link, record) =>
        this.newSession(link, record.channelId, record.direction, record.app).restore(record),
    });
    this.accepted = options.listen
      ? new AcceptedServers(
          {
            linkContext: this.linkContext,
            logger: this.logger,
            router: this.router,
            store: options.store,
            follow: (link) => this.follow(link),
            unfollow: (link) => this.unfollow(link),
            appOf: (name) => this.appOf(name),
            sessions: () => this.sessions,
            call: (channelId) => this.call(channelId),
            restoreOn: (link, record) =>
              this.newSession(link, record.channelId, record.direction, record.app).restore(record),
            claim: (store, listed, link) => this.stored.claim(store, listed, link),
          },
          options.listen,
          this.clock,
        )
      : undefined;
  }

  /** Connects to every server; resolves when every event stream is open. */
  async start(): Promise<void> {
    if (this.state !== 'new')
      throw new RingflowError(ErrorCode.CONFIG, `start() called twice (state: ${this.state})`);
    this.state = 'starting';
    for (const link of this.links) this.follow(link);
    await Promise.all(this.links.map((link) => link.start()));
    await Promise.all(this.links.map((link) => this.stored.restoreOn(link)));
    await this.accepted?.listen();
    const ids = new Set(this.links.map((l) => l.server.asteriskId));
    if (ids.size !== this.links.length) {
      this.logger.warn('two servers report the same asterisk_id; events cannot be told apart by server');
    }
    this.state = 'running';
    this.logger.info({ apps: this.apps, servers: this.links.map((l) => l.name) }, 'application started');
  }

  /** Where servers dial the application (with `listen`), once started. */
  get listening(): ServerSocketListener | undefined {
    return this.accepted?.listener;
  }

  /** The call sessions in progress. */
  activeCalls(): CallSession[] {
    return [...this.sessions];
  }

  /** The session of a call by its channel id. */
  call(channelId: string): CallSession | undefined {
    for (const s of this.sessions) if (s.channelId === channelId) return s;
    return undefined;
  }

  /** The bridge sessions in progress. */
  activeBridges(): BridgeSession[] {
    return [...this.bridges];
  }

  /** The REST client of a server (by name; default the first), for work outside calls. */
  client(server?: string) {
    return this.link(server).client;
  }

  /** Events received that no session owned and that did not start a call. */
  get unroutedEvents(): number {
    return this.unrouted;
  }

  counters(): RuntimeCounters {
    let subscriptions = 0;
    let timers = this.clock.pendingTimers;
    for (const l of this.allLinks()) timers += l.pendingTimers;
    let pendingRequests = 0;
    let digitWaiters = 0;
    for (const s of this.sessions) {
      const c = s.counters();
      subscriptions += c.subscriptions;
      timers += c.timers;
      pendingRequests += c.pendingRequests;
      digitWaiters += c.digitWaiters;
    }
    for (const b of this.bridges) {
      const c = b.counters();
      subscriptions += c.subscriptions;
      pendingRequests += c.pendingRequests;
    }
    for (const l of this.allLinks()) pendingRequests += l.pendingCleanups;
    return {
      activeSessions: this.sessions.size,
      bridgeSessions: this.bridges.size,
      subscriptions,
      timers,
      pendingRequests,
      routes: this.router.size,
      digitWaiters,
    };
  }

  /**
   * Each server's event stream and where it stands (`open` while events flow), with the
   * applications another connection took over there (`ApplicationReplaced`); for readiness probes.
   */
  connections(): {
    readonly server: string;
    readonly state: ConnectionState;
    readonly replaced: readonly string[];
  }[] {
    return this.allLinks().map((link) => ({
      server: link.name,
      state: link.stream.state,
      replaced: link.replacedApps,
    }));
  }

  /**
   * Follows a link before it starts: its events are routed, a gap in its stream is reconciled,
   * a leftover cleanup is swept again later.
   */
  private follow(link: ServerLink): void {
    const followed = link.events$.subscribe((event) => this.onEvent(link, event));
    followed.add(link.gaps$.subscribe((gap) => void this.reconciler.reconcile(link, gap)));
    followed.add(link.leftovers$.subscribe(() => this.scheduleSweep(link)));
    this.followed.set(link, followed);
  }

  private unfollow(link: ServerLink): void {
    this.followed.get(link)?.unsubscribe();
    this.followed.delete(link);
  }

  private allLinks(): ServerLink[] {
    return this.accepted ? [...this.links, ...this.accepted.links] : [...this.links];
  }

  /** The application a name given by the server belongs to: itself, or `<app>` of `<app>:<channel>`. */
  private appOf(name: string): string | undefined {
    if (this.apps.includes(name)) return name;
    const colon = name.indexOf(':');
    if (colon <= 0) return undefined;
    const base = name.slice(0, colon);
    return this.apps.includes(base) ? base : undefined;
  }

  private link(name?: string): ServerLink {
    if (name === undefined) {
      const first = this.links[0];
      if (first) return first;
      throw new RingflowError(
        ErrorCode.CONFIG,
        'no server to dial: this application only listens; work outside calls needs a server in options.servers',
      );
    }
    const link = this.links.find((l) => l.name === name);
    if (!link) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `no server named "${name}"; the servers are: ${this.links.map((l) => l.name).join(', ')}`,
      );
    }
    return link;
  }

  private newSession(
    link: ServerLink,
    channelId: string,
    direction: 'inbound' | 'outbound',
    app: string | undefined,
    machine?: AnyStateMachine,
  ) {
    const session = new CallSession(link, {
      channelId,
      direction,
      ...(app === undefined ? {} : { app }),
      sharedStream: this.apps.length > 1,
      ...(this.options.store ? { store: this.options.store } : {}),
      machineFor: this.machines.for(link.name, direction, machine),
      onEnded: this.onSessionEnded,
    });
    this.sessions.add(session);
    this.claims?.settled(channelId);
    this.accepted?.sessionStarted(session, link);
    this.metrics.callStarted(direction);
    this.callsSubject.next(session);
    return session;
  }

  private readonly onSessionEnded = (session: CallSession, ended: CallEnded): void =>
    this.sessionEnded(session, ended);

  private sessionEnded(session: CallSession, ended: CallEnded): void {
    this.sessions.delete(session);
    this.reconciler.sessionEnded(session.channelId);
    this.metrics.callEnded(ended.outcome);
    this.claims?.roomFreed();
    this.callEndedSubject.next(ended);
    try {
      this.options.onCallEnded?.(ended);
    } catch (error) {
      this.logger.error({ err: error, call: ended.callId }, 'onCallEnded callback threw');
    }
  }

  private onEvent(link: ServerLink, event: StreamEvent): void {
    this.metrics.eventReceived(link.name);
    const asteriskId = typeof event.asterisk_id === 'string' ? event.asterisk_id : link.server.asteriskId;
    if (this.router.route(asteriskId, event) > 0) return;
    if (isEventType(event, 'DeviceStateChanged')) {
      this.queues.deviceChanged(link.name, event.device_state);
      return;
    }
    if (isEventType(event, 'CallBroadcast') && this.claims && this.appOf(event.application) !== undefined) {
      this.claims.offered(link.client, event, link.logger);
      return;
    }
    if (isEventType(event, 'ApplicationReplaced') && this.appOf(event.application) !== undefined) {
      this.replacedOn(link, event.application);
      return;
    }
    if (isEventType(event, 'ApplicationRegistered') && this.accepted?.has(link)) {
      void this.accepted.takeOver(link, event.application);
      return;
    }
    if (event.type === 'StasisStart' && this.appOf((event as StasisStart).application) !== undefined) {
      if (this.options.acceptCall?.(event as StasisStart, link.name) === false) return;
      this.inbound(link, event as StasisStart);
      return;
    }
    this.unrouted++;
  }

  /**
   * Another connection registered one of the application's names on this server (a second
   * process with the same application, or a stray test): the server now sends that
   * application's events there and nothing more here (and keeps the socket open). Said as an
   * error, and /readyz says not ready (see {@link connections}); the link does not reconnect to
   * take the application back (see {@link ServerLink.markReplaced}). The calls of that application
   * on this link can no longer hear their events: they are let go untouched (`detached`), their
   * records left in the store for whoever serves the application now.
   */
  private replacedOn(link: ServerLink, application: string): void {
    const accepted = this.accepted?.has(link) === true;
    if (!link.markReplaced(application, accepted)) return;
    const app = this.appOf(application);
    const calls = [...this.sessions].filter(
      (s) =>
        (this.accepted?.linkOf(s) ?? this.links.find((l) => l.name === s.server.name)) === link &&
        (s.application === undefined || this.appOf(s.application) === app),
    );
    link.logger.error(
      { app: application, calls: calls.map((s) => s.channelId) },
      `another connection registered application "${application}" on this server, which now sends its events there instead of here. ` +
        'This process stops serving it on this server and does not reconnect to take it back; its calls here are let go untouched' +
        (this.options.store ? ' (their records stay in the store)' : '') +
        '. Two processes cannot share one application name on a server: stop one, give each its own name, or use cluster mode.',
    );
    for (const s of calls) s.end('detached');
  }

  private inbound(link: ServerLink, start: StasisStart): void {
    const channelId = start.channel.id;
    if (this.state === 'draining' || this.state === 'stopped') {
      const how = this.options.whileDraining ?? 'hangup';
      link.logger.info({ call: channelId, how }, 'not taking new calls (draining)');
      if (how === 'continue')
        link.cleanup(`continue ${channelId}`, () => link.client.channel(channelId).continueInDialplan());
      else
        link.cleanup(`refuse ${channelId}`, () =>
          link.client.channel(channelId).hangup({ reason: 'congestion' }),
        );
      return;
    }
    this.newSession(link, channelId, 'inbound', start.application).deliver(start);
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
    const link = this.link(server);
    const channelId = `channel-${this.ids()}`;
    const into = app ?? this.apps[0]!;
    const session = this.newSession(link, channelId, 'outbound', into, machine);
    try {
      await link.client.channels.originate({ ...params, app: into, channelId });
    } catch (error) {
      session.end('failed');
      throw error;
    }
    return session;
  }

  /**
   * Creates a bridge owned by the application (a conference room) and its bridge session.
   *
   * @example
   * const room = await app.createBridge({ name: 'sales', type: 'mixing,dtmf_events' });
   */
  async createBridge(options: CreateBridgeOptions = {}): Promise<BridgeSession> {
    const { server, ...rest } = options;
    const link = this.link(server);
    const bridge = new BridgeSession(
      link,
      { ...rest, bridgeId: `bridge-${this.ids()}`, sharedStream: this.apps.length > 1 },
      (b) => this.bridges.delete(b),
    );
    this.bridges.add(bridge);
    try {
      await bridge.create();
    } catch (error) {
      bridge.end();
      throw error;
    }
    return bridge;
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
    this.drainDeadline = this.clock.now() + options.deadlineMs;
    this.logger.info({ activeCalls: this.sessions.size, deadlineMs: options.deadlineMs }, 'draining');
    for (const s of this.sessions) s.call?.send({ type: 'call.draining', deadline: this.drainDeadline });
    if (this.sessions.size === 0) return;
    const timer = this.clock.setTimeout(() => {
      this.logger.warn(
        { activeCalls: this.sessions.size },
        'drain deadline passed; hanging up the calls left',
      );
      for (const s of [...this.sessions]) s.end('drained', true);
    }, options.deadlineMs);
    await Promise.all([...this.sessions].map((s) => s.done));
    this.clock.clearTimeout(timer);
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
    const sessions = [...this.sessions];
    for (const s of sessions) s.end('detached');
    return sessions.length;
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
    for (const link of this.links) restored += await this.stored.restoreOn(link, accept);
    return restored;
  }

  /**
   * Stops: hangs up calls still active, destroys the application's bridges, closes every event
   * stream and REST client. Resolves when everything is released.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    for (const s of [...this.sessions]) s.end('stopped', true);
    this.sweeps.clear();
    for (const b of [...this.bridges]) b.destroy();
    this.queues.stop();
    this.clock.clearAll();
    await this.accepted?.close();
    await Promise.all(this.links.map((l) => l.close()));
    for (const link of [...this.followed.keys()]) this.unfollow(link);
    this.callsSubject.complete();
    this.gapsSubject.complete();
    this.callEndedSubject.complete();
    this.logger.info('application stopped');
  }

  /** A cleanup left a channel or bridge behind: remove it again after `leftoverSweepMs`. */
  private scheduleSweep(link: ServerLink): void {
    if (this.leftoverSweepMs === 0 || this.state === 'stopped' || this.sweeps.has(link)) return;
    const timer = this.clock.setTimeout(() => {
      this.sweeps.delete(link);
      if (this.state === 'stopped') return;
      const retried = link.removeLeftovers();
      if (retried.length > 0) link.logger.info({ leftovers: retried }, 'removing leftovers again');
    }, this.leftoverSweepMs);
    this.sweeps.set(link, timer);
  }
}

/** How many rounds (reconciliations, sweeps) try to remove a leftover before it is given up. */
const LEFTOVER_ROUNDS = 5;

const DEFAULT_LEFTOVER_SWEEP_MS = 10_000;

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
