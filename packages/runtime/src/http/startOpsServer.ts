import { timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An extra request handler mounted on the operations server (the console's live view, for one):
 * resolves `true` when it answered the request, `false` to let the next handler (or 404) have it.
 */
export type OpsRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** Whether the process can take calls, and if not, why (one reason per server). */
export interface Readiness {
  readonly ready: boolean;
  readonly reasons: readonly string[];
}

export interface OpsServerOptions {
  /** Interface to listen on; default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Port; `0` lets the OS pick one (see `OpsServer.port`). */
  readonly port: number;
  /** When given, every request needs these credentials (HTTP Basic), `/healthz` included. */
  readonly auth?: { readonly username: string; readonly password: string };
  /** The application's own metrics in the Prometheus text format (e.g. `app.metrics.registry.toPrometheus()`). */
  readonly metrics: () => string;
  /** Asked on each `/readyz`. */
  readonly readiness: () => Readiness;
  /** Tried in order before the built-in 404, after `/metrics`, `/healthz` and `/readyz`. */
  readonly handlers?: readonly OpsRequestHandler[];
}

/** A running operations server. */
export interface OpsServer {
  /** `http://127.0.0.1:9464` */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Adds a request handler (see {@link OpsRequestHandler}); later ones are tried after earlier ones. */
  addHandler(handler: OpsRequestHandler): void;
  close(): Promise<void>;
}

/**
 * Serves what operators scrape and probe, on its own port: `/metrics` (Prometheus text: the
 * runtime's metrics plus the standard Node process metrics of prom-client), `/healthz` (200 while
 * the process runs) and `/readyz` (200 when every server's event stream is connected, 503 with
 * the reasons otherwise). prom-client is loaded here, on start, so an application without this
 * server never loads it.
 *
 * @example
 * const ops = await startOpsServer({
 *   port: 9464,
 *   metrics: () => app.metrics.registry.toPrometheus(),
 *   readiness: () => applicationReadiness(app),
 * });
 * // curl http://127.0.0.1:9464/metrics
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const host = options.host ?? '127.0.0.1';
  const { Registry, collectDefaultMetrics } = await import('prom-client');
  const processMetrics = new Registry();
  // A registry of our own, not prom-client's global one: two applications in one process (tests)
  // must not register the same names twice.
  collectDefaultMetrics({ register: processMetrics });
  const handlers: OpsRequestHandler[] = [...(options.handlers ?? [])];

  const answer = (res: ServerResponse, status: number, contentType: string, body: string): void => {
    res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (options.auth && !authorized(req.headers.authorization, options.auth)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="ringflow"', 'Content-Type': 'text/plain' });
      res.end('Authentication required\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    if ((method === 'GET' || method === 'HEAD') && path === '/metrics') {
      const text = options.metrics() + (await processMetrics.metrics());
      return answer(res, 200, processMetrics.contentType, text);
    }
    if ((method === 'GET' || method === 'HEAD') && path === '/healthz') {
      return answer(res, 200, 'text/plain; charset=utf-8', 'ok\n');
    }
    if ((method === 'GET' || method === 'HEAD') && path === '/readyz') {
      const readiness = options.readiness();
      return readiness.ready
        ? answer(res, 200, 'text/plain; charset=utf-8', 'ready\n')
        : answer(
            res,
            503,
            'text/plain; charset=utf-8',
            `not ready:\n${readiness.reasons.map((r) => `- ${r}\n`).join('')}`,
          );
    }
    for (const handler of handlers) if (await handler(req, res)) return;
    answer(res, 404, 'text/plain; charset=utf-8', 'Not found: try /metrics, /healthz or /readyz\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        answer(res, 500, 'text/plain; charset=utf-8', `Internal error: ${(error as Error).message}\n`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    host,
    port,
    addHandler: (handler) => {
      handlers.push(handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function authorized(header: string | undefined, auth: { username: string; password: string }): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'base64');
  const expected = Buffer.from(`${auth.username}:${auth.password}`, 'utf8');
  // Constant time, so response timing does not tell how much of the password matched.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
