import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isConsoleRequest, readRequest } from './consoleRequests.ts';
import type { PostHandlers } from './devConsoleHandlers.ts';

/** A GET route: answers the request itself (a page, a feed, a file). */
export type GetHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** A WebSocket route: takes the upgrade request and its socket (or refuses it on the socket). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * The console's routes: GET by exact path, or by path prefix (`/api/sounds/`); POST api/<request>;
 * WebSocket upgrades by exact path.
 */
export interface DevConsoleRoutes {
  readonly gets: Readonly<Record<string, GetHandler>>;
  readonly upgrades?: Readonly<Record<string, UpgradeHandler>>;
  /** GET routes for every path under a prefix, tried in order after the exact ones. */
  readonly prefixes?: readonly (readonly [prefix: string, handler: GetHandler])[];
  readonly posts: PostHandlers;
}

/**
 * Serves the console on `host:port`: a small router, one handler per route. A POST's body is read
 * into its request's type first (see consoleRequests.ts); a refused request or a handler's error
 * is answered 400 `{ error }`.
 *
 * @example
 * const server = await serveDevConsole(routes, '127.0.0.1', 8089);
 */
export async function serveDevConsole(routes: DevConsoleRoutes, host: string, port: number): Promise<Server> {
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET') {
      const get = Object.hasOwn(routes.gets, path)
        ? routes.gets[path]
        : routes.prefixes?.find(([prefix]) => path.startsWith(prefix))?.[1];
      if (get) return void (await get(req, res));
    }
    const post = path.slice('/api/'.length);
    if (req.method === 'POST' && path.startsWith('/api/') && isConsoleRequest(post)) {
      const body = readRequest(post, JSON.parse((await readBody(req)) || '{}'));
      const handler = routes.posts[post] as (body: unknown) => unknown;
      return json(res, await handler(body));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  };
  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.end();
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: (error as Error).message }));
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const upgrade =
      routes.upgrades && Object.hasOwn(routes.upgrades, path) ? routes.upgrades[path] : undefined;
    if (upgrade) upgrade(req, socket, head);
    else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** The server's address as the page's URL. */
export function urlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  return `http://${address.address}:${address.port}/`;
}

/** Answers `value` as JSON. */
export function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 100_000) throw new Error('body too large');
  }
  return text;
}
