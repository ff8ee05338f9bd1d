import {
  type Clock,
  createEventStream,
  createRestClient,
  type EventGap,
  type EventStream,
  type RestClient,
  type StreamEvent,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { ServerInfo } from '../call/CallHandle.ts';
import { safeUrl } from '../logging/createRuntimeLogger.ts';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { SessionHost } from '../session/SessionHost.ts';
import type { SessionRouter } from '../session/SessionRouter.ts';
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
  readonly onEvent: (link: ServerLink, event: StreamEvent) => void;
  readonly onGap: (link: ServerLink, gap: EventGap) => void;
}

function defaultName(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

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

  constructor(options: ServerOptions, context: ServerLinkContext) {
    this.context = context;
    this.name = options.name ?? defaultName(options.url);
    this.clock = context.clock;
    this.router = context.router;
    this.metrics = context.metrics;
    this.logger = context.logger.child({ server: this.name });
    this.info = { name: this.name, asteriskId: this.name };
    this.client = createRestClient({
      url: options.url,
      username: options.username,
      password: options.password,
      clock: context.clock,
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.tls ? { tls: options.tls } : {}),
      ...(options.restTransport ? { transport: options.restTransport } : {}),
      ...(options.restTimeoutMs === undefined ? {} : { timeoutMs: options.restTimeoutMs }),
      onRequest: (record) =>
        this.metrics.restRequestDone(record.operation, record.durationMs, record.status ?? 0),
    });
    this.stream = createEventStream({
      url: options.url,
      apps: context.apps,
      subscribeAll: context.subscribeAll,
      username: options.username,
      password: options.password,
      clock: context.clock,
      // The same credentials travel the same way on the event socket as on REST requests.
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.tls ? { tls: options.tls } : {}),
      ...options.eventStream,
      ...(options.eventTransport ? { transport: options.eventTransport } : {}),
    });
    this.logger.debug({ url: safeUrl(options.url), apps: context.apps }, 'server configured');
  }

  get server(): ServerInfo {
    return this.info;
  }

  /** Learns the server's identity, then listens to its events; resolves once the stream is open. */
  async start(): Promise<void> {
    const ping = await this.client.asterisk.ping();
    if (typeof ping.asterisk_id === 'string' && ping.asterisk_id !== '') {
      this.info = { name: this.name, asteriskId: ping.asterisk_id };
    }
    this.subscriptions.push(
      this.stream.events$.subscribe((event) => this.context.onEvent(this, event)),
      this.stream.gaps$.subscribe((gap) => {
        this.metrics.reconnects.inc({ server: this.name });
        this.context.onGap(this, gap);
      }),
      this.stream.problems$.subscribe((problem) =>
        this.logger.warn({ problem: problem.kind, err: problem.error }, 'event stream problem'),
      ),
    );
    await this.stream.whenOpen();
    this.logger.info({ asteriskId: this.info.asteriskId }, 'connected');
  }

  pickId(kind: string): string {
    return this.context.pickId(kind);
  }

  cleanup(what: string, run: () => Promise<unknown>): void {
    this.cleanupPending++;
    run()
      .catch((error: unknown) => this.logger.debug({ err: error }, `cleanup failed: ${what}`))
      .finally(() => {
        this.cleanupPending--;
        if (this.cleanupPending === 0) for (const wake of [...this.cleanupWaiters]) wake();
      });
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
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions.length = 0;
    await this.stream.close();
    await this.whenCleanedUp();
    await this.client.close();
  }
}
