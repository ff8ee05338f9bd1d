import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Observable } from 'rxjs';
import { Subject } from '../rx.ts';
import { WebSocketServer } from 'ws';
import { webSocketMediaConnection } from './MediaConnection.ts';
import { MAX_MEDIA_MESSAGE_BYTES } from './mediaLimits.ts';
import { MediaSocket, type MediaSocketOptions } from './MediaSocket.ts';

export interface MediaSocketServerOptions extends MediaSocketOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (any free port: read `port` after listening). */
  readonly port?: number;
  /** Only this path is served (`/media-out`); default any path. */
  readonly path?: string;
  /** The credentials the server's `websocket_client` sends (Basic); without them, none are asked. */
  readonly username?: string;
  readonly password?: string;
}

/**
 * The application's WebSocket server for media channels the server connects out to
 * (`external_host=<websocket_client id>`, `connection_type=client`): the server's
 * `websocket_client` (in websocket_client.conf) points at it. Every call is a new connection;
 * the handshake carries no channel id, so sockets are told apart by MEDIA_START's `channel_id`:
 * {@link socketFor}. Checks the Basic credentials when configured (401 otherwise) and answers the
 * `media` subprotocol.
 *
 * @example
 * const media = await MediaSocketServer.listen({ port: 18931, path: '/media-out', username: 'bot', password: 'secret' });
 * const waiting = media.socketFor('call-1-media');
 * await client.channels.externalMedia({ app: 'bot', channelId: 'call-1-media', external_host: 'bot-media',
 *   transport: 'websocket', encapsulation: 'none', format: 'ulaw' });
 * const socket = await waiting;
 */
export class MediaSocketServer {
  private readonly sockets = new Subject<MediaSocket>();
  /** Started sockets nobody asked for yet, by channel id. */
  private readonly unclaimed = new Map<string, MediaSocket>();
  private readonly waiters = new Map<
    string,
    { resolve: (s: MediaSocket) => void; reject: (e: Error) => void }[]
  >();
  private closedServer = false;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly port: number,
    private readonly options: MediaSocketServerOptions,
  ) {
    wss.on('connection', (ws) => {
      const socket = new MediaSocket(webSocketMediaConnection(ws), options);
      this.sockets.next(socket);
      socket.started.then(({ start }) => this.claimOrKeep(start.channel_id, socket)).catch(() => {});
    });
  }

  /** Starts listening. */
  static listen(options: MediaSocketServerOptions = {}): Promise<MediaSocketServer> {
    const http = createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain' }).end('a WebSocket upgrade is expected here\n');
    });
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_MEDIA_MESSAGE_BYTES,
      perMessageDeflate: false,
      handleProtocols: (protocols) => (protocols.has('media') ? 'media' : false),
    });
    http.on('upgrade', (request: IncomingMessage, socket, head) => {
      const refusal = refuse(request, options);
      if (refusal) {
        socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    });
    return new Promise((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        http.off('error', reject);
        resolve(new MediaSocketServer(http, wss, (http.address() as AddressInfo).port, options));
      });
    });
  }

  /** `ws://host:port/path`: the `uri` for websocket_client.conf. */
  get url(): string {
    return `ws://${this.options.host ?? '127.0.0.1'}:${this.port}${this.options.path ?? '/'}`;
  }

  /** Every connection the server opens, as it opens (before MEDIA_START). */
  get sockets$(): Observable<MediaSocket> {
    return this.sockets.asObservable();
  }

  /**
   * The socket of the media channel `channelId`, once its MEDIA_START came (at once if it already
   * did). Rejects when this server closes first; bound the wait yourself (a server that cannot
   * connect destroys the channel with cause 3).
   */
  socketFor(channelId: string): Promise<MediaSocket> {
    const ready = this.unclaimed.get(channelId);
    if (ready) {
      this.unclaimed.delete(channelId);
      return Promise.resolve(ready);
    }
    if (this.closedServer) return Promise.reject(new Error('media socket server closed'));
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(channelId) ?? [];
      list.push({ resolve, reject });
      this.waiters.set(channelId, list);
    });
  }

  /** Stops listening and closes every connection (1001). */
  close(): Promise<void> {
    this.closedServer = true;
    const gone = new Error('media socket server closed');
    for (const list of this.waiters.values()) for (const waiter of list) waiter.reject(gone);
    this.waiters.clear();
    this.unclaimed.clear();
    this.sockets.complete();
    for (const ws of this.wss.clients) ws.close(1001);
    this.wss.close();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }

  private claimOrKeep(channelId: string, socket: MediaSocket): void {
    const waiter = this.waiters.get(channelId)?.shift();
    if (this.waiters.get(channelId)?.length === 0) this.waiters.delete(channelId);
    if (waiter) {
      waiter.resolve(socket);
      return;
    }
    this.unclaimed.set(channelId, socket);
    void socket.closed.then(() => {
      if (this.unclaimed.get(channelId) === socket) this.unclaimed.delete(channelId);
    });
  }
}

function refuse(request: IncomingMessage, options: MediaSocketServerOptions): string | undefined {
  const path = (request.url ?? '/').split('?')[0];
  if (options.path !== undefined && path !== options.path) return '404 Not Found';
  if (options.username !== undefined) {
    const expected = Buffer.from(
      `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`,
    );
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return '401 Unauthorized';
  }
  return undefined;
}
