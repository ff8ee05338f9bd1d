import type { Dispatcher } from 'undici';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { decodeHttpReply } from './decodeHttpReply.ts';
import type {
  TransportCancel,
  TransportExchange,
  TransportRequest,
  TransportResponse,
} from './RestTransport.ts';
import { describeTlsFailure } from './TlsOptions.ts';

type Headers = Record<string, string | string[] | undefined>;

/** Header names come lower case from undici; a repeated header arrives as a list. */
function flatHeaders(headers: Headers): Readonly<Record<string, string>> {
  for (const name in headers) {
    if (typeof headers[name] === 'string') continue;
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(headers)) {
      if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
    }
    return out;
  }
  return headers as Record<string, string>;
}

/**
 * One request on undici's dispatcher interface, reported to a {@link TransportExchange}: it
 * tells the exchange when undici writes the request on a connection (`onRequestStart`), gathers
 * the reply's bytes and decodes them. Cheaper than `Pool.request`, which builds a readable stream,
 * a promise and an abort listener per request, and it is what lets the reply deadline start on
 * the connection rather than in the pool's queue.
 *
 * It is also the request's cancel handle: a request still queued is dropped when undici gets to
 * it, without closing the connection; one on a connection is aborted (undici then closes the
 * connection: its reply would otherwise arrive in front of the next request's).
 *
 * @example
 * const handler = new UndiciRequestHandler(exchange, request, 'http://127.0.0.1:8088/ari');
 * pool.dispatch({ method: 'GET', path: '/ari/channels', headers }, handler);
 * handler.cancel(new Error('no longer needed'));
 */
export class UndiciRequestHandler implements Dispatcher.DispatchHandler, TransportCancel {
  private controller: Dispatcher.DispatchController | undefined;
  private cancelled: Error | undefined;
  private done = false;
  private status = 0;
  private headers: Headers | undefined;
  private body: Buffer | undefined;
  private moreBody: Buffer[] | undefined;

  /** @param root the interface root (`http://127.0.0.1:8088/ari`), for error messages. */
  constructor(
    private readonly exchange: TransportExchange,
    private readonly request: TransportRequest,
    private readonly root: string,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.cancelled) {
      // Aborting through the controller here would close a connection that carries nothing yet;
      // a throw makes undici fail just this request (an error from this hook) and keep the
      // connection for the next one.
      throw this.cancelled;
    }
    this.controller = controller;
    // A request undici retries (its connection failed before any reply) starts over.
    this.status = 0;
    this.body = this.moreBody = undefined;
    this.exchange.dispatched();
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Headers): void {
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.body === undefined) {
      this.body = chunk;
      return;
    }
    this.moreBody ??= [this.body];
    this.moreBody.push(chunk);
  }

  onResponseEnd(): void {
    if (this.done) return;
    this.done = true;
    const bytes = this.moreBody ? Buffer.concat(this.moreBody) : this.body;
    let reply: TransportResponse;
    try {
      reply = decodeHttpReply(this.status, flatHeaders(this.headers ?? {}), bytes ?? EMPTY);
    } catch (error) {
      this.exchange.failed(error);
      return;
    }
    // A binary body is handed out: a plain copy, not a view of the socket's buffer.
    if (reply.binary) reply = { ...reply, binary: new Uint8Array(reply.binary) };
    this.exchange.replied(reply);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.done) return;
    this.done = true;
    const tls = describeTlsFailure(error);
    this.exchange.failed(
      tls
        ? new RingflowError(
            ErrorCode.NETWORK,
            `${this.request.method} ${this.root}${this.request.path}: ${tls}`,
            { cause: error },
          )
        : error,
    );
  }

  cancel(reason: Error): void {
    if (this.done || this.cancelled) return;
    this.cancelled = reason;
    if (this.controller) {
      this.controller.abort(reason);
      return;
    }
    // Still queued: the request leaves the queue only when undici reaches it (onRequestStart),
    // but the exchange learns now.
    this.done = true;
    this.exchange.failed(reason);
  }
}

const EMPTY = new Uint8Array(0);
