import { type RawData, WebSocket } from 'ws';
import type { Simulator } from '../createSimulator.ts';
import { formatTimestamp } from '@ringflow/client';
import type { EventConnection, SimResponse } from '../transport.ts';
import { callServer } from '../wire/callServer.ts';
import { answerRestRequest } from '../wire/restOverWebSocket.ts';
import type { OutboundConnectionConfig } from './OutboundConnectionConfig.ts';

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
export function dialApplication(config: OutboundConnectionConfig, protocols: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
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
    const fail = (error: Error) => {
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
      reject(error);
    };
    ws.once('open', () => {
      ws.removeListener('error', fail);
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => fail(new Error(`refused with ${res.statusCode}`)));
    ws.once('error', fail);
  });
}

/**
 * Binds applications to an open socket: each gets `ApplicationRegistered` first, then its events;
 * `RESTRequest` frames are answered one at a time, in order, by the same rules as on the server's
 * own event socket. Closing the socket unbinds the applications (their channels stay in them).
 */
export function attachApplications(
  ws: WebSocket,
  server: Simulator,
  apps: readonly string[],
  config: OutboundConnectionConfig,
  handlers: OutboundSocketHandlers,
  onError: (error: unknown) => void,
): OutboundSocket {
  const send = (event: Record<string, unknown>) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify(event));
    handlers.onEvent?.(event);
  };
  const connected = server.connectEvents({ apps, subscribeAll: false }, send);
  if (isResponse(connected)) {
    ws.close(1011, 'no application');
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
  const restContext = {
    route: (request: Parameters<Simulator['handle']>[0]) => callServer(server, request, onError),
    user: { username: config.username ?? '', password: '', readOnly: config.readOnly ?? false },
    application: apps[0] ?? '',
    asteriskId: async () => server.asteriskId,
    now: () => server.clock.now(),
  };
  let queue = Promise.resolve();
  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) return;
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Buffer.concat(data as Buffer[]).toString('utf8');
    queue = queue
      .then(() => answerRestRequest(text, restContext))
      .then((reply) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
      })
      .catch(onError);
  });
  ws.on('error', () => ws.terminate());
  ws.once('close', (code: number) => {
    events.close();
    handlers.onClosed(code);
  });
  return {
    close: (code = 1000) => {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code);
    },
  };
}

function isResponse(value: EventConnection | SimResponse): value is SimResponse {
  return typeof (value as SimResponse).status === 'number';
}
