import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { decodeHttpReply } from './decodeHttpReply.ts';
import type {
  RestTransport,
  TransportCancel,
  TransportExchange,
  TransportRequest,
  TransportResponse,
} from './RestTransport.ts';

/** Options of {@link SocketRestTransport}. */
export interface SocketRestTransportOptions {
  /** Writes one text frame on the socket; throws (or the socket is reported lost) when it cannot. */
  readonly sendFrame: (frame: string) => void;
  /**
   * Where requests the socket cannot carry go (binary downloads: `recordings.getStoredFile`):
   * usually an {@link UndiciTransport} to the server's HTTP address. Without it such requests
   * fail with a `CONFIG` error that says so.
   */
  readonly fallback?: RestTransport;
  /** The `transaction_id` of every request (a real server echoes it). Default `ringflow`. */
  readonly transactionId?: string;
}

/** The JSON a server sends back for a `RESTRequest`. */
interface RestResponseFrame {
  readonly type: 'RESTResponse';
  readonly request_id?: unknown;
  readonly status_code?: unknown;
  readonly content_type?: unknown;
  readonly message_body?: unknown;
}

/** Requests the socket cannot carry: their replies are binary (`audio/wav`). */
const BINARY_REPLY_PATH = /^\/recordings\/stored\/[^/]+\/file$/;

const utf8 = new TextEncoder();

/**
 * REST over the ARI WebSocket: each request leaves as a `RESTRequest` frame
 * (`{"type":"RESTRequest","request_id","transaction_id","method","uri","query_strings",
 * "content_type","message_body"}`, the uri relative to the interface root) and is settled by the
 * `RESTResponse` frame with the same `request_id`, whenever it comes (before or after the events
 * the request caused). Replies are decoded exactly as HTTP replies are, so a client on this
 * transport throws the same errors as over HTTP, and its time-outs and cancels work the same.
 *
 * The owner of the socket hands every `RESTResponse` it receives to {@link receive} and reports
 * the socket's end with {@link connectionLost}: the requests still waiting fail with `NETWORK`.
 *
 * @example
 * const rest = new SocketRestTransport({ sendFrame: (text) => ws.send(text) });
 * ws.on('message', (data) => { const m = JSON.parse(String(data)); if (!rest.receive(m)) handleEvent(m); });
 * ws.on('close', () => rest.connectionLost('the socket closed'));
 * const client = createRestClient({ url: 'http://pbx/ari', username: '', password: '', segment: 'asterisk', transport: rest });
 */
export class SocketRestTransport implements RestTransport {
  private readonly options: SocketRestTransportOptions;
  private readonly transactionId: string;
  private readonly waiting = new Map<string, TransportExchange>();
  private nextId = 1;
  private lost: string | undefined;

  constructor(options: SocketRestTransportOptions) {
    this.options = options;
    this.transactionId = options.transactionId ?? 'ringflow';
  }

  /** Requests sent and not yet answered. */
  get pending(): number {
    return this.waiting.size;
  }

  dispatch(request: TransportRequest, exchange: TransportExchange): TransportCancel {
    if (request.method === 'GET' && BINARY_REPLY_PATH.test(request.path)) {
      return this.dispatchElsewhere(request, exchange);
    }
    if (this.lost !== undefined) {
      exchange.failed(new RingflowError(ErrorCode.NETWORK, `REST over the WebSocket: ${this.lost}.`));
      return { cancel() {} };
    }
    const requestId = `r${this.nextId++}`;
    this.waiting.set(requestId, exchange);
    try {
      this.options.sendFrame(JSON.stringify(requestFrame(request, requestId, this.transactionId)));
    } catch (cause) {
      this.waiting.delete(requestId);
      exchange.failed(
        new RingflowError(ErrorCode.NETWORK, `REST over the WebSocket: the request could not be sent.`, {
          cause,
        }),
      );
      return { cancel() {} };
    }
    exchange.dispatched();
    return {
      // The server may still answer; its reply then matches nothing and is dropped.
      cancel: () => {
        this.waiting.delete(requestId);
      },
    };
  }

  send(request: TransportRequest): Promise<TransportResponse> {
    return new Promise((resolve, reject) => {
      const handle = this.dispatch(request, {
        dispatched() {},
        replied: resolve,
        failed: reject,
      });
      request.signal?.addEventListener('abort', () => handle.cancel(new Error('aborted')), { once: true });
    });
  }

  /**
   * Takes a frame received on the socket: settles the request a `RESTResponse` answers and
   * returns true; returns false for anything else (events), which the caller handles.
   */
  receive(frame: object): boolean {
    const message = frame as Partial<RestResponseFrame>;
    if (message.type !== 'RESTResponse') return false;
    const requestId = typeof message.request_id === 'string' ? message.request_id : '';
    const exchange = this.waiting.get(requestId);
    // A reply to a cancelled request, or the server's refusal of a frame it could not read
    // (empty ids): nothing waits for it.
    if (!exchange) return true;
    this.waiting.delete(requestId);
    try {
      exchange.replied(replyOf(message));
    } catch (error) {
      exchange.failed(error);
    }
    return true;
  }

  /** The socket is gone: waiting requests fail with `NETWORK`, and so do later ones. */
  connectionLost(reason: string): void {
    this.lost ??= reason;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const exchange of waiting) {
      exchange.failed(
        new RingflowError(
          ErrorCode.NETWORK,
          `REST over the WebSocket: ${reason} before the reply came; the request may or may not have been carried out.`,
        ),
      );
    }
  }

  async close(): Promise<void> {
    this.connectionLost('the transport was closed');
    await this.options.fallback?.close?.();
  }

  private dispatchElsewhere(request: TransportRequest, exchange: TransportExchange): TransportCancel {
    const fallback = this.options.fallback;
    if (!fallback) {
      exchange.failed(
        new RingflowError(
          ErrorCode.CONFIG,
          `GET ${request.path} returns binary data, which the WebSocket cannot carry: give the server's HTTP address (a fallback transport) to download it.`,
        ),
      );
      return { cancel() {} };
    }
    if (fallback.dispatch) return fallback.dispatch(request, exchange);
    const abort = new AbortController();
    exchange.dispatched();
    fallback.send({ ...request, signal: abort.signal }).then(
      (reply) => exchange.replied(reply),
      (error: unknown) => exchange.failed(error),
    );
    return { cancel: (reason) => abort.abort(reason) };
  }
}

/** The `RESTRequest` frame of a request: the uri is relative (no leading `/`, no query). */
function requestFrame(
  request: TransportRequest,
  requestId: string,
  transactionId: string,
): Record<string, unknown> {
  const frame: Record<string, unknown> = {
    type: 'RESTRequest',
    request_id: requestId,
    transaction_id: transactionId,
    method: request.method,
    // A leading slash names the interface root itself on a real server (405): strip it.
    uri: request.path.replace(/^\/+/, ''),
  };
  if (request.query.length > 0) {
    frame.query_strings = request.query.map(([name, value]) => ({ name, value }));
  }
  if (request.body !== undefined) {
    frame.content_type = 'application/json';
    frame.message_body = JSON.stringify(request.body);
  }
  return frame;
}

/** A `RESTResponse` as the reply an HTTP transport would have produced (same decoding rules). */
function replyOf(message: Partial<RestResponseFrame>): TransportResponse {
  const status = typeof message.status_code === 'number' ? message.status_code : Number(message.status_code);
  if (!Number.isInteger(status) || status < 100) {
    throw new RingflowError(
      ErrorCode.PROTOCOL,
      `REST over the WebSocket: a RESTResponse without a valid status_code (${JSON.stringify(message.status_code)}).`,
    );
  }
  const headers: Record<string, string> =
    typeof message.content_type === 'string' ? { 'content-type': message.content_type } : {};
  const body = typeof message.message_body === 'string' ? message.message_body : '';
  return decodeHttpReply(status, headers, utf8.encode(body));
}
