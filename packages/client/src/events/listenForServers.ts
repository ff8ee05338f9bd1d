import { timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type {
  EventTransport,
  EventTransportConnection,
  EventTransportHandlers,
  EventTransportRequest,
} from './EventTransport.ts';

/** Credentials a server must send (Basic) to be accepted: `username`/`password` in `websocket_client.conf`. */
export interface ListenAccount {
  readonly username: string;
  readonly password: string;
}

/** Where and how the application waits for servers to dial it. */
export interface ListenForServersOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** Port; 0 lets the OS choose (see `listener.port`). */
  readonly port: number;
  /** The path servers dial (`uri = ws://host:port/<path>`); others get 404. Default: any path. */
  readonly path?: string;
  /**
   * Accepted credentials. Empty or absent: no credentials are required (a real server sends none
   * when `websocket_client.conf` names no `username`); keep such a listener on a private network.
   */
  readonly accounts?: readonly ListenAccount[];
  /** For `wss://`: the certificate and key this listener presents. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
}

/** One connection a server opened to the application. */
export interface AcceptedServerSocket {
  /** The path it dialled. */
  readonly path: string;
  readonly remoteAddress: string;
  /**
   * The socket as an event transport for `createEventStream` (with `restOverSocket: true` for its
   * REST requests). It connects once, to this socket: frames that arrived before are delivered
   * first. A server that reconnects opens a new socket, reported as a new connection.
   */
  readonly transport: EventTransport;
}

/** A running listener; see {@link listenForServers}. */
export interface ServerSocketListener {
  readonly host: string;
  readonly port: number;
  /** `ws://host:port/path`, what goes in the server's `websocket_client.conf` `uri`. */
  readonly url: string;
  /** Sockets open now. */
  readonly openConnections: number;
  /** Sockets accepted since start. */
  readonly acceptedConnections: number;
  /** Handshakes refused (wrong path, wrong or missing credentials). */
  readonly refusedConnections: number;
  /** Stops listening and closes every socket (code 1001). */
  close(): Promise<void>;
}

/**
 * Waits for servers to dial the application (ARI "outbound WebSockets"): accepts WebSocket
 * handshakes on `path`, checks the Basic credentials the server sends against `accounts` (401
 * otherwise), agrees on the `ari` subprotocol, and hands each accepted socket to `onConnection`.
 *
 * @example
 * const listener = await listenForServers({ port: 8765, path: '/ari-app', accounts: [{ username: 'appuser', password: 'apppass' }] },
 *   (socket) => {
 *     const stream = createEventStream({ url: 'http://pbx/ari', apps: ['ow-app'], transport: socket.transport, restOverSocket: true });
 *     const client = createRestClient({ url: 'http://pbx/ari', username: '', password: '', segment: 'asterisk', transport: stream.restTransport });
 *   });
 */
export async function listenForServers(
  options: ListenForServersOptions,
  onConnection: (socket: AcceptedServerSocket) => void,
): Promise<ServerSocketListener> {
  const host = options.host ?? '127.0.0.1';
  const accounts = options.accounts ?? [];
  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key })
    : createHttpServer();
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has('ari') ? 'ari' : false),
  });
  const open = new Set<WebSocket>();
  let accepted = 0;
  let refused = 0;

  server.on('request', (_req, res) => {
    res
      .writeHead(426, { 'Content-Type': 'text/plain' })
      .end('This endpoint only accepts WebSocket connections.');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const refusal =
      options.path !== undefined && path !== options.path
        ? { status: 404, text: 'Not Found' }
        : accounts.length > 0 && !credentialsMatch(req.headers.authorization, accounts)
          ? { status: 401, text: 'Unauthorized' }
          : undefined;
    if (refusal) {
      refused++;
      const extra = refusal.status === 401 ? 'WWW-Authenticate: Basic realm="ringflow"\r\n' : '';
      socket.end(
        `HTTP/1.1 ${refusal.status} ${refusal.text}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted++;
      open.add(ws);
      ws.once('close', () => open.delete(ws));
      onConnection({ path, remoteAddress: req.socket.remoteAddress ?? '', transport: acceptedTransport(ws) });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const scheme = options.tls ? 'wss' : 'ws';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${options.path ?? '/'}`;

  return {
    host,
    port,
    url,
    get openConnections() {
      return open.size;
    },
    get acceptedConnections() {
      return accepted;
    },
    get refusedConnections() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of open) ws.close(1001, 'application shutting down');
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The accepted socket as a one-shot event transport; frames before `connect` are held. */
function acceptedTransport(ws: WebSocket): EventTransport {
  let handlers: EventTransportHandlers | undefined;
  const held: string[] = [];
  let closedWith: { code: number; reason: string } | undefined;
  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) return;
    const text = textOf(data);
    if (handlers) handlers.message(text);
    else held.push(text);
  });
  ws.on('pong', () => handlers?.pong());
  ws.on('error', (error) => handlers?.error(error));
  ws.once('close', (code: number, reason: Buffer) => {
    closedWith = { code, reason: reason.toString('utf8') };
    handlers?.closed(closedWith.code, closedWith.reason);
  });
  return {
    connect(_request: EventTransportRequest, on: EventTransportHandlers): EventTransportConnection {
      const connection: EventTransportConnection = {
        ping: () => {
          if (ws.readyState === ws.OPEN) ws.ping();
        },
        send: (frame) => {
          if (ws.readyState !== ws.OPEN) throw new Error('the WebSocket is not open');
          ws.send(frame);
        },
        close: (code = 1000, reason = '') => {
          if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reason);
          else if (handlers === on && closedWith === undefined) on.closed(1006, '');
        },
        terminate: () => ws.terminate(),
      };
      if (handlers !== undefined || closedWith !== undefined) {
        // The server dials again on a new socket; this one cannot be re-opened.
        queueMicrotask(() => on.rejected(410, 'This connection was opened by the server and has ended.'));
        return connection;
      }
      handlers = on;
      on.open();
      for (const frame of held.splice(0)) on.message(frame);
      return connection;
    },
  };
}

function credentialsMatch(header: string | undefined, accounts: readonly ListenAccount[]): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const given = Buffer.from(Buffer.from(header.slice(6).trim(), 'base64').toString('utf8'));
  return accounts.some((account) => {
    const expected = Buffer.from(`${account.username}:${account.password}`);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
