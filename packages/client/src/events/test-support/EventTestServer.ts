import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

/** One upgrade request as the server saw it. */
export interface HandshakeRecord {
  /** Path and query as sent: `/ari/events?app=a,b&subscribeAll=true`. */
  readonly url: string;
  readonly authorization: string | undefined;
  /** What the server answered: 101, or the status of the refusal (0 when the socket was cut). */
  readonly status: number;
}

export interface EventTestServerOptions {
  /** Credentials the server accepts (Basic header or api_key); none means no authentication. */
  readonly username?: string;
  readonly password?: string;
  /** Answer pings (default true); false plays a server that went silent. */
  readonly autoPong?: boolean;
}

/**
 * A small stand-in for a real server's event endpoint, on 127.0.0.1 and a port from the OS. It
 * checks credentials and `app` the way the recorded server did (401 with a JSON message and a
 * `WWW-Authenticate` header; 400 with an HTML page), and lets a test send frames, drop sockets,
 * refuse or cut the next handshakes.
 */
export class EventTestServer {
  readonly handshakes: HandshakeRecord[] = [];
  /** Server sides of the accepted WebSockets, in order. */
  readonly sockets: WebSocket[] = [];
  /** Pings received, per socket index. */
  readonly pings: number[] = [];
  /** The next N upgrades have their TCP connection cut without an answer. */
  cutNext = 0;
  /** The next upgrade is refused with this status and body. */
  rejectNext: { status: number; body: string; contentType: string } | undefined;

  private readonly waiters: { index: number; resolve: (socket: WebSocket) => void }[] = [];
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly options: EventTestServerOptions;

  private constructor(options: EventTestServerOptions) {
    this.options = options;
    this.wss = new WebSocketServer({ noServer: true, autoPong: options.autoPong ?? true });
    this.http = createServer((_req, res) => {
      res.writeHead(426).end();
    });
    this.http.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  static async start(options: EventTestServerOptions = {}): Promise<EventTestServer> {
    const server = new EventTestServer(options);
    await new Promise<void>((resolve) => server.http.listen(0, '127.0.0.1', resolve));
    return server;
  }

  /** `http://127.0.0.1:<port>/ari`, what a client is given as its base URL. */
  get url(): string {
    const { port } = this.http.address() as AddressInfo;
    return `http://127.0.0.1:${port}/ari`;
  }

  /** The server side of the `index`-th accepted WebSocket (0-based), once it exists. */
  socket(index: number): Promise<WebSocket> {
    const existing = this.sockets[index];
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve) => this.waiters.push({ index, resolve }));
  }

  /** Sends frames (objects as JSON, strings as they are) on the `index`-th socket. */
  async send(index: number, ...frames: (string | object)[]): Promise<void> {
    const socket = await this.socket(index);
    for (const frame of frames) socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sockets still open on the server side. */
  get openSockets(): number {
    return this.sockets.filter((s) => s.readyState === s.OPEN).length;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '';
    const record = (status: number) =>
      this.handshakes.push({ url, authorization: req.headers.authorization, status });
    if (this.cutNext > 0) {
      this.cutNext -= 1;
      record(0);
      socket.destroy();
      return;
    }
    const refusal = this.rejectNext ?? this.check(url, req.headers.authorization);
    this.rejectNext = undefined;
    if (refusal) {
      record(refusal.status);
      const extra =
        refusal.status === 401 ? 'WWW-Authenticate: Basic realm="Asterisk REST Interface"\r\n' : '';
      socket.end(
        `HTTP/1.1 ${refusal.status} Refused\r\nContent-Type: ${refusal.contentType}\r\n${extra}` +
          `Content-Length: ${Buffer.byteLength(refusal.body)}\r\nConnection: close\r\n\r\n${refusal.body}`,
      );
      return;
    }
    record(101);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const index = this.sockets.length;
      this.sockets.push(ws);
      this.pings.push(0);
      ws.on('ping', () => {
        this.pings[index] = (this.pings[index] ?? 0) + 1;
      });
      for (const waiter of this.waiters.filter((w) => w.index === index)) waiter.resolve(ws);
    });
  }

  /** The real server's checks: credentials first (401), then a non-empty `app` (400). */
  private check(url: string, authorization: string | undefined) {
    const query = new URL(url, 'http://x').searchParams;
    const { username, password } = this.options;
    if (username !== undefined) {
      const expected = `${username}:${password ?? ''}`;
      const basic = authorization?.startsWith('Basic ')
        ? Buffer.from(authorization.slice(6), 'base64').toString('utf8')
        : undefined;
      if (basic !== expected && query.get('api_key') !== expected) {
        return {
          status: 401,
          body: '{"message":"Authentication required"}',
          contentType: 'application/json',
        };
      }
    }
    if (!query.get('app')) {
      return {
        status: 400,
        contentType: 'text/html',
        body:
          '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\r\n<html><head>\r\n<title>400 Bad Request</title>\r\n' +
          '</head><body>\r\n<h1>Bad Request</h1>\r\n<p>HTTP request is missing param: [app]</p>\r\n<hr />\r\n</body></html>\r\n',
      };
    }
    return undefined;
  }
}
