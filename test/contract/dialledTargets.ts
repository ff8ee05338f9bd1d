import {
  type AcceptedServerSocket,
  listenForServers,
  type RestTransport,
  type StreamEvent,
  UndiciTransport,
  VirtualClock,
} from '@ringflow/client';
import { inProcessRestTransport } from '@ringflow/runtime';
import {
  type ApplicationDialer,
  connectInProcess,
  dialWebSocket,
  type OutboundConnectionConfig,
  type OutboundWebSockets,
  type Simulator,
  startOutboundWebSockets,
  startWireServer,
} from '@ringflow/simulator';
import { Subject } from 'rxjs';
import { CallSocketRouter, type RouteCounts } from './CallSocketRouter.ts';
import { createSession } from './ContractSession.ts';
import { CountingServer, type DeliveryCount } from './CountingServer.ts';
import { type AdapterProblem, DialledConnection } from './DialledConnection.ts';
import type { EventSource } from './EventLog.ts';
import type { ContractTarget } from './targets.ts';
import { ARRIVAL_TIMEOUT_MS, MAX_VIRTUAL_MS, simulator, START, USER } from './targetSettings.ts';

/** How the server dials: one connection for the applications, or one per call. */
export type DialMode = 'persistent' | 'per-call';
/** What carries the dialled connections: WebSockets on loopback, or in-memory pipes (no sockets). */
export type DialCarrier = 'wire' | 'in-process';

/** What one session of a dialled target saw. */
export interface DialledStats {
  /** Connections the server opened, by kind (the carrier's persistent one included). */
  readonly opened: { persistent: number; perCall: number };
  /** Per-call targets: where the requests went. */
  readonly routes?: RouteCounts;
  /** Dialled connections that reached a path nobody expected (none in a good run). */
  readonly stray: readonly string[];
}

/** A contract target where the server dials the application; `last` tells what its last session saw. */
export interface DialledTarget extends ContractTarget {
  readonly last: DialledStats | undefined;
}

/** The credentials the simulated server sends when it dials (`websocket_client.conf` username/password). */
const APP_ACCOUNT = { username: 'appuser', password: 'apppass' };

/**
 * The server dials the application (ARI outbound WebSockets), persistent or per call, over
 * loopback WebSockets or in-memory pipes, on the same virtual clock as the other simulated
 * targets:
 * - REST travels as `RESTRequest` frames over a persistent connection of its own (the carrier,
 *   application `rest-carrier`); per call, a request about a call's channel (or a playback or
 *   recording started over its socket) goes over that call's own socket instead.
 * - `listen(apps)` configures a connection for `apps` (`subscribeAll` is ari.conf `subscribe_all`)
 *   and resolves once the server dialled it and registered them; per call, the log gathers every
 *   call's connection (`<app>:<channel name>`, shown as `<app>` in transcripts).
 * - Only binary downloads use HTTP (a socket cannot carry them), as `listen.http` does in the runtime.
 *
 * @example
 * const session = await dialledTarget('per-call', 'wire').start();
 */
export function dialledTarget(mode: DialMode, via: DialCarrier): DialledTarget {
  const name = `dialled-${mode}${via === 'in-process' ? '-in-process' : ''}`;
  let last: DialledStats | undefined;
  return {
    name,
    simulated: true,
    get last() {
      return last;
    },
    async start() {
      const clock = new VirtualClock(START);
      const sim = simulator(clock);
      const counting = new CountingServer(sim);
      const server = countedSimulator(sim, counting);
      const wire =
        via === 'wire'
          ? await startWireServer(counting, { users: [USER], clock, asteriskId: sim.asteriskId })
          : undefined;
      const url = wire?.url ?? 'http://simulator/ari';
      // Binary downloads cannot travel over a socket: they go over HTTP, as with listen.http.
      const fallback: RestTransport = wire
        ? new UndiciTransport({ url: wire.url, ...USER })
        : inProcessRestTransport(counting);

      const routes = new Map<string, (socket: AcceptedServerSocket) => void>();
      const stray: string[] = [];
      const accept = (socket: AcceptedServerSocket) => {
        const route = routes.get(socket.path);
        if (route) route(socket);
        else {
          stray.push(socket.path);
          refuse(socket);
        }
      };
      let base: string;
      let dial: ApplicationDialer;
      let stopListening: () => Promise<void>;
      if (via === 'wire') {
        const listener = await listenForServers({ port: 0, accounts: [APP_ACCOUNT] }, accept);
        base = `ws://127.0.0.1:${listener.port}`;
        dial = dialWebSocket;
        stopListening = () => listener.close();
      } else {
        const listener = connectInProcess({ accounts: [APP_ACCOUNT] }, accept);
        base = 'ws://in-process';
        dial = listener.dial;
        stopListening = () => listener.close();
      }

      // A per-call connection being dialled counts as an event on its way: time must not move
      // while the server waits for it (the call's StasisStart comes once it is open).
      const pending = new Map<string, number>();
      const progress = new Subject<void>();
      const pendingChange = (path: string, by: number) => {
        pending.set(path, (pending.get(path) ?? 0) + by);
        progress.next();
      };
      const dialCounted: ApplicationDialer = async (config, protocols) => {
        const path = new URL(config.uri).pathname;
        if (config.connectionType === 'per_call_config') pendingChange(path, 1);
        try {
          return await dial(config, protocols);
        } catch (error) {
          if (config.connectionType === 'per_call_config') pendingChange(path, -1);
          throw error;
        }
      };
      const outbounds: OutboundWebSockets[] = [];
      const connect = (path: string, config: Omit<OutboundConnectionConfig, 'uri'>) => {
        const outbound = startOutboundWebSockets(server, {
          connections: [{ ...config, uri: `${base}${path}`, ...APP_ACCOUNT }],
          dial: dialCounted,
        });
        outbounds.push(outbound);
        return outbound;
      };

      // The carrier: REST over a persistent connection of its own.
      const carrierSocket = firstSocket(routes, '/carrier');
      connect('/carrier', { connectionType: 'persistent', apps: ['rest-carrier'] });
      const carrier = new DialledConnection(await carrierSocket, url, { apps: ['rest-carrier'] }, fallback);
      await carrier.registration();
      const router = mode === 'per-call' ? new CallSocketRouter(carrier.rest) : undefined;

      let streams = 0;
      const openStream = (apps: readonly string[], subscribeAll: boolean): EventSource => {
        const path = `/listen/${++streams}`;
        if (mode === 'persistent') {
          const source = new PersistentSource();
          void firstSocket(routes, path).then((socket) =>
            source.attach(new DialledConnection(socket, url, { apps }, fallback)),
          );
          source.stop = connect(path, { connectionType: 'persistent', apps, subscribeAll });
          return source;
        }
        if (subscribeAll)
          throw new Error(
            `listen(${apps.join(',')}, { subscribeAll: true }) has no per-call form: give the scenario a notPerCall reason`,
          );
        const source = new PerCallSource(apps, counting, router!, () => pending.get(path) ?? 0, progress);
        routes.set(path, (socket) =>
          source.accept(
            new DialledConnection(socket, url, { perCall: apps }, fallback, ([registered]) => {
              // Take the connection's count before giving up its place among the pending dials.
              source.registered(registered!);
              pendingChange(path, -1);
            }),
          ),
        );
        source.stop = connect(path, { connectionType: 'per_call_config', apps });
        return source;
      };

      const stats = () => {
        const opened = { persistent: 0, perCall: 0 };
        for (const outbound of outbounds) {
          opened.persistent += outbound.opened.persistent;
          opened.perCall += outbound.opened.perCall;
        }
        return { opened, stray, ...(router ? { routes: router.counts } : {}) };
      };

      return createSession({
        target: name,
        url,
        ...USER,
        transport: router ?? carrier.rest,
        pace: { kind: 'virtual', clock, maxVirtualMs: MAX_VIRTUAL_MS, arrivalTimeoutMs: ARRIVAL_TIMEOUT_MS },
        idPrefix: '',
        openStream,
        claimCount: (apps, source) => (source instanceof PerCallSource ? source.count : counting.claim(apps)),
        appName: (application) => (mode === 'per-call' ? perCallBase(application) : application),
        shutdown: async () => {
          last = stats();
          for (const outbound of outbounds) await outbound.close();
          await carrier.close();
          await stopListening();
          await wire?.close();
          sim.close();
        },
      });
    },
  };
}

/** `demo-app:Local/s@stasis-ivr-00000000;2` -> `demo-app`: the application a per-call connection serves. */
function perCallBase(application: string): string {
  const colon = application.indexOf(':');
  return colon > 0 ? application.slice(0, colon) : application;
}

/** The simulator, with the events it hands to each connection counted (see CountingServer). */
function countedSimulator(sim: Simulator, counting: CountingServer): Simulator {
  return new Proxy(sim, {
    get(target, key) {
      if (key === 'connectEvents') return counting.connectEvents.bind(counting);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The first socket dialled to `path`; later ones (a re-dial after the test closed it) are refused. */
function firstSocket(
  routes: Map<string, (socket: AcceptedServerSocket) => void>,
  path: string,
): Promise<AcceptedServerSocket> {
  return new Promise((resolve) => {
    routes.set(path, (socket) => {
      routes.set(path, refuse);
      resolve(socket);
    });
  });
}

/** Closes a socket nobody reads. */
function refuse(socket: AcceptedServerSocket): void {
  const ignore = () => {};
  socket.transport
    .connect(
      { url: '', headers: {}, apps: [], subscribeAll: false },
      { open: ignore, message: ignore, pong: ignore, rejected: ignore, error: ignore, closed: ignore },
    )
    .close(1008, 'not expected');
}

/** A persistent connection's events, once the server dialled it and registered its applications. */
class PersistentSource implements EventSource {
  readonly events$ = new Subject<StreamEvent>();
  readonly problems$ = new Subject<AdapterProblem>();
  stop: { close(): Promise<void> } | undefined;
  private connection: DialledConnection | undefined;
  private opened: (() => void) | undefined;
  private readonly whenAttached = new Promise<void>((resolve) => {
    this.opened = resolve;
  });

  attach(connection: DialledConnection): void {
    this.connection = connection;
    connection.events$.subscribe((event) => this.events$.next(event));
    connection.problems$.subscribe((problem) => this.problems$.next(problem));
    void connection.registration().then(() => this.opened?.());
  }

  whenOpen(): Promise<void> {
    return this.whenAttached;
  }

  async close(): Promise<void> {
    // Stop the server first, or it would re-dial the connection this side closes.
    await this.stop?.close();
    await this.connection?.close();
    this.events$.complete();
    this.problems$.complete();
  }
}

/**
 * Every per-call connection of `apps`, merged into one log in arrival order. Scenarios that run
 * here act on one call at a time, so the order is the server's: each action's events travel on
 * the socket of the call it concerns.
 */
class PerCallSource implements EventSource {
  readonly events$ = new Subject<StreamEvent>();
  readonly problems$ = new Subject<AdapterProblem>();
  readonly progress$: Subject<void>;
  stop: { close(): Promise<void> } | undefined;
  /** Events the server sent to every call's connection, plus one per connection still being dialled. */
  readonly count: DeliveryCount;
  private readonly counts: DeliveryCount[] = [];
  private readonly connections: DialledConnection[] = [];

  constructor(
    apps: readonly string[],
    private readonly counting: CountingServer,
    private readonly router: CallSocketRouter,
    pendingDials: () => number,
    progress: Subject<void>,
  ) {
    this.progress$ = progress;
    const counts = this.counts;
    this.count = {
      apps: apps.join(','),
      claimed: true,
      get sent() {
        return pendingDials() + counts.reduce((n, c) => n + c.sent, 0);
      },
      set sent(_: number) {
        throw new Error('the count of per-call connections is computed');
      },
    };
  }

  accept(connection: DialledConnection): void {
    this.connections.push(connection);
    connection.events$.subscribe((event) => {
      const channel = (event as { channel?: { id?: unknown } }).channel?.id;
      if (event.type === 'StasisStart' && typeof channel === 'string')
        this.router.ownChannel(channel, connection);
      this.events$.next(event);
    });
    connection.problems$.subscribe((problem) => this.problems$.next(problem));
  }

  /** Called by a connection as it registers, before any of its events is handed over. */
  registered(name: string): void {
    this.counts.push(this.counting.claim([name]));
  }

  whenOpen(): Promise<void> {
    // Nothing to wait for: connections come with calls.
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.stop?.close();
    for (const connection of this.connections) await connection.close();
    this.events$.complete();
    this.problems$.complete();
  }
}
