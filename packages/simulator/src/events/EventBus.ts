import type { Clock } from '@ringflow/client';
import type { EventConnection, EventConnectionRequest, SimResponse } from '../transport.ts';
import { type EventSink, StasisApp } from './StasisApp.ts';
import type { EventScope, ScopeChannel } from './EventScope.ts';
import { formatTimestamp } from '@ringflow/client';

/** An event as published, before it is addressed to an application. */
export type PublishedEvent = Readonly<Record<string, unknown>> & { readonly type: string };

/** Receives every published event once, whoever is subscribed (the test driver listens here). */
export type EventListener = (event: PublishedEvent, scope: EventScope) => void;

class Connection implements EventSink, EventConnection {
  readonly apps: StasisApp[] = [];
  closed = false;
  constructor(
    private readonly bus: EventBus,
    readonly deliverFn: (event: Record<string, unknown>) => void,
  ) {}

  deliver(event: Record<string, unknown>): void {
    if (!this.closed) this.bus.enqueue(this, event);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const app of this.apps) if (app.sink === this) this.bus.deactivate(app);
  }
}

/**
 * Applications, their connections and the delivery of events. Events are addressed per
 * application (`application` set, filter applied) and delivered in publication order through one
 * queue, so a consumer that calls back into the server while handling an event cannot reorder them.
 */
export class EventBus {
  private readonly apps = new Map<string, StasisApp>();
  private readonly queue: { sink: Connection; event: Record<string, unknown> }[] = [];
  private draining = false;
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly clock: Clock,
    readonly asteriskId: string,
  ) {}

  /** The server's timestamp of now. */
  now(): string {
    return formatTimestamp(this.clock.now());
  }

  /** Opens an event stream for one or more applications (see {@link SimulatedServer.connectEvents}). */
  connect(
    request: EventConnectionRequest,
    deliver: (event: Record<string, unknown>) => void,
  ): EventConnection | SimResponse {
    const names = request.apps.map((a) => a.trim()).filter((a) => a !== '');
    if (names.length === 0) {
      return {
        status: 400,
        body: { message: 'Invalid application provided in param [app]. Give one or more names: app=my-app' },
      };
    }
    const connection = new Connection(this, deliver);
    for (const name of new Set(names)) {
      let app = this.apps.get(name);
      if (!app) {
        app = new StasisApp(name);
        this.apps.set(name, app);
      } else if (app.sink) {
        // The old socket is told once and then hears nothing more for this app.
        app.sink.deliver(this.address({ type: 'ApplicationReplaced', timestamp: this.now() }, app.name));
      }
      app.sink = connection;
      if (request.subscribeAll) app.subscribeAll();
      connection.apps.push(app);
    }
    return connection;
  }

  /**
   * Unbinds an application whose connection closed. Like the real server, it keeps its
   * subscriptions (and its channels stay in it), so a reconnecting client finds them again; it is
   * no longer listed and receives nothing meanwhile.
   */
  deactivate(app: StasisApp): void {
    app.sink = undefined;
  }

  /** Drops an application without a live connection, with its subscriptions. */
  forget(name: string): void {
    if (!this.apps.get(name)?.sink) this.apps.delete(name);
  }

  /** Names of every application known, connected or not (a reconnecting client finds its own again). */
  knownApps(): string[] {
    return [...this.apps.keys()];
  }

  /** An application known to the bus, connected or not (see `World.stasisApp`). */
  known(name: string): StasisApp | undefined {
    return this.apps.get(name);
  }

  /** An application with a live connection, or undefined. */
  app(name: string): StasisApp | undefined {
    const app = this.apps.get(name);
    return app?.sink ? app : undefined;
  }

  /** Every application with a live connection, in registration order. */
  activeApps(): StasisApp[] {
    return [...this.apps.values()].filter((a) => a.sink);
  }

  /** Adds a listener that sees every published event once (returns the remover). */
  listen(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Publishes an event to the applications concerned by `scope`.
   * `fields` must not contain `type`, `timestamp`, `application` or `asterisk_id`.
   */
  publish(type: string, fields: Readonly<Record<string, unknown>>, scope: EventScope): void {
    const event: PublishedEvent = { type, timestamp: this.now(), ...fields };
    for (const app of this.apps.values()) {
      if (!app.sink || !app.allows(type)) continue;
      const times = this.deliveries(app, scope);
      for (let i = 0; i < times; i++) app.sink.deliver(this.address(event, app.name));
    }
    for (const listener of this.listeners) listener(event, scope);
  }

  /** Closes every connection (server shutdown). */
  closeAll(): void {
    for (const app of [...this.apps.values()]) {
      const sink = app.sink as Connection | undefined;
      sink?.close();
    }
    this.apps.clear();
  }

  enqueue(sink: Connection, event: Record<string, unknown>): void {
    this.queue.push({ sink, event });
    if (this.draining) return;
    this.draining = true;
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) {
        if (!item.sink.closed) item.sink.deliverFn(item.event);
      }
    } finally {
      this.draining = false;
    }
  }

  private address(event: PublishedEvent, application: string): Record<string, unknown> {
    return { ...event, asterisk_id: this.asteriskId, application };
  }

  /** How many copies of an event an application gets (0 when it is not concerned). */
  private deliveries(app: StasisApp, scope: EventScope): number {
    if (scope.app !== undefined) return scope.app === app.name ? 1 : 0;
    if (scope.alsoApps?.includes(app.name)) return scope.twiceToAll && app.subscribedToAll ? 2 : 1;
    if (scope.serverWide) return app.allChannels ? 1 : 0;
    let concerned = false;
    if (scope.channels) for (const ch of scope.channels) if (ch && channelConcerns(app, ch)) concerned = true;
    if (!concerned && scope.bridgeId !== undefined)
      concerned = app.allBridges || app.bridgeIds.has(scope.bridgeId);
    if (!concerned && scope.endpoint) {
      const { technology, resource } = scope.endpoint;
      concerned =
        app.allEndpoints ||
        app.endpointIds.has(`${technology}/${resource}`) ||
        app.endpointIds.has(technology);
    }
    if (!concerned && scope.deviceName !== undefined) {
      concerned = app.allDevices || app.deviceNames.has(scope.deviceName);
    }
    if (!concerned) return 0;
    return scope.twiceToAll && app.subscribedToAll ? 2 : 1;
  }
}

/** A channel's events reach subscribers of the channel, of its endpoint and of its technology. */
function channelConcerns(app: StasisApp, ch: ScopeChannel): boolean {
  if (app.allChannels || app.channelIds.has(ch.id)) return true;
  if (ch.endpointKey === undefined) return false;
  return app.allEndpoints || app.endpointIds.has(ch.endpointKey) || app.endpointIds.has(ch.technology);
}
