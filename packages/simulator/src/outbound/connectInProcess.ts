import type {
  AcceptedServerSocket,
  EventTransport,
  EventTransportConnection,
  EventTransportHandlers,
  ListenAccount,
  ServerSocketListener,
} from '@ringflow/client';
import type { ApplicationDialer, ApplicationPipe } from './ApplicationPipe.ts';

/** Options of {@link connectInProcess}: what `listenForServers` would check, without a socket. */
export interface InProcessListenOptions {
  /** The path the server must dial (the path of the connection's `uri`); default: any path. */
  readonly path?: string;
  /** Accepted credentials; empty or absent: none required (as `listenForServers`). */
  readonly accounts?: readonly ListenAccount[];
}

/**
 * The application's side of {@link connectInProcess}: a listener like `listenForServers`'s (give
 * it to the runtime with `listen.accept`), plus the dialer the server uses to reach it.
 */
export interface InProcessListener extends ServerSocketListener {
  /** Give it to `startOutboundWebSockets(sim, { dial })`: the server dials this listener. */
  readonly dial: ApplicationDialer;
  /**
   * Stops accepting (later dials fail as with nobody listening) and closes every connection
   * (1001). Resolves at once: nothing waits on a network.
   */
  close(): Promise<void>;
}

/**
 * An application listening for the server in the same process: the simulator's outbound
 * connections (`startOutboundWebSockets` with this `dial`) reach `onConnection` as accepted
 * sockets, exactly as `listenForServers` hands them over, but through an in-memory pipe of text
 * frames instead of TCP. Frames are JSON text both ways, delivered in order on later microtasks,
 * so the same framing code runs (RESTRequest/RESTResponse included) and a virtual clock can move
 * once pending work has settled.
 *
 * @example
 * const listener = connectInProcess({ path: '/ari-call' }, (socket) => {
 *   const stream = createEventStream({ url: 'http://sim/ari', apps: ['ow-call'], transport: socket.transport, restOverSocket: true });
 * });
 * startOutboundWebSockets(sim, { dial: listener.dial, clock,
 *   connections: [{ connectionType: 'per_call_config', uri: 'ws://in-process/ari-call', apps: ['ow-call'] }] });
 */
export function connectInProcess(
  options: InProcessListenOptions,
  onConnection: (socket: AcceptedServerSocket) => void,
): InProcessListener {
  const accounts = options.accounts ?? [];
  const open = new Set<InProcessPair>();
  let accepted = 0;
  let refused = 0;
  let closed = false;

  const dial: ApplicationDialer = async (config) => {
    let path: string;
    try {
      path = new URL(config.uri).pathname;
    } catch {
      throw new Error(`invalid uri '${config.uri}'`);
    }
    const refusal = closed
      ? 'connection refused (nobody listens in this process)'
      : options.path !== undefined && path !== options.path
        ? 'refused with 404'
        : accounts.length > 0 &&
            !accounts.some((a) => a.username === config.username && a.password === (config.password ?? ''))
          ? 'refused with 401'
          : undefined;
    if (refusal) {
      refused++;
      throw new Error(refusal);
    }
    accepted++;
    const pair = new InProcessPair(() => open.delete(pair));
    open.add(pair);
    try {
      onConnection({ path, remoteAddress: 'in-process', transport: pair.applicationSide() });
    } catch (error) {
      // The application failed to take the connection: the server sees it close at once.
      pair.close(1011, 'the application failed to accept the connection');
      throw error;
    }
    return pair.serverSide;
  };

  return {
    dial,
    host: 'in-process',
    port: 0,
    url: `ws://in-process${options.path ?? '/'}`,
    get openConnections() {
      return open.size;
    },
    get acceptedConnections() {
      return accepted;
    },
    get refusedConnections() {
      return refused;
    },
    async close() {
      closed = true;
      for (const pair of [...open]) pair.close(1001, 'application shutting down');
    },
  };
}

/** One in-memory connection: the server's pipe and the application's one-shot event transport. */
class InProcessPair {
  private state: 'open' | 'closed' = 'open';
  private readonly serverHandlers: ((frame: string) => void)[] = [];
  private readonly serverClosers: ((code: number) => void)[] = [];
  private application: EventTransportHandlers | undefined;
  /** Frames the server sent before the application connected its stream. */
  private readonly held: string[] = [];
  private connected = false;

  readonly serverSide: ApplicationPipe;

  constructor(private readonly released: () => void) {
    this.serverSide = this.makeServerSide();
  }

  private makeServerSide(): ApplicationPipe {
    const isOpen = () => this.state === 'open';
    return {
      get open() {
        return isOpen();
      },
      send: (frame) => {
        if (this.state !== 'open') throw new Error('the connection is closed');
        queueMicrotask(() => {
          if (this.state !== 'open') return;
          if (this.application) this.application.message(frame);
          else this.held.push(frame);
        });
      },
      close: (code = 1000) => this.close(code, ''),
      onMessage: (handler) => {
        this.serverHandlers.push(handler);
      },
      onClose: (handler) => {
        this.serverClosers.push(handler);
      },
    };
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    // Frames already on their way arrive first, as on a socket.
    queueMicrotask(() => {
      if (this.state === 'closed') return;
      this.state = 'closed';
      this.released();
      for (const closer of this.serverClosers) closer(code);
      this.application?.closed(code, reason);
    });
  }

  applicationSide(): EventTransport {
    return {
      connect: (_request, on): EventTransportConnection => {
        const connection: EventTransportConnection = {
          ping: () => queueMicrotask(() => this.state === 'open' && on.pong()),
          send: (frame) => {
            if (this.state !== 'open') throw new Error('the connection is closed');
            queueMicrotask(() => {
              if (this.state !== 'open') return;
              for (const handler of this.serverHandlers) handler(frame);
            });
          },
          close: (code = 1000, reason = '') => this.close(code, reason),
          terminate: () => this.close(1006, ''),
        };
        if (this.connected || this.state === 'closed') {
          // The server dials again on a new connection; this one cannot be re-opened.
          queueMicrotask(() => on.rejected(410, 'This connection was opened by the server and has ended.'));
          return connection;
        }
        this.connected = true;
        this.application = on;
        on.open();
        for (const frame of this.held.splice(0)) on.message(frame);
        return connection;
      },
    };
  }
}
