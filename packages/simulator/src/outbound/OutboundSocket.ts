import { type RawData, WebSocket } from 'ws';
import type { Simulator } from '../createSimulator.ts';
import { formatTimestamp } from '@ringflow/client';
import type { EventConnection, SimResponse } from '../transport.ts';
import { callServer } from '../wire/callServer.ts';
import { answerRestRequest } from '../wire/restOverWebSocket.ts';
import type { ApplicationDialer, ApplicationPipe } from './ApplicationPipe.ts';
import type { OutboundConnectionConfig } from './OutboundConnectionConfig.ts';
import { openedWebSocket } from './openedWebSocket.ts';

/** What a live outbound socket reports to the connection that owns it. */
export interface OutboundSocketHandlers {
  /** An event the server sent on this socket (after it was sent). */
  readonly onEvent?: (event: Record<string, unknown>) => void;
  /** The socket ended: its close code. */
  readonly onClosed: (code: number) => void;
}

/** A connection to the application carrying one or more applications' events and REST requests. */
export interface OutboundSocket {
  close(code?: number): void;
}

/**
 * Opens a WebSocket to the application as a real server does (Basic credentials in the handshake
 * when configured, subprotocol `ari`). Resolves once open; rejects when refused or unreachable.
 */
export const dialWebSocket: ApplicationDialer = async (config, protocols) => {
  const headers: Record<string, string> = {};
  if (config.username !== undefined) {
    const token = Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64');
    headers.authorization = `Basic ${token}`;
  }
  const ws = new WebSocket(config.uri, protocols, {
    headers,
    perMessageDeflate: false,
    ...(config.ca === undefined ? {} : { ca: config.ca }),
  });
  return webSocketPipe(await openedWebSocket(ws));
};

/** An open WebSocket as a pipe: text frames only (binary frames are ignored, as the server does). */
function webSocketPipe(ws: WebSocket): ApplicationPipe {
  ws.on('error', () => ws.terminate());
  return {
    get open() {
      return ws.readyState === ws.OPEN;
    },
    send: (frame) => ws.send(frame),
    close: (code = 1000) => {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code);
    },
    onMessage: (handler) =>
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) return;
        handler(
          Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'),
        );
      }),
    onClose: (handler) => ws.once('close', (code: number) => handler(code)),
  };
}

/**
 * Binds applications to an open connection (a per-call one): each gets `ApplicationRegistered`
 * first, then its events (all of them with `subscribeAll`, ari.conf `subscribe_all`);
 * `RESTRequest` frames are answered one at a time, in order, by the same rules as on the server's
 * own event socket. Closing the connection unbinds the applications (their channels stay in them).
 */
export function attachApplications(
  pipe: ApplicationPipe,
  server: Simulator,
  apps: readonly string[],
  config: OutboundConnectionConfig,
  handlers: OutboundSocketHandlers,
  onError: (error: unknown) => void,
): OutboundSocket {
  const send = (event: Record<string, unknown>) => {
    if (!pipe.open) return;
    pipe.send(JSON.stringify(event));
    handlers.onEvent?.(event);
  };
  const connected = server.connectEvents({ apps, subscribeAll: config.subscribeAll ?? false }, send);
  if (isResponse(connected)) {
    pipe.close(1011);
    throw new Error(`the applications ${apps.join(',')} could not be registered: ${connected.status}`);
  }
  const events: EventConnection = connected;
  for (const application of apps) {
    send({
      type: 'ApplicationRegistered',
      timestamp: formatTimestamp(server.clock.now()),
      application,
      asterisk_id: server.asteriskId,
    });
  }
  serveRestRequests(pipe, server, apps, config, onError);
  pipe.onClose((code) => {
    events.close();
    handlers.onClosed(code);
  });
  return { close: (code = 1000) => pipe.close(code) };
}

/** The applications of a persistent connection, registered whether a socket is open or not. */
export interface PersistentApplications {
  /** A socket opened: what was queued goes first, then it carries the events and REST requests. */
  attach(pipe: ApplicationPipe, handlers: OutboundSocketHandlers): OutboundSocket;
  /** The connection is no longer configured: the applications are unregistered. */
  close(): void;
}

/**
 * Registers the applications of a persistent connection for as long as it is configured, as a
 * real server does (res/ari/ari_websockets.c): they are registered at start-up, before any socket
 * is open, and stay registered while the server re-dials. Events raised meanwhile (a call entering
 * `Stasis()`) are queued and sent when a socket opens: on the first one after the
 * `ApplicationRegistered` frames queued at registration; on a re-opened one, before the
 * `ApplicationRegistered` frames it then sends.
 */
export function registerPersistentApplications(
  server: Simulator,
  apps: readonly string[],
  config: OutboundConnectionConfig,
  onError: (error: unknown) => void,
): PersistentApplications {
  let current: ApplicationPipe | undefined;
  let reopened = false;
  const registered = () =>
    apps.map((application) =>
      JSON.stringify({
        type: 'ApplicationRegistered',
        timestamp: formatTimestamp(server.clock.now()),
        application,
        asterisk_id: server.asteriskId,
      }),
    );
  const queued: string[] = registered();
  const connected = server.connectEvents({ apps, subscribeAll: config.subscribeAll ?? false }, (event) => {
    const frame = JSON.stringify(event);
    if (current?.open) current.send(frame);
    else queued.push(frame);
  });
  if (isResponse(connected))
    throw new Error(`the applications ${apps.join(',')} could not be registered: ${connected.status}`);
  const events: EventConnection = connected;
  return {
    attach(pipe, handlers) {
      current = pipe;
      for (const frame of queued.splice(0)) pipe.send(frame);
      if (reopened) for (const frame of registered()) pipe.send(frame);
      reopened = true;
      serveRestRequests(pipe, server, apps, config, onError);
      pipe.onClose((code) => {
        if (current === pipe) current = undefined;
        handlers.onClosed(code);
      });
      return { close: (code = 1000) => pipe.close(code) };
    },
    close() {
      current = undefined;
      queued.length = 0;
      events.close();
    },
  };
}

/**
 * Answers the `RESTRequest` frames of a connection one at a time, in order, by the same rules as
 * on the server's own event socket.
 */
function serveRestRequests(
  pipe: ApplicationPipe,
  server: Simulator,
  apps: readonly string[],
  config: OutboundConnectionConfig,
  onError: (error: unknown) => void,
): void {
  const restContext = {
    route: (request: Parameters<Simulator['handle']>[0]) => callServer(server, request, onError),
    user: { username: config.username ?? '', password: '', readOnly: config.readOnly ?? false },
    application: apps[0] ?? '',
    asteriskId: async () => server.asteriskId,
    now: () => server.clock.now(),
  };
  let queue = Promise.resolve();
  pipe.onMessage((text) => {
    queue = queue
      .then(() => answerRestRequest(text, restContext))
      .then((reply) => {
        if (pipe.open) pipe.send(JSON.stringify(reply));
      })
      .catch(onError);
  });
}

function isResponse(value: EventConnection | SimResponse): value is SimResponse {
  return typeof (value as SimResponse).status === 'number';
}
