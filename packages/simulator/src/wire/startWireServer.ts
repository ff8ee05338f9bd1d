import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type Clock, systemClock } from '@ringflow/client';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SimulatorDriver } from '../driver/SimulatorDriver.ts';
import {
  createMediaUpgrades,
  type IncomingMedia,
  incomingMediaOf,
  MEDIA_PATH_PREFIX,
} from '../media/acceptMediaUpgrade.ts';
import type { EventConnection, SimRequest, SimResponse, SimulatedServer } from '../transport.ts';
import { allowedMethods } from './allowedMethods.ts';
import { apiDocsResponse } from './apiDocsResponse.ts';
import { type WireUser, authenticate } from './authenticate.ts';
import { callServer } from './callServer.ts';
import { corsHeaders, preflightHeaders } from './corsHeaders.ts';
import { htmlErrorPage } from './htmlErrorPage.ts';
import { parseRequestTarget } from './parseRequestTarget.ts';
import { readRequestBody } from './readRequestBody.ts';
import { MAX_HEADER_SECTION_BYTES, requestLineTooLong } from './requestLineTooLong.ts';
import { DRIVER_ROOT, answerDriverRequest } from './driverApi.ts';
import { answerRestRequest } from './restOverWebSocket.ts';
import { headerValue, reasonPhrase, serializeResponse } from './serializeResponse.ts';
import { WriteCoalescer } from './WriteCoalescer.ts';

export interface WireServerOptions {
  /** Accounts allowed in; requests without valid credentials get 401. */
  readonly users: readonly WireUser[];
  /** Interface to listen on. Defaults to `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Port to listen on; `0` (the default) lets the OS pick a free one (see `WireServer.port`). */
  readonly port?: number;
  /** Value of the `Server` header and of the signature of HTML error pages. */
  readonly serverName?: string;
  /** Origins whose browsers get CORS headers; `['*']` (the default) allows any origin. */
  readonly allowedOrigins?: readonly string[];
  /** `apiVersion` of the published Swagger documents (defaults to the description's version). */
  readonly apiVersion?: string;
  /** Server identifier put on `RESTResponse` events; asked of the core (`/asterisk/ping`) if not given. */
  readonly asteriskId?: string;
  /** Clock for `Date` headers and `RESTResponse` timestamps; use the simulator's own clock. */
  readonly clock?: Clock;
  /** Largest accepted request body. Defaults to 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Events waiting to be sent to one socket beyond this many bytes mean the client stopped
   * reading: the socket is dropped (as a real server does after its write timeout) instead of
   * holding ever more memory. Defaults to 16 MiB.
   */
  readonly maxQueuedEventBytes?: number;
  /**
   * When given, the driver (place calls, press keys, talk, hang up, far ends, texts) is served at
   * `/ringflow/driver/...` for the same accounts (see driverApi.ts). Read-only accounts may not use it.
   */
  readonly driver?: SimulatorDriver;
  /**
   * Where applications connect in to external media channels (`ws://host:port/media/<id>`, at the
   * HTTP root, no credentials). Default: the simulator's own (`sim.media`), when the server has one.
   */
  readonly media?: IncomingMedia;
  /** Told about failures inside the simulated server (each also answered with a 500). */
  readonly onError?: (error: unknown) => void;
}

/** A running wire server. */
export interface WireServer {
  /** The interface root, e.g. `http://127.0.0.1:8088/ari`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Number of open event WebSockets. */
  readonly eventConnections: number;
  /** Closes every WebSocket (code 1001) and connection, then stops listening. */
  close(): Promise<void>;
}

const INTERFACE_ROOT = '/ari';
const EVENTS_PATH = `${INTERFACE_ROOT}/events`;
const NOT_FOUND_TEXT = 'The requested URL was not found on this server.';
/** How long shutdown waits for clients to acknowledge the WebSocket close before cutting them off. */
const CLOSE_GRACE_MS = 1000;

/**
 * Serves a simulated ARI server over HTTP and WebSocket, the way a real server does at `/ari`:
 * Basic or `api_key` authentication, read-only accounts, CORS, Swagger documents at
 * `/ari/api-docs/`, the event stream at `/ari/events` (plus REST requests sent over it), and the
 * real server's error pages. Every decision about the interface itself is the core's.
 *
 * @example
 * const wire = await startWireServer(createSimulator({ clock: systemClock }), {
 *   users: [{ username: 'demo', password: 'demo' }],
 *   port: 0,
 * });
 * console.log(wire.url); // http://127.0.0.1:40123/ari
 * await wire.close();
 */
export async function startWireServer(
  server: SimulatedServer,
  options: WireServerOptions,
): Promise<WireServer> {
  const host = options.host ?? '127.0.0.1';
  const serverName = options.serverName ?? 'ringflow-simulator';
  const allowedOrigins = options.allowedOrigins ?? ['*'];
  const clock = options.clock ?? systemClock;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxQueuedEventBytes = options.maxQueuedEventBytes ?? 16 * 1024 * 1024;
  const onError = options.onError ?? (() => {});
  let selfUrl = '';

  // Let request lines of any length the real server can receive reach the check of its limit,
  // instead of Node's own 16 KiB refusal (see requestLineTooLong).
  const http = createServer({ maxHeaderSize: MAX_HEADER_SECTION_BYTES });
  // REST requests sent over the socket obey the same size limit as HTTP bodies.
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxBodyBytes });
  const clients = new Set<WebSocket>();
  const sockets = new Set<Socket>();
  const coalescer = new WriteCoalescer();
  const incomingMedia = options.media ?? incomingMediaOf(server);
  const mediaUpgrades = incomingMedia ? createMediaUpgrades(incomingMedia) : undefined;
  let asteriskIdProbe: Promise<string> | undefined;

  const asteriskId = (): Promise<string> => {
    if (options.asteriskId !== undefined) return Promise.resolve(options.asteriskId);
    asteriskIdProbe ??= callServer(
      server,
      { method: 'GET', path: '/asterisk/ping', query: {} },
      onError,
    ).then((r) => {
      const id = (r.body as { asterisk_id?: unknown } | undefined)?.asterisk_id;
      return typeof id === 'string' ? id : '';
    });
    return asteriskIdProbe;
  };

  // The Date header has a resolution of one second: format it once per second, not per response.
  let dateSecond = Number.NaN;
  let dateText = '';
  const baseHeaders = (): Record<string, string> => {
    const now = clock.now();
    const second = Math.floor(now / 1000);
    if (second !== dateSecond) {
      dateSecond = second;
      dateText = new Date(now).toUTCString();
    }
    return { Server: serverName, Date: dateText, 'Cache-Control': 'no-cache, no-store' };
  };

  const html = (status: number, title: string, text: string): SimResponse => ({
    status,
    binary: { contentType: 'text/html', data: Buffer.from(htmlErrorPage(status, title, text, serverName)) },
  });

  const unauthorized: SimResponse = {
    status: 401,
    body: { message: 'Authentication required' },
    headers: { 'WWW-Authenticate': 'Basic realm="Asterisk REST Interface"' },
  };

  /** Where the documents say the interface lives: the address the client used, else our own. */
  const basePathFor = (req: IncomingMessage): string => {
    const hostHeader = req.headers.host;
    return hostHeader && /^[\w.\-:[\]]+$/.test(hostHeader)
      ? `http://${hostHeader}${INTERFACE_ROOT}`
      : selfUrl;
  };

  /** Routes a request below the interface root: the root itself, the documents, then the core. */
  const route = async (request: SimRequest, basePath: string): Promise<SimResponse> => {
    if (request.path === '') {
      return { status: 405, body: { message: 'Invalid method' }, headers: { Allow: 'OPTIONS' } };
    }
    if (isApiDocsPath(request.path)) {
      return apiDocsResponse(request.method, request.path, {
        basePath,
        ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
        ...(server.serverResource ? { serverResource: server.serverResource } : {}),
      });
    }
    const response = await callServer(server, request, onError);
    if (response.status === 405 && headerValue(response.headers, 'Allow') === undefined) {
      const allow = allowedMethods(request.path);
      if (allow) return { ...response, headers: { ...response.headers, Allow: allow.join(',') } };
    }
    return response;
  };

  /** OPTIONS: the methods of the resource (the core's 405 says which), plus preflight headers. */
  const answerOptions = async (
    req: IncomingMessage,
    request: SimRequest,
    basePath: string,
  ): Promise<SimResponse> => {
    const probe = await route(request, basePath);
    if (probe.status !== 405) return probe;
    const allow = (headerValue(probe.headers, 'Allow') ?? 'OPTIONS').split(',').map((m) => m.trim());
    return {
      status: 204,
      headers: { Allow: allow.join(','), ...preflightHeaders(req.rawHeaders, allowedOrigins, allow) },
    };
  };

  const answerDriver = async (
    req: IncomingMessage,
    method: string,
    path: string,
    query: Readonly<Record<string, string>>,
  ): Promise<SimResponse> => {
    const body = await readRequestBody(req, maxBodyBytes);
    if (body.tooLarge)
      return { status: 413, body: { message: `Request body is larger than ${maxBodyBytes} bytes` } };
    if (body.bodyParseError)
      return { status: 400, body: { message: 'Error parsing request body (JSON expected)' } };
    const user = authenticate(req.headers.authorization, query.api_key, options.users);
    if (!user) return unauthorized;
    if (user.readOnly) return { status: 403, body: { message: 'Write access denied' } };
    return answerDriverRequest(options.driver!, method, path.slice(DRIVER_ROOT.length), body.body);
  };

  const handleHttp = async (
    req: IncomingMessage,
  ): Promise<{ response: SimResponse; cors: Record<string, string> }> => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (requestLineTooLong(req)) {
      req.resume();
      const page = html(400, 'Bad Request', 'Request line too long');
      return { response: { ...page, headers: { Connection: 'close' } }, cors: {} };
    }
    const target = parseRequestTarget(req.url ?? '');
    if (!target) {
      req.resume();
      return { response: html(400, 'Bad Request', 'The request target is not a valid URL path.'), cors: {} };
    }
    if (options.driver && target.path.startsWith(`${DRIVER_ROOT}/`)) {
      return { response: await answerDriver(req, method, target.path, target.query), cors: {} };
    }
    if (target.path !== INTERFACE_ROOT && !target.path.startsWith(`${INTERFACE_ROOT}/`)) {
      req.resume();
      return { response: html(404, 'Not Found', NOT_FOUND_TEXT), cors: {} };
    }
    const cors = corsHeaders(req.rawHeaders, allowedOrigins);
    // The real server reads the body first (res_ari.c): a body it cannot parse is refused before
    // the credentials, the method or the route are looked at.
    const body = await readRequestBody(req, maxBodyBytes);
    if (body.tooLarge) {
      return {
        response: { status: 413, body: { message: `Request body is larger than ${maxBodyBytes} bytes` } },
        cors,
      };
    }
    if (body.bodyParseError) {
      return { response: { status: 400, body: { message: 'Error parsing request body' } }, cors };
    }
    const { api_key: apiKey, ...query } = target.query;
    const user = authenticate(req.headers.authorization, apiKey, options.users);
    if (!user) return { response: unauthorized, cors };
    if (user.readOnly && method !== 'GET' && method !== 'OPTIONS') {
      return { response: { status: 403, body: { message: 'Write access denied' } }, cors };
    }
    const path = target.path.slice(INTERFACE_ROOT.length);
    if (target.path === EVENTS_PATH && method === 'GET') {
      return { response: html(426, 'Upgrade Required', ''), cors };
    }
    const request: SimRequest = {
      method,
      path,
      // Parameters may come in the query or as form fields; the query wins when both name one.
      query: { ...body.form, ...query },
      ...(body.body !== undefined ? { body: body.body } : {}),
    };
    const basePath = basePathFor(req);
    const response =
      method === 'OPTIONS' && !isApiDocsPath(path)
        ? await answerOptions(req, request, basePath)
        : await route(request, basePath);
    return { response, cors };
  };

  const send = (res: ServerResponse, response: SimResponse, cors: Record<string, string>): void => {
    if (res.headersSent || res.destroyed) return;
    // Written at the end of the turn, after the events raised before it (see WriteCoalescer).
    coalescer.deferReply(() => writeReply(res, response, cors));
  };

  const writeReply = (res: ServerResponse, response: SimResponse, cors: Record<string, string>): void => {
    if (res.headersSent || res.destroyed) return;
    try {
      const wire = serializeResponse(response);
      res.writeHead(wire.status, {
        ...baseHeaders(),
        ...cors,
        ...wire.headers,
        'Content-Length': String(wire.body.length),
      });
      res.end(wire.body);
    } catch (error) {
      // A reply that cannot be written (a bad header from the core) must not stop the others.
      onError(error);
      res.destroy();
    }
  };

  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handleHttp(req).then(
      ({ response, cors }) => send(res, response, cors),
      (error: unknown) => {
        onError(error);
        send(res, { status: 500, body: { message: 'Internal error in the wire transport' } }, {});
      },
    );
  });

  /** Answers a refused upgrade with a plain HTTP response on the raw socket, then closes it. */
  const refuseUpgrade = (socket: Duplex, response: SimResponse): void => {
    coalescer.flush();
    const wire = serializeResponse(response);
    const headers = {
      ...baseHeaders(),
      ...wire.headers,
      'Content-Length': String(wire.body.length),
      Connection: 'close',
    };
    const head = [`HTTP/1.1 ${wire.status} ${reasonPhrase(wire.status)}`]
      .concat(Object.entries(headers).map(([k, v]) => `${k}: ${v}`))
      .join('\r\n');
    if (socket.writable) socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), wire.body]));
    else socket.destroy();
  };

  /** Accepts an event-stream upgrade, or returns the refusal to send instead. */
  const acceptUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): SimResponse | undefined => {
    socket.on('error', () => socket.destroy());
    const target = parseRequestTarget(req.url ?? '');
    if (!target) return html(400, 'Bad Request', 'The request target is not a valid URL path.');
    if (mediaUpgrades && target.path.startsWith(MEDIA_PATH_PREFIX)) {
      return mediaUpgrades.accept(req, socket, head, target.path);
    }
    if (target.path !== EVENTS_PATH) {
      const inInterface = target.path === INTERFACE_ROOT || target.path.startsWith(`${INTERFACE_ROOT}/`);
      return inInterface
        ? html(400, 'Bad Request', `WebSocket connections are only accepted at ${EVENTS_PATH}.`)
        : html(404, 'Not Found', NOT_FOUND_TEXT);
    }
    const { api_key: apiKey, ...query } = target.query;
    const user = authenticate(req.headers.authorization, apiKey, options.users);
    if (!user) return unauthorized;
    const apps = (query.app ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    if (apps.length === 0) return html(400, 'Bad Request', 'HTTP request is missing param: [app]');
    const subscribeAll = /^(1|true|yes|y|t|on)$/i.test(query.subscribeAll ?? '');

    // Connect before accepting the upgrade so a refusal can still be an HTTP answer; events raised
    // in between are held and sent first, so none is lost.
    let client: WebSocket | undefined;
    const held: string[] = [];
    const deliver = (event: Record<string, unknown>): void => {
      const frame = JSON.stringify(event);
      if (!client) held.push(frame);
      else if (client.readyState !== client.OPEN) return;
      else if (client.bufferedAmount > maxQueuedEventBytes) client.terminate();
      else {
        // ws writes to this same socket: the frames of one turn leave in one system call.
        coalescer.holdEvents(socket);
        client.send(frame);
      }
    };
    let connection: EventConnection | SimResponse;
    try {
      connection = server.connectEvents({ apps, subscribeAll }, deliver);
    } catch (error) {
      onError(error);
      return { status: 500, body: { message: 'Internal error in the simulator' } };
    }
    if (isResponse(connection)) return connection;
    const events = connection;
    let accepted = false;
    socket.once('close', () => {
      if (!accepted) events.close();
    });

    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted = true;
      client = ws;
      clients.add(ws);
      for (const frame of held.splice(0)) ws.send(frame);
      const restContext = {
        route: (request: SimRequest) => route(request, basePathFor(req)),
        user,
        application: apps[0]!,
        asteriskId,
        now: () => clock.now(),
      };
      // REST requests over the socket are answered one at a time, in the order they arrived.
      let queue = Promise.resolve();
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        const text = Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Buffer.concat(data as Buffer[]).toString('utf8');
        queue = queue
          .then(() => answerRestRequest(text, restContext))
          .then((reply) => {
            // Events raised by the request, on this socket or another, leave before its reply.
            coalescer.flush();
            if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
          })
          .catch(onError);
      });
      ws.on('error', () => ws.terminate());
      ws.on('close', () => {
        clients.delete(ws);
        events.close();
      });
    });
    return undefined;
  };

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      const refusal = acceptUpgrade(req, socket, head);
      if (refusal) refuseUpgrade(socket, refusal);
    } catch (error) {
      onError(error);
      socket.destroy();
    }
  });
  http.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  http.on('clientError', (_error, socket: Duplex) => {
    if (socket.writable)
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  selfUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}${INTERFACE_ROOT}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeIdleConnections();
      const open = [...clients];
      for (const ws of open) ws.close(1001, 'Server shutting down');
      mediaUpgrades?.closeAll();
      // Real time on purpose: this waits for network peers, not for simulated call time.
      const cutOff = systemClock.setTimeout(() => {
        for (const ws of open) ws.terminate();
        for (const socket of sockets) socket.destroy();
      }, CLOSE_GRACE_MS);
      const stillOpen = () => open.some((ws) => ws.readyState !== ws.CLOSED);
      const finish = () => {
        if (stillOpen()) return;
        systemClock.clearTimeout(cutOff);
        http.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      };
      for (const ws of open) ws.once('close', finish);
      finish();
    });
    return closing;
  };

  return {
    url: selfUrl,
    host,
    port,
    get eventConnections() {
      return clients.size;
    },
    close,
  };
}

/** The documents' path: every method but GET is refused there, OPTIONS included (res_ari.c). */
function isApiDocsPath(path: string): boolean {
  return path.startsWith('/api-docs/');
}

function isResponse(value: EventConnection | SimResponse): value is SimResponse {
  return typeof (value as SimResponse).status === 'number';
}
