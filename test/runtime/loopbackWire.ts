import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InProcessServer } from '@ringflow/runtime';
import { WebSocketServer } from 'ws';

/**
 * A minimal HTTP + WebSocket front for an in-process server, on 127.0.0.1 and an OS-chosen port,
 * with a way to cut every event socket (as a network drop does). It stands in for the simulator's
 * own wire server, which its package does not export yet; it does no authentication.
 */
export async function loopbackWire(server: InProcessServer) {
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const reply = await server.handle({
      method: req.method ?? 'GET',
      path: url.pathname.replace(/^\/ari/, ''),
      query: Object.fromEntries(url.searchParams),
      ...(body ? { body: JSON.parse(body) } : {}),
    });
    if (reply.body === undefined) {
      res.writeHead(reply.status).end();
      return;
    }
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  });
  const wss = new WebSocketServer({ server: http, path: '/ari/events' });
  wss.on('connection', (socket, req) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const apps = (url.searchParams.get('app') ?? '').split(',').filter(Boolean);
    const conn = server.connectEvents(
      { apps, subscribeAll: url.searchParams.get('subscribeAll') === 'true' },
      (event) => socket.send(JSON.stringify(event)),
    );
    socket.on('close', () => {
      if ('close' in conn) conn.close();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ari`,
    /** Cuts every event socket without a close handshake. */
    dropEventSockets: () => {
      for (const client of wss.clients) client.terminate();
    },
    get eventSockets() {
      return wss.clients.size;
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
