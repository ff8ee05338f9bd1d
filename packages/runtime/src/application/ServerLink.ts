import type { CallQueue } from '../queue/CallQueue.ts';
import type { AgentDevices, QueueDirectory } from '../queue/QueueDirectory.ts';
import type { QueueSettings } from '../queue/QueueState.ts';
import {
  type Clock,
  createEventStream,
  createRestClient,
  type EventGap,
  type EventStream,
  type RestClient,
  type StreamEvent,
  UndiciTransport,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { Observable, Subscription } from 'rxjs';
import { Subject, tap } from '../rx.ts';
import type { ServerInfo } from '../call/CallHandle.ts';
import { safeUrl } from '../logging/createRuntimeLogger.ts';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { CleanupResource, SessionHost } from '../session/SessionHost.ts';
import type { SessionRouter } from '../session/SessionRouter.ts';
import { TrackingClock } from '../session/TrackingClock.ts';
import { type CleanupResult, type CleanupRetry, cleanupFailure } from './CleanupRetry.ts';
import type { ServerOptions } from './ServerOptions.ts';

/** What a link needs from its application. */
export interface ServerLinkContext {
  readonly apps: readonly string[];
  readonly subscribeAll: boolean;
  readonly clock: Clock;
  readonly router: SessionRouter;
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  readonly pickId: (kind: string) => string;
  /** How cleanup requests are retried. */
  readonly cleanupRetry: CleanupRetry;
  /** How many reconciliations try again to remove a leftover before it is given up. */
  readonly leftoverRounds: number;
  /** The application's call queues. */
  readonly queues: QueueDirectory;
}

/** A channel or bridge the runtime failed to remove: reconciliations try again. */
interface Leftover extends CleanupResource {
  /** Reconciliations that tried to remove it. */
  rounds: number;
}

function resourceKey(resource: CleanupResource): string {
  return `${resource.kind}\u0000${resource.id}`;
}

/** HTTP to the server's `url`, for what a socket cannot carry (binary downloads). */
function httpTransport(options: ServerOptions): UndiciTransport {
  return new UndiciTransport({
    url: options.url,
    username: options.username,
    password: options.password,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
  });
}

function defaultName(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** How many removed channels and bridges a link remembers (see `ServerLink.isBeingRemoved`). */
const REMOVED_KEPT = 4096;

/**
 * The application's connection to one server: a REST client and one event stream for all of
 * the application's names, and the server's identity (`asterisk_id`), learned at start.
 */
export class ServerLink implements SessionHost {
  readonly name: string;
  readonly client: RestClient;
  readonly stream: EventStream;
  readonly clock: Clock;
  readonly router: SessionRouter;
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  private info: ServerInfo;
  private readonly context: ServerLinkContext;
  private readonly subscriptions: Subscription[] = [];
  private cleanupPending = 0;
  private readonly cleanupWaiters = new Set<() => void>();
  /** Timers of cleanup retries waiting, each with the function that ends its wait early. */
  private readonly retryClock: TrackingClock;
  private readonly retryWaits = new Set<() => void>();
  /** Resources with a cleanup request running or waiting to retry, by key. */
  private readonly cleaning = new Map<string, number>();
  /**
   * Resources a cleanup removed lately (the last {@link REMOVED_KEPT}), by key: a server answers a
   * hang-up before it is carried out, so a listing made just after may still show the channel.
   */
  private readonly removed = new Set<string>();
  private readonly leftoverMap = new Map<string, Leftover>();
  private closing = false;
  private readonly leftoverSubject = new Subject<void>();
  /** Each time the event stream came back after a gap (the application reconciles then). */
  readonly gaps$: Observable<EventGap>;
  /** A cleanup failed and left a resource on the server (see `leftovers`): remove it again later. */
  readonly leftovers$: Observable<void> = this.leftoverSubject.asObservable();
  /** Set once the server's identity is known (from its ping, or the first event saying it). */
  private identified = false;
  /** Applications another connection registered on this server (`ApplicationReplaced`). */
  private readonly replaced = new Set<string>();

  constructor(options: ServerOptions, context: ServerLinkContext) {
    this.context = context;
    this.name = options.name ?? defaultName(options.url);
    this.clock = context.clock;
    this.retryClock = new TrackingClock(context.clock);
    this.router = context.router;
    this.metrics = context.metrics;
    this.logger = context.logger.child({ server: this.name });
    this.info = { name: this.name, asteriskId: this.name };
    this.stream = createEventStream({
      url: options.url,
      apps: context.apps,
      subscribeAll: context.subscribeAll,
      username: options.username,
      password: options.password,
      clock: context.clock,
      // Not before start(): a server gives an application's events to the connection that
      // registered it last, so merely making an application must not take them from a running
      // one; and events arriving before start() subscribed would be lost. A link whose REST goes
      // over the socket needs it open to learn the server's identity, so it connects at once.
      lazy: !options.restOverSocket,
      // The same credentials travel the same way on the event socket as on REST requests.
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.tls ? { tls: options.tls } : {}),
      ...options.eventStream,
      ...(options.eventTransport ? { transport: options.eventTransport } : {}),
      ...(options.restOverSocket
        ? { restOverSocket: true, restFallback: options.restTransport ?? httpTransport(options) }
        : {}),
    });
    this.gaps$ = this.stream.gaps$.pipe(tap(() => this.metrics.reconnects.inc({ server: this.name })));
    const restTransport = this.stream.restTransport ?? options.restTransport;
    this.client = createRestClient({
      url: options.url,
      username: options.username,
      password: options.password,
      clock: context.clock,
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.tls ? { tls: options.tls } : {}),
      ...(restTransport ? { transport: restTransport } : {}),
      ...(options.restTimeoutMs === undefined ? {} : { timeoutMs: options.restTimeoutMs }),
      ...(options.restConnections === undefined ? {} : { connections: options.restConnections }),
      onRequest: (record) =>
        this.metrics.restRequestDone(record.operation, record.durationMs, record.status ?? 0),
    });
    this.logger.debug({ url: safeUrl(options.url), apps: context.apps }, 'server configured');
  }

  get server(): ServerInfo {
    return this.info;
  }

  /**
   * Learns the server's identity, then opens the event stream; resolves once it is open. Subscribe
   * to its events (`followEvents`) and `gaps$` first.
   */
  async start(): Promise<void> {
    const ping = await this.client.asterisk.ping();
    if (typeof ping.asterisk_id === 'string' && ping.asterisk_id !== '') {
      this.info = { name: this.name, asteriskId: ping.asterisk_id };
      this.identified = true;
    }
    this.subscriptions.push(
      this.stream.problems$.subscribe((problem) =>
        this.logger.warn({ problem: problem.kind, err: problem.error }, 'event stream problem'),
      ),
    );
    this.stream.open();
    await this.stream.whenOpen();
    this.logger.info({ asteriskId: this.info.asteriskId }, 'connected');
  }

  /**
   * Starts on a socket the server opened (outbound WebSockets): the server sends at once
   * (`ApplicationRegistered`, then the call), so follow its events first; the server's
   * identity comes from the first event that carries it instead of a ping. Resolves once the
   * stream is open.
   */
  async startAccepted(): Promise<void> {
    this.subscriptions.push(
      this.stream.problems$.subscribe((problem) =>
        this.logger.warn({ problem: problem.kind, err: problem.error }, 'event socket problem'),
      ),
    );
    await this.stream.whenOpen();
  }

  /**
   * Gives `listener` the server's events, from `start()` on (follow before starting). A link on a
   * socket the server opened learns the server's identity from the first event that carries it,
   * before the listener sees it. One subscriber per event, on every event's path: no operator
   * between the stream and the listener.
   */
  followEvents(listener: (event: StreamEvent) => void): Subscription {
    return this.stream.events$.subscribe((event) => {
      this.identify(event);
      listener(event);
    });
  }

  /** The first event that says which server it comes from names the link's server (if not known yet). */
  private identify(event: StreamEvent): void {
    const application = 'application' in event ? event.application : undefined;
    if (this.application === undefined && typeof application === 'string' && application !== '')
      this.application = application;
    if (this.identified || typeof event.asterisk_id !== 'string' || event.asterisk_id === '') return;
    this.identified = true;
    this.info = { name: this.name, asteriskId: event.asterisk_id };
  }

  pickId(kind: string): string {
    return this.context.pickId(kind);
  }

  /** The application's call queue `name` on this server. */
  queue(name: string, settings?: QueueSettings): CallQueue {
    return this.context.queues.get(this.name, name, settings, this.agentDevices);
  }

  /**
   * The agents' device states through this link. The link's stream carries all its apps' events:
   * following a device through one is enough, named as the server named it to this link (a
   * per-call connection's application is `<app>:<channel name>`: the plain name is unknown there).
   */
  private readonly agentDevices: AgentDevices = {
    list: () => this.client.deviceStates.list(),
    watch: async (device) => {
      await this.client.applications.subscribe({
        applicationName: this.application ?? this.context.apps[0]!,
        eventSource: `deviceState:${device}`,
      });
    },
  };
  /** The application name of the first event that named one (see `agentDevices`). */
  private application: string | undefined;

  /**
   * Applications of this link that another connection registered on the server since
   * (`ApplicationReplaced`): the server sends their events there, and nothing more here.
   */
  get replacedApps(): readonly string[] {
    return [...this.replaced];
  }

  /**
   * The server gave `app`'s events to another connection. The link does not fight for them:
   * once every application of the stream is replaced (or on a socket the server opened) the
   * event stream is closed; before that, the stream is closed instead of reconnecting when it
   * drops, since a reconnect would register the replaced application again and take it back.
   * Returns false when `app` was already known as replaced.
   */
  markReplaced(app: string, accepted: boolean): boolean {
    if (this.replaced.has(app)) return false;
    this.replaced.add(app);
    if (accepted || this.context.apps.every((a) => this.replaced.has(a))) {
      void this.stream.close();
    } else if (this.replaced.size === 1) {
      this.subscriptions.push(
        this.stream.state$.subscribe((state) => {
          if (state.kind !== 'reconnecting') return;
          this.logger.error(
            { replaced: [...this.replaced] },
            'the event stream dropped after another connection took over some of its applications; not reconnecting (it would take them back)',
          );
          void this.stream.close();
        }),
      );
    }
    return true;
  }

  /**
   * Runs a cleanup request with bounded, jittered retries on the clock (see {@link CleanupRetry}):
   * no reply and 5xx are tried again, a 404 means done. A channel or bridge still there after the
   * last attempt becomes a leftover that the next reconciliations try to remove.
   */
  cleanup(what: string, run: () => Promise<unknown>, resource?: CleanupResource): void {
    this.cleanupPending++;
    const key = resource ? resourceKey(resource) : undefined;
    if (key) this.cleaning.set(key, (this.cleaning.get(key) ?? 0) + 1);
    void this.attempt(what, run)
      .then((result) => {
        if (resource && key) this.settleLeftover(what, resource, key, result);
      })
      .finally(() => {
        if (key) {
          const left = (this.cleaning.get(key) ?? 1) - 1;
          if (left === 0) this.cleaning.delete(key);
          else this.cleaning.set(key, left);
        }
        this.cleanupPending--;
        if (this.cleanupPending === 0) for (const wake of [...this.cleanupWaiters]) wake();
      });
  }

  private async attempt(what: string, run: () => Promise<unknown>): Promise<CleanupResult> {
    const retry = this.context.cleanupRetry;
    for (let attempt = 1; ; attempt++) {
      try {
        await run();
        return 'done';
      } catch (error) {
        const failure = cleanupFailure(error);
        if (failure === 'gone') return 'gone';
        const last = failure === 'refused' || attempt >= retry.attempts || this.closing;
        if (last) {
          this.metrics.cleanupsFailed.inc({ server: this.name });
          this.logger.warn({ err: error, attempts: attempt }, `cleanup failed: ${what}`);
          return failure === 'refused' ? 'refused' : 'gave-up';
        }
        this.metrics.cleanupRetries.inc({ server: this.name });
        this.logger.debug({ err: error, attempt }, `cleanup failed, retrying: ${what}`);
        await this.waitToRetry(retry.delayBefore(attempt + 1));
      }
    }
  }

  /** Waits on the clock; closing the link ends every wait at once (a last attempt, then no more). */
  private waitToRetry(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.retryWaits.delete(wake);
        this.retryClock.clearTimeout(timer);
        resolve();
      };
      const timer = this.retryClock.setTimeout(wake, delayMs);
      this.retryWaits.add(wake);
    });
  }

  private settleLeftover(what: string, resource: CleanupResource, key: string, result: CleanupResult): void {
    if (result === 'done' || result === 'gone') {
      if (this.leftoverMap.delete(key)) this.metrics.leftoversRemoved.inc({ server: this.name });
      this.removed.add(key);
      if (this.removed.size > REMOVED_KEPT) this.removed.delete(this.removed.values().next().value!);
      return;
    }
    if (this.closing) return;
    const known = this.leftoverMap.get(key);
    if (!known) {
      this.leftoverMap.set(key, { ...resource, rounds: 0 });
      this.logger.warn(
        { [resource.kind]: resource.id },
        `${what} failed; the next reconciliation with the server tries again`,
      );
      this.leftoverSubject.next();
    } else if (known.rounds >= this.context.leftoverRounds) {
      this.leftoverMap.delete(key);
      this.metrics.leftoversAbandoned.inc({ server: this.name });
      this.logger.error(
        { [resource.kind]: resource.id, rounds: known.rounds },
        `${what} kept failing; giving up on it (remove it on the server by hand)`,
      );
    } else this.leftoverSubject.next();
  }

  /**
   * True while the runtime is removing this channel or bridge, failed to and will try again, or
   * removed it lately (the server may list it a moment longer: it answers before it hangs up).
   */
  isBeingRemoved(kind: CleanupResource['kind'], id: string): boolean {
    const key = resourceKey({ kind, id });
    return this.cleaning.has(key) || this.leftoverMap.has(key) || this.removed.has(key);
  }

  /** Channels and bridges the runtime failed to remove (hang-up or destroy failed after its retries). */
  get leftovers(): readonly CleanupResource[] {
    return [...this.leftoverMap.values()].map(({ kind, id }) => ({ kind, id }));
  }

  /**
   * Removes again each leftover; given the server's listing, only the ones still there (the others
   * are forgotten). Returns the ids it is trying to remove.
   */
  removeLeftovers(liveChannels?: ReadonlySet<string>, liveBridges?: ReadonlySet<string>): string[] {
    const retried: string[] = [];
    for (const [key, leftover] of [...this.leftoverMap]) {
      const live =
        leftover.kind === 'channel' ? liveChannels?.has(leftover.id) : liveBridges?.has(leftover.id);
      if (live === false) {
        this.leftoverMap.delete(key);
        continue;
      }
      if (this.cleaning.has(key)) continue;
      leftover.rounds++;
      retried.push(leftover.id);
      const { kind, id } = leftover;
      if (kind === 'channel')
        this.cleanup(`hang up leftover channel ${id}`, () => this.client.channel(id).hangup(), { kind, id });
      else
        this.cleanup(`destroy leftover bridge ${id}`, () => this.client.bridge(id).destroy(), { kind, id });
    }
    return retried;
  }

  /** Cleanup retries waiting on the clock. */
  get pendingTimers(): number {
    return this.retryClock.pendingTimers;
  }

  /** Cleanup requests still running. */
  get pendingCleanups(): number {
    return this.cleanupPending;
  }

  /** Resolves when no cleanup request is running. */
  whenCleanedUp(): Promise<void> {
    if (this.cleanupPending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.cleanupWaiters.delete(wake);
        resolve();
      };
      this.cleanupWaiters.add(wake);
    });
  }

  /** Closes the event stream and the REST client. */
  async close(): Promise<void> {
    // Cleanups waiting to retry make their last attempt now instead of holding the close.
    this.closing = true;
    for (const wake of [...this.retryWaits]) wake();
    this.leftoverMap.clear();
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions.length = 0;
    await this.stream.close();
    await this.whenCleanedUp();
    this.leftoverSubject.complete();
    await this.client.close();
  }
}
