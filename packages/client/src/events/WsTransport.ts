import type { IncomingMessage } from 'node:http';
import { type ClientOptions, type RawData, WebSocket } from 'ws';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import {
  checkTlsOptions,
  describeTlsFailure,
  nodeTlsOptions,
  type TlsOptions,
  verificationOffMessage,
} from '../rest/TlsOptions.ts';
import type {
  EventTransport,
  EventTransportConnection,
  EventTransportHandlers,
  EventTransportRequest,
} from './EventTransport.ts';

/** Most of a refusal's body that is read (enough for any server's error page). */
const MAX_REJECTION_BODY = 4096;

/** Options of {@link WsTransport}. */
export interface WsTransportOptions {
  /**
   * For `wss://` urls: the CA to trust, a client certificate, the server name to check
   * (see {@link TlsOptions}). Certificate checks cannot be turned off.
   */
  readonly tls?: TlsOptions;
  /**
   * Extra options for the `ws` client: an `agent`, `maxPayload`, `handshakeTimeout`. Headers given
   * here are sent too; the stream's own (authorization) win. `rejectUnauthorized: false` and
   * `checkServerIdentity` are refused (use `tls.ca` and `tls.servername`).
   */
  readonly ws?: ClientOptions;
}

/**
 * The default transport: one `ws` WebSocket per connection. A refused upgrade (401, 400, ...) is
 * reported through `rejected` with the status and the body the server sent.
 *
 * @example
 * createEventStream({ url, apps: ['ivr'], username, password,
 *   transport: new WsTransport({ ws: { ca: readFileSync('ca.pem') } }) });
 */
export class WsTransport implements EventTransport {
  private readonly options: WsTransportOptions;

  constructor(options: WsTransportOptions = {}) {
    const ws = options.ws ?? {};
    if (ws.rejectUnauthorized === false || ws.checkServerIdentity !== undefined) {
      const field = ws.rejectUnauthorized === false ? 'rejectUnauthorized' : 'checkServerIdentity';
      throw new RingflowError(ErrorCode.CONFIG, verificationOffMessage(`WsTransport: ws.${field}`));
    }
    if (options.tls !== undefined) checkTlsOptions(options.tls, 'wss://', 'WsTransport: tls');
    this.options = options;
  }

  connect(request: EventTransportRequest, handlers: EventTransportHandlers): EventTransportConnection {
    const wsOptions = this.options.ws ?? {};
    const socket = new WebSocket(request.url, {
      // ARI servers do not compress; offering it only costs a header.
      perMessageDeflate: false,
      ...wsOptions,
      ...nodeTlsOptions(this.options.tls),
      headers: { ...wsOptions.headers, ...request.headers },
    });
    // Once the connection is reported rejected or closed, ws may still emit (an abort error,
    // a late close): the contract says nothing more is reported after that.
    let ended = false;
    const end = (report: () => void) => {
      if (ended) return;
      ended = true;
      report();
    };

    socket.on('open', () => {
      if (!ended) handlers.open();
    });
    socket.on('message', (data: RawData) => {
      if (!ended) handlers.message(textOf(data));
    });
    socket.on('pong', () => {
      if (!ended) handlers.pong();
    });
    socket.on('unexpected-response', (_request, response: IncomingMessage) => {
      readBody(response, (body) => {
        end(() => handlers.rejected(response.statusCode ?? 0, body));
        socket.terminate();
      });
    });
    socket.on('error', (error: Error) => {
      if (ended) return;
      // A certificate problem is a configuration matter: say which option fixes it.
      const tls = describeTlsFailure(error);
      handlers.error(tls ? new Error(tls, { cause: error }) : error);
    });
    socket.on('close', (code: number, reason: Buffer) => {
      end(() => handlers.closed(code, reason.toString('utf8')));
    });

    return {
      ping: () => {
        if (socket.readyState === WebSocket.OPEN) socket.ping();
      },
      send: (frame: string) => {
        if (socket.readyState !== WebSocket.OPEN) throw new Error('the WebSocket is not open');
        socket.send(frame);
      },
      close: (code = 1000, reason = '') => {
        if (socket.readyState !== WebSocket.CLOSED) socket.close(code, reason);
      },
      terminate: () => socket.terminate(),
    };
  }
}

/** A frame as text, whether ws handed over one buffer, fragments, or an ArrayBuffer. */
function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** Reads up to {@link MAX_REJECTION_BODY} bytes of a refusal, then calls `done` once. */
function readBody(response: IncomingMessage, done: (body: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done(Buffer.concat(chunks).toString('utf8'));
  };
  response.on('data', (chunk: Buffer) => {
    if (size < MAX_REJECTION_BODY) chunks.push(chunk.subarray(0, MAX_REJECTION_BODY - size));
    size += chunk.length;
    if (size >= MAX_REJECTION_BODY) finish();
  });
  response.on('end', finish);
  response.on('close', finish);
  response.on('error', finish);
}
